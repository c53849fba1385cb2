//! Issue 24: every request may name its thread and frame. Named, they hold for that request
//! only; left out, the session's current thread and that thread's selected frame are used.
//! Two socket clients work on one session with two programs caught: what one names never
//! changes what the other sees.

use crate::common;

use common::{DEMO, OUTPUT, SocketClient, socket_ready, start_with, var};
use serde_json::{Value, json};

/// A socket client's requests, numbered by the client itself.
struct Client {
    socket: SocketClient,
    next: u64,
}

impl Client {
    async fn connect(path: &std::path::Path) -> Client {
        let mut socket = SocketClient::connect(path).await;
        socket.until(|v| v["event"] == "ready").await;
        Client { socket, next: 0 }
    }

    async fn call(&mut self, cmd: &str, args: Value) -> Value {
        self.next += 1;
        self.socket.call(json!(self.next), cmd, args).await
    }

    async fn ok(&mut self, cmd: &str, args: Value) -> Value {
        let r = self.call(cmd, args.clone()).await;
        assert_eq!(r["ok"], true, "{cmd} {args}: {r}");
        r["result"].clone()
    }

    async fn fails(&mut self, cmd: &str, args: Value) -> String {
        let r = self.call(cmd, args.clone()).await;
        assert_eq!(r["ok"], false, "{cmd} {args} should fail: {r}");
        r["error"]["code"].as_str().unwrap_or_default().to_string()
    }

    /// The value of variable `name` in what `vars` answers for `args`.
    async fn value(&mut self, args: Value, name: &str) -> Value {
        let vars = self.ok("vars", args).await;
        var(&vars, name)["value"].clone()
    }

    async fn get(&mut self, args: Value) -> Value {
        self.ok("get", args).await["variable"]["value"].clone()
    }
}

/// What client A looks at: the current thread, its selected frame, and what a plain `vars`
/// and `stack` answer.
async fn view(a: &mut Client) -> (Value, Value, Value, Value, Value) {
    let status = a.ok("status", json!({})).await;
    let vars = a.ok("vars", json!({})).await;
    let stack = a.ok("stack", json!({})).await;
    (
        status["current_thread"].clone(),
        status["debuggee"]["selected_frame"].clone(),
        var(&vars, "LV_COUNT")["value"].clone(),
        stack["thread"].clone(),
        stack["current"].clone(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_name_their_own_thread_and_frame() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let dir = std::env::temp_dir().join(format!("abapdbg-cursors-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("s.sock");
    let socket = path.clone();
    let (mut h, task) = start_with(&sim, move |c| {
        c.socket = Some(socket);
        c.max_threads = 2;
    });
    socket_ready(&path).await;

    // Two runs of the demo, both caught in LINE_TOTAL (called from MAIN, frame 1).
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run1 = h.run_demo().await;
    let t1 = h.event("stopped").await["body"]["thread"].clone();
    let run2 = h.run_demo().await;
    let t2 = h.event("stopped").await["body"]["thread"].clone();
    assert_ne!(t1, t2);

    let mut a = Client::connect(&path).await;
    let mut b = Client::connect(&path).await;

    // B moves thread 2 on to the next call of LINE_TOTAL by naming it: thread 1 stays
    // current and where it was.
    let moved = b
        .ok("step", json!({"type": "continue", "thread": t2}))
        .await;
    assert_eq!(moved["stop"]["thread"], t2, "{moved}");
    assert_eq!(moved["stop"]["frame"]["line"], 48, "{moved}");
    let status = a.ok("status", json!({})).await;
    assert_eq!(status["current_thread"], t1, "{status}");
    assert_eq!(a.value(json!({}), "IV_QUANTITY").await, "1");

    // A makes thread 2 current and selects MAIN (frame 1) there: the session's default.
    a.ok("thread", json!({"id": t2})).await;
    let frame = a.ok("frame", json!({"index": 1})).await;
    assert_eq!(
        frame["frame"]["method"], "IF_OO_ADT_CLASSRUN~MAIN",
        "{frame}"
    );
    let before = view(&mut a).await;
    assert_eq!(before.0, t2);
    assert_eq!(before.1, 1);
    assert_eq!(before.2, "2", "thread 2's MAIN counted twice");
    assert_eq!((before.3.clone(), before.4.clone()), (t2.clone(), json!(1)));

    // B without thread or frame: the session default, thread 2 frame 1.
    assert_eq!(b.value(json!({}), "LV_COUNT").await, "2");
    assert_eq!(b.value(json!({}), "LV_TOTAL").await, "10");
    assert_eq!(b.get(json!({"path": "LV_COUNT"})).await, "2");
    // B names thread 1: its selected frame (0, LINE_TOTAL), then its frame 1 (MAIN).
    assert_eq!(
        b.value(json!({"thread": t1}), "IV_QUANTITY").await,
        "1",
        "thread 1's first call"
    );
    assert_eq!(
        b.value(json!({"thread": t1, "frame": 1}), "LV_COUNT").await,
        "1"
    );
    assert_eq!(
        b.get(json!({"path": "LV_TOTAL", "thread": t1, "frame": 1}))
            .await,
        "0"
    );
    // B names a frame of the current thread, and the other frame of the other thread.
    assert_eq!(
        b.value(json!({"frame": 0}), "IV_QUANTITY").await,
        "2",
        "thread 2's second call"
    );
    assert_eq!(
        b.get(json!({"path": "IV_QUANTITY", "thread": t1, "frame": 0}))
            .await,
        "1"
    );
    let stack = b.ok("stack", json!({"thread": t1})).await;
    assert_eq!(
        (stack["thread"].clone(), stack["current"].clone()),
        (t1.clone(), json!(0))
    );
    let stack = b.ok("stack", json!({"thread": t1, "frame": 1})).await;
    assert_eq!(stack["current"], 1, "{stack}");
    // Back to the default, read before: the same answer.
    assert_eq!(b.value(json!({}), "LV_COUNT").await, "2");
    // Each frame read once is kept for the stop: going back and forth between frames and
    // threads asks the system nothing (the keepalive's stack reads aside).
    sim.clear_request_log();
    assert_eq!(
        b.value(json!({"thread": t1, "frame": 1}), "LV_COUNT").await,
        "1"
    );
    assert_eq!(b.value(json!({"thread": t1}), "IV_QUANTITY").await, "1");
    assert_eq!(b.value(json!({}), "LV_COUNT").await, "2");
    assert_eq!(b.value(json!({"frame": 0}), "IV_QUANTITY").await, "2");
    assert_eq!(
        b.value(json!({"thread": t1, "frame": 1}), "LV_TOTAL").await,
        "0"
    );
    let asked: Vec<String> = sim
        .request_log()
        .into_iter()
        .filter(|l| l.is_round_trip() && !l.path.contains("/listeners"))
        .filter(|l| !l.path.contains("getStack"))
        .map(|l| l.path)
        .collect();
    assert!(asked.is_empty(), "frames read before: {asked:?}");
    // What does not exist is refused, and says what does.
    assert_eq!(
        b.fails("vars", json!({"thread": 99})).await,
        "state.no_debuggee"
    );
    assert_eq!(
        b.fails("get", json!({"path": "LV_COUNT", "frame": 9}))
            .await,
        "protocol.invalid_args"
    );
    assert_eq!(
        b.fails("step", json!({"type": "over", "thread": 99})).await,
        "state.no_debuggee"
    );

    // A's view has not changed.
    assert_eq!(view(&mut a).await, before);

    // B steps thread 1 by naming it: thread 1 moves, A's view stays.
    let stop = b
        .ok("step", json!({"type": "continue", "thread": t1}))
        .await;
    assert_eq!(stop["stop"]["thread"], t1, "{stop}");
    assert_eq!(
        b.get(json!({"path": "IV_QUANTITY", "thread": t1})).await,
        "2"
    );
    assert_eq!(
        b.value(json!({"thread": t1, "frame": 1}), "LV_COUNT").await,
        "2"
    );
    assert_eq!(view(&mut a).await, before);

    // B steps without naming: the session's current thread (2) moves, and its stop selects
    // its innermost frame again, as every stop does.
    let stop = b.ok("step", json!({"type": "over"})).await;
    assert_eq!(stop["stop"]["thread"], t2, "{stop}");
    assert_eq!(stop["stop"]["frame"]["line"], 49, "{stop}");
    let status = a.ok("status", json!({})).await;
    assert_eq!(status["current_thread"], t2);
    assert_eq!(status["debuggee"]["selected_frame"], 0);

    // Both programs run to their end.
    h.ok("bp.delete", json!({"all": true})).await;
    b.ok("step", json!({"type": "continue", "thread": t1}))
        .await;
    b.ok("step", json!({"type": "continue", "thread": t2}))
        .await;
    assert_eq!(h.response(&run1).await["result"]["output"], OUTPUT);
    assert_eq!(h.response(&run2).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    let _ = std::fs::remove_dir_all(&dir);
    sim.shutdown().await;
}

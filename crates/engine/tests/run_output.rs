//! The answer of a `run` (or `test`) reaches whoever sees its program end: one client runs a
//! class and leaves the `run` open at the stop, another client continues it through the
//! socket and gets the output with the end of the thread.

use crate::common;

use std::path::PathBuf;

use common::{Harness, ServeTask, SocketClient, adt_config, socket_ready, start_with};
use serde_json::{Value, json};

const CALC: &str = "ZCL_ABAPDBG_CALC";

async fn sim_with_fixtures() -> sim::SimHandle {
    sim::start(sim::SimConfig {
        program_dirs: vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")],
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim")
}

/// A writable session with a socket; a second client connected to it, subscribed to all.
async fn shared_session(
    sim: &sim::SimHandle,
    name: &str,
) -> (Harness, ServeTask, SocketClient, PathBuf) {
    let dir = std::env::temp_dir().join(format!("abapdbg-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("s.sock");
    let socket = path.clone();
    let (mut h, task) = start_with(sim, move |c| {
        c.socket = Some(socket);
        c.allow_writes = true;
    });
    h.event("ready").await;
    socket_ready(&path).await;
    let mut s = SocketClient::connect(&path).await;
    s.until(|v| v["event"] == "ready").await;
    let hello = s.call(json!("hi"), "hello", json!({})).await;
    assert_eq!(hello["ok"], true, "{hello}");
    (h, task, s, dir)
}

/// The socket client's `debuggee.ended` event of `thread`.
async fn ended_event(s: &mut SocketClient, thread: &Value) -> Value {
    let thread = thread.clone();
    s.until(move |v| v["event"] == "debuggee.ended" && v["body"]["thread"] == thread)
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_that_continues_a_run_gets_its_output_and_never_a_stale_one() {
    let sim = sim_with_fixtures().await;
    let (mut h, task, mut s, dir) = shared_session(&sim, "run-output").await;

    // Client 1 runs the class and stops at line 31 (lv_sum computed, output not yet written).
    h.ok("bp.set", json!({"location": format!("{CALC}:31")}))
        .await;
    let run = h.call_later("run", json!({"class": CALC})).await;
    let stop = h.event("stopped").await;
    let thread = stop["body"]["thread"].clone();
    // Client 2 continues it: the end carries the output of the run.
    let cont = s.call(json!(1), "step", json!({"type": "continue"})).await;
    let expected = json!({
        "thread": thread,
        "reason": "finished",
        "output": "sum 5 quotient -1",
        "run": {"cmd": "run", "class": CALC, "ok": true},
    });
    assert_eq!(cont["result"]["ended"], expected, "{cont}");
    let event = ended_event(&mut s, &thread).await;
    assert_eq!(event["body"], expected, "{event}");
    assert_eq!(event["cause"], 1, "{event}");
    // Client 1 sees the same end, and its run answers as before.
    assert_eq!(h.event("debuggee.ended").await["body"], expected);
    assert_eq!(
        h.response(&run).await["result"],
        json!({"class": CALC, "output": "sum 5 quotient -1"})
    );

    // A run that catches nothing answers only its request and leaves nothing behind...
    h.ok("bp.delete", json!({"all": true})).await;
    let quiet = h.ok("run", json!({"class": CALC})).await;
    assert_eq!(quiet["output"], "sum 5 quotient -1");
    // ...so the next caught run ends with its own output: changed here to tell them apart.
    h.ok("bp.set", json!({"location": format!("{CALC}:31")}))
        .await;
    let run = h.call_later("run", json!({"class": CALC})).await;
    let stop = h.event("stopped").await;
    let thread = stop["body"]["thread"].clone();
    h.ok("set", json!({"path": "LV_SUM", "value": "42"})).await;
    let cont = s.call(json!(2), "step", json!({"type": "continue"})).await;
    let expected = json!({
        "thread": thread,
        "reason": "finished",
        "output": "sum 42 quotient -1",
        "run": {"cmd": "run", "class": CALC, "ok": true},
    });
    assert_eq!(cont["result"]["ended"], expected, "{cont}");
    assert_eq!(ended_event(&mut s, &thread).await["body"], expected);
    assert_eq!(
        h.response(&run).await["result"]["output"],
        "sum 42 quotient -1"
    );

    h.finish(task).await;
    let _ = std::fs::remove_dir_all(&dir);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminate_and_test_carry_the_run_summary_and_unlinked_programs_nothing() {
    let sim = sim_with_fixtures().await;
    let (mut h, task, mut s, dir) = shared_session(&sim, "run-summary").await;

    // Terminated from the other client: the summary says how the run answered, no output.
    h.ok("bp.set", json!({"location": format!("{CALC}:31")}))
        .await;
    let run = h.call_later("run", json!({"class": CALC})).await;
    let thread = h.event("stopped").await["body"]["thread"].clone();
    let t = s.call(json!(1), "terminate", json!({})).await;
    let ended = &t["result"]["ended"];
    assert_eq!(ended["reason"], "terminated", "{t}");
    assert!(ended.get("output").is_none(), "{t}");
    assert_eq!(ended["run"]["cmd"], "run", "{t}");
    assert_eq!(ended["run"]["class"], CALC, "{t}");
    assert_eq!(ended["run"]["ok"], false, "{t}");
    assert_eq!(ended["run"]["error"]["code"], "run.failed", "{t}");
    let event = ended_event(&mut s, &thread).await;
    assert_eq!(&event["body"], ended, "{event}");
    let r = h.response(&run).await;
    assert_eq!(r["error"]["code"], "run.failed", "{r}");
    assert_eq!(r["error"]["message"], ended["run"]["error"]["message"]);

    // A unit test run: its result comes with the end, under "test".
    h.ok("bp.delete", json!({"all": true})).await;
    h.ok(
        "bp.set",
        json!({"location": format!("{CALC}/testclasses:21")}),
    )
    .await;
    let test = h
        .call_later("test", json!({"class": CALC, "method": "LTCL_CALC=>ADDS"}))
        .await;
    let thread = h.event("stopped").await["body"]["thread"].clone();
    let cont = s.call(json!(2), "step", json!({"type": "continue"})).await;
    let ended = &cont["result"]["ended"];
    assert_eq!(ended["reason"], "finished", "{cont}");
    assert_eq!(
        ended["run"],
        json!({"cmd": "test", "class": CALC, "ok": true}),
        "{cont}"
    );
    assert!(ended.get("output").is_none(), "{cont}");
    assert_eq!(ended["test"]["passed"], 1, "{cont}");
    assert_eq!(ended["test"]["failed"], 0, "{cont}");
    assert_eq!(ended_event(&mut s, &thread).await["body"], *ended);
    assert_eq!(h.response(&test).await["result"], ended["test"]);

    // A program caught without a run of ours: the end is what it always was.
    h.ok("bp.delete", json!({"all": true})).await;
    h.ok("bp.set", json!({"location": format!("{CALC}:31")}))
        .await;
    let outside = adt::Client::new(&adt_config(&sim), adt::SessionMode::Stateless).expect("client");
    let trigger = tokio::spawn(async move { outside.classrun(CALC).await });
    let thread = h.event("stopped").await["body"]["thread"].clone();
    let cont = s.call(json!(3), "step", json!({"type": "continue"})).await;
    assert_eq!(
        cont["result"]["ended"],
        json!({"thread": thread, "reason": "finished"}),
        "{cont}"
    );
    let output = trigger.await.expect("join").expect("classrun");
    assert_eq!(output, "sum 5 quotient -1");

    h.finish(task).await;
    let _ = std::fs::remove_dir_all(&dir);
    sim.shutdown().await;
}

/// Issue 25 item 11 (and 24): five clients run the same class at once, each from a socket of
/// its own. Each of the four the session can hold gets a stop of its own (its `stopped` event
/// carries its request as `cause`, so its wait ends there); the fifth program, caught beyond
/// the thread cap, is let go and its `run` answers saying so. Every run's program then ends
/// with its run's answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_runs_of_one_class_at_once_each_get_their_own_stop_or_are_told() {
    // RUST_LOG=engine=debug,sim=debug shows who caught and attached what, if this hangs.
    common::trace();
    const DEMO: &str = common::DEMO;
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let dir = std::env::temp_dir().join(format!("abapdbg-five-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("s.sock");
    let socket = path.clone();
    let (mut h, task) = start_with(&sim, move |c| {
        c.socket = Some(socket);
        c.max_threads = 4;
    });
    h.event("ready").await;
    socket_ready(&path).await;
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;

    let mut clients = Vec::new();
    for _ in 0..5 {
        let mut s = SocketClient::connect(&path).await;
        s.until(|v| v["event"] == "ready").await;
        clients.push(s);
    }
    // All five in flight before any is answered.
    for s in clients.iter_mut() {
        let line = json!({"id": 1, "cmd": "run", "args": {"class": DEMO}});
        tokio::io::AsyncWriteExt::write_all(&mut s.write, format!("{line}\n").as_bytes())
            .await
            .expect("write");
    }
    let mut threads = Vec::new();
    let mut released = Vec::new();
    for (i, s) in clients.iter_mut().enumerate() {
        let first = s
            .until(|v| {
                (v["event"] == "stopped" && v["cause"] == 1)
                    || (v["type"] == "response" && v["id"] == 1)
            })
            .await;
        if first["type"] == "event" {
            assert_eq!(first["body"]["frame"]["line"], 48, "{first}");
            threads.push((i, first["body"]["thread"].clone()));
        } else {
            released.push(first);
        }
    }
    assert_eq!(
        threads.len(),
        4,
        "one stop per run the session holds: {threads:?}; answered instead: {released:#?}"
    );
    let mut distinct: Vec<String> = threads.iter().map(|(_, t)| t.to_string()).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "each its own program: {threads:?}");
    assert_eq!(released.len(), 1, "{released:?}");
    let r = &released[0];
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["result"]["output"], common::OUTPUT, "{r}");
    assert_eq!(r["result"]["released"]["how"], "continued", "{r}");
    assert_eq!(r["result"]["released"]["max_threads"], 4, "{r}");

    // Each client lets the program it stopped in go: the end carries the answer of the run
    // whose program it was. The five programs are one class run by one user, which the system
    // does not tell apart: a run paired with one catch may have started another, and its
    // request answers when its own program ends. So all end first, then every run answers.
    h.ok("bp.delete", json!({"all": true})).await;
    for (i, thread) in &threads {
        let s = &mut clients[*i];
        let end = s
            .call(
                json!(2),
                "step",
                json!({"type": "continue", "thread": thread}),
            )
            .await;
        assert_eq!(end["result"]["ended"]["thread"], *thread, "{end}");
        assert_eq!(end["result"]["ended"]["output"], common::OUTPUT, "{end}");
        assert_eq!(end["result"]["ended"]["run"]["ok"], true, "{end}");
        assert_eq!(end["result"]["ended"]["run"]["class"], DEMO, "{end}");
    }
    for (i, _) in &threads {
        let s = &mut clients[*i];
        let run = s.until(|v| v["type"] == "response" && v["id"] == 1).await;
        assert_eq!(run["result"]["output"], common::OUTPUT, "{run}");
        assert!(run["result"].get("released").is_none(), "{run}");
    }
    let status = h.ok("status", json!({})).await;
    assert_eq!(status["threads"], json!([]), "{status}");
    h.finish(task).await;
    let _ = std::fs::remove_dir_all(&dir);
    sim.shutdown().await;
}

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

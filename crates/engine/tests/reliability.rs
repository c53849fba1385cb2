//! Issue 14's guarantees, each against the simulator's fault injection, each ending with the
//! simulator's admin state: nothing stopped, no listener, none of our breakpoints left.
//! RELIABILITY.md lists them with the test that proves each.

use crate::common;

use std::time::Duration;

use common::{DEMO, OUTPUT, start_with};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// `PUT /sim/faults` with a JSON body, as another tool (or the test) drives the simulator.
async fn faults(sim: &sim::SimHandle, body: Value) {
    let host = sim.base_url().trim_start_matches("http://").to_string();
    let body = body.to_string();
    let mut stream = tokio::net::TcpStream::connect(&host)
        .await
        .expect("connect to the simulator");
    let request = format!(
        "PUT /sim/faults HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .await
        .expect("send faults");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer).await;
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "faults refused: {answer}"
    );
}

fn state(sim: &sim::SimHandle) -> Value {
    serde_json::from_str(&sim.state_json()).expect("state is JSON")
}

/// Programs the simulator holds stopped (waiting for an attach, or attached).
fn stopped(sim: &sim::SimHandle) -> Vec<Value> {
    state(sim)["debuggees"]
        .as_array()
        .map(|d| {
            d.iter()
                .filter(|d| d["phase"] == "waiting" || d["phase"] == "attached")
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// Nothing stopped, no listener, no breakpoint of anybody's on the simulator. Programs end
/// moments after they are released: wait for that, bounded.
async fn assert_clean(sim: &sim::SimHandle) {
    for _ in 0..500 {
        if stopped(sim).is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let s = state(sim);
    assert_eq!(
        stopped(sim),
        Vec::<Value>::new(),
        "a program is still stopped: {s}"
    );
    assert_eq!(s["listeners"], json!([]), "a listener is left: {s}");
    assert_eq!(s["breakpoints"], json!({}), "breakpoints are left: {s}");
}

/// Item 1: the system drops the debug session while the program is stopped. The next command
/// says so (`state.session_lost`), the program is attached again, and debugging goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_the_system_dropped_is_attached_again() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    h.event("stopped").await;
    faults(&sim, json!({"expireSessionsNow": true})).await;
    assert_eq!(
        h.fails("step", json!({"type": "over"})).await,
        "state.session_lost"
    );
    let lost = h.event("debuggee.lost").await;
    assert_eq!(lost["body"]["reason"], "session_lost", "{lost}");
    assert_eq!(lost["body"]["outcome"], "reattached", "{lost}");
    // Still stopped where it was, on a new session: stepping works again.
    let step = h.ok("step", json!({"type": "over"})).await;
    assert_eq!(step["stop"]["frame"]["line"], 49, "{step}");
    h.release().await;
    let r = h.response(&run).await;
    assert_eq!(r["result"]["output"], OUTPUT, "{r}");
    h.finish(task).await;
    assert_clean(&sim).await;
    sim.shutdown().await;
}

/// Item 1: sessions dropped again and again (every sixth request) while stepping: each time
/// the program is attached again, stepping goes on, and it ends with its output.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_dropped_again_and_again_while_stepping_are_recovered_each_time() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    h.event("stopped").await;
    faults(&sim, json!({"sessionExpiryEvery": 6})).await;
    let mut lost = 0;
    let mut steps = 0;
    while steps < 8 && lost < 60 {
        let r = h.call("step", json!({"type": "over"})).await;
        if r["ok"] == true {
            steps += 1;
        } else {
            // Dropped again, or still being attached again: send it again.
            assert_eq!(r["error"]["code"], "state.session_lost", "{r}");
            lost += 1;
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    assert_eq!(steps, 8, "stepping goes on ({lost} drops)");
    assert!(lost > 0, "the fault dropped the session at least once");
    let ev = h.event("debuggee.lost").await;
    assert_eq!(ev["body"]["outcome"], "reattached", "{ev}");
    faults(&sim, json!({})).await;
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    assert_clean(&sim).await;
    sim.shutdown().await;
}

/// Item 1: a command that reads (here a frame switch) finds the session dropped too; the
/// program is attached again in the background and the command works when sent again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_that_finds_the_session_dropped_has_it_attached_again() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    h.event("stopped").await;
    faults(&sim, json!({"expireSessionsNow": true})).await;
    assert_eq!(
        h.fails("frame", json!({"index": 1})).await,
        "state.session_lost"
    );
    let lost = h.event("debuggee.lost").await;
    assert_eq!(lost["body"]["outcome"], "reattached", "{lost}");
    let frame = h.ok("frame", json!({"index": 1})).await;
    assert_eq!(frame["frame"]["line"], 36, "{frame}");
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    assert_clean(&sim).await;
    sim.shutdown().await;
}

/// Item 1: when the program cannot be attached again, it is released through a fresh session
/// (terminated by its id), the `run` is answered, and the event says what happened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_session_that_cannot_be_attached_again_releases_the_program() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    h.event("stopped").await;
    // Every attach (four tries for the recovery, four more for the release) fails.
    faults(
        &sim,
        json!({"expireSessionsNow": true,
               "failNext": [{"operation": "attach", "status": 503, "times": 8}]}),
    )
    .await;
    assert_eq!(
        h.fails("step", json!({"type": "over"})).await,
        "state.session_lost"
    );
    let lost = h.event("debuggee.lost").await;
    assert_eq!(lost["body"]["outcome"], "released", "{lost}");
    assert_eq!(lost["body"]["how"], "terminated", "{lost}");
    let ended = h.event("debuggee.ended").await;
    assert_eq!(ended["body"]["reason"], "lost", "{ended}");
    let r = h.response(&run).await;
    assert_eq!(r["error"]["code"], "run.failed", "the run is answered: {r}");
    assert!(stopped(&sim).is_empty());
    h.finish(task).await;
    assert_clean(&sim).await;
    sim.shutdown().await;
}

/// Item 1: a shutdown right after the session was dropped still releases the program.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_releases_a_program_whose_session_was_dropped() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    h.event("stopped").await;
    faults(&sim, json!({"expireSessionsNow": true})).await;
    h.input.shutdown().await.expect("close stdin");
    // Attached again from a fresh session and continued: the run is answered, with its
    // output, or as cut short when the session ended before the output came.
    let r = h.response(&run).await;
    assert!(
        r["result"]["output"] == OUTPUT || r["error"]["code"] == "state.shutting_down",
        "{r}"
    );
    let receipt = tokio::time::timeout(Duration::from_secs(60), task)
        .await
        .expect("serve ends")
        .expect("join")
        .expect("serve");
    assert_eq!(receipt.debuggees.len(), 1, "{receipt:?}");
    assert_eq!(receipt.debuggees[0].how, "continued", "{receipt:?}");
    assert!(receipt.errors.is_empty(), "{receipt:?}");
    assert_clean(&sim).await;
    sim.shutdown().await;
}

/// Item 2: a listener that gave up after repeated 5xx is deleted on the system, by the give-up
/// itself or, when that fails too, by the shutdown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listener_that_gave_up_is_deleted_on_the_system() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |c| c.listener_poll_secs = 1);
    h.ok("listen", json!({})).await;
    h.event("listener.armed").await;
    faults(
        &sim,
        json!({"failNext": [
            {"operation": "listen", "status": 503, "times": 5},
            {"operation": "stopListener", "status": 503, "times": 1}
        ]}),
    )
    .await;
    h.event("listener.failed").await;
    // The give-up could not delete it (the system failed that too): it is still there.
    assert_eq!(
        state(&sim)["listeners"].as_array().map(Vec::len),
        Some(1),
        "{}",
        sim.state_json()
    );
    let receipt = h.finish(task).await;
    assert!(receipt.listener_stopped, "{receipt:?}");
    assert!(receipt.errors.is_empty(), "{receipt:?}");
    assert_clean(&sim).await;
    sim.shutdown().await;
}

/// Item 4: a breakpoint whose delete could not be sent (its server id, in the delete URL,
/// holds a 65,000-character class name) is refused before it is set.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_breakpoint_that_could_not_be_deleted_is_refused_before_it_is_set() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    let huge = format!("ZCX_{}", "A".repeat(65_000));
    let r = h.call("bp.set", json!({"exception": huge})).await;
    assert_eq!(
        r["error"]["code"], "protocol.invalid_args",
        "{}",
        r["error"]
    );
    assert_eq!(state(&sim)["breakpoints"], json!({}));
    // A real class name is fine.
    let ok = h
        .ok("bp.set", json!({"exception": "CX_SY_ZERODIVIDE"}))
        .await;
    assert_eq!(ok["breakpoints"][0]["status"], "verified", "{ok}");
    h.finish(task).await;
    assert_clean(&sim).await;
    sim.shutdown().await;
}

fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true")
        .spawn()
        .expect("spawn true");
    let pid = child.id();
    child.wait().expect("wait");
    pid
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("abapdbg-reliability-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Item 4: what a killed session left and the next start could not release stays recorded
/// (not dropped), and is released at shutdown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_orphan_record_that_was_not_released_is_kept_until_it_is() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let old = adt::Identity {
        user: "DEVELOPER".into(),
        terminal_id: "O".repeat(32),
        ide_id: "0".repeat(32),
    };
    // What the dead session held: an exception breakpoint on the system.
    let client =
        adt::Client::new(&common::adt_config(&sim), adt::SessionMode::Stateless).expect("client");
    let spec = adt::BreakpointSpec {
        client_id: "old-1".into(),
        kind: adt::BreakpointKind::Exception {
            class: "CX_SY_ZERODIVIDE".into(),
        },
        condition: None,
    };
    let set = client
        .set_breakpoints(&old, &adt::SyncScope::Additive, &[spec])
        .await
        .expect("set");
    let server_id = set[0].id.clone().expect("accepted");
    let dir = temp_dir("orphan-kept");
    let path = dir.join("session.json");
    let record = json!({
        "pid": dead_pid(), "base_url": sim.base_url(), "user": "DEVELOPER",
        "terminal_id": old.terminal_id, "ide_id": old.ide_id, "listener": false,
        "line_uris": [], "unscoped_server_ids": [server_id], "threads": [],
    });
    std::fs::write(&path, record.to_string()).expect("write record");
    // The system fails the delete once.
    faults(
        &sim,
        json!({"failNext": [{"operation": "deleteBreakpoint", "status": 503, "times": 1}]}),
    )
    .await;
    let file = path.clone();
    let (mut h, task) = start_with(&sim, move |c| c.state_file = Some(file));
    let released = h.event("orphan.released").await;
    assert_eq!(released["body"]["errors"].as_array().map(Vec::len), Some(1));
    // Once the file shows something of ours, it still lists what was not released.
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let mut recorded = Value::Null;
    for _ in 0..1500 {
        recorded = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(Value::Null);
        if recorded["line_uris"]
            .as_array()
            .is_some_and(|u| !u.is_empty())
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        recorded["leftover"]["unscoped_server_ids"],
        json!([server_id]),
        "{recorded}"
    );
    // Shutdown releases it: nothing left, the file goes.
    let receipt = h.finish(task).await;
    assert!(receipt.errors.is_empty(), "{receipt:?}");
    assert!(!path.exists());
    assert_clean(&sim).await;
    let _ = std::fs::remove_dir_all(&dir);
    sim.shutdown().await;
}

/// Item 5: one 5xx on attach is retried; the program stops as if nothing happened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_server_error_on_attach_is_retried() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    faults(
        &sim,
        json!({"failNext": [{"operation": "attach", "status": 503, "times": 1}]}),
    )
    .await;
    let run = h.run_demo().await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], 48, "{stop}");
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    assert_clean(&sim).await;
    sim.shutdown().await;
}

/// Item 5: an attach that keeps failing releases the program and the `run` is answered,
/// instead of waiting for the system's attach timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attach_that_keeps_failing_releases_the_program_and_answers_the_run() {
    // The simulator would hold the program a minute waiting for an attach.
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    faults(
        &sim,
        json!({"failNext": [{"operation": "attach", "status": 503, "times": 8}]}),
    )
    .await;
    let run = h.run_demo().await;
    let lost = h.event("debuggee.lost").await;
    assert_eq!(lost["body"]["reason"], "attach_failed", "{lost}");
    assert_eq!(lost["body"]["released"], "terminated", "{lost}");
    let r = tokio::time::timeout(Duration::from_secs(20), h.response(&run))
        .await
        .expect("the run is answered well before the attach timeout");
    assert_eq!(r["error"]["code"], "run.failed", "{r}");
    h.finish(task).await;
    assert_clean(&sim).await;
    sim.shutdown().await;
}

/// Item 6: breakpoints another tool of the same user deleted on the system are put back when
/// a program is run, so it stops.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakpoints_deleted_by_another_tool_are_put_back() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    h.ok("listen", json!({})).await;
    h.event("listener.armed").await;
    faults(&sim, json!({"deleteBreakpointsNow": true})).await;
    assert_eq!(state(&sim)["breakpoints"], json!({}));
    let run = h.run_demo().await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], 48, "{stop}");
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    assert_clean(&sim).await;
    sim.shutdown().await;
}

/// Item 6: when another tool deletes the listener (its poll ends early) and our breakpoints,
/// the listener is armed again and the breakpoints put back, so a program started elsewhere
/// (not through `run`) is still caught.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listener_deleted_by_another_tool_is_armed_again_with_the_breakpoints() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |c| c.listener_poll_secs = 30);
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    h.ok("listen", json!({})).await;
    h.event("listener.armed").await;
    faults(
        &sim,
        json!({"deleteListenersNow": true, "deleteBreakpointsNow": true}),
    )
    .await;
    h.event("listener.armed").await;
    // The breakpoints come back with the arming (in the background): wait for them, bounded.
    for _ in 0..500 {
        if state(&sim)["breakpoints"] != json!({}) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_ne!(
        state(&sim)["breakpoints"],
        json!({}),
        "{}",
        sim.state_json()
    );
    // Started by another client: only the listener can catch it.
    let client =
        adt::Client::new(&common::adt_config(&sim), adt::SessionMode::Stateless).expect("client");
    let run = tokio::spawn(async move { client.classrun(DEMO).await });
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], 48, "{stop}");
    h.release().await;
    let out = run.await.expect("join").expect("classrun");
    assert_eq!(out, OUTPUT);
    h.finish(task).await;
    assert_clean(&sim).await;
    sim.shutdown().await;
}

/// Item 8: a `wait` for a stop answers with that stop (its epoch and frame, as the `stopped`
/// event carries them), whether it was sent before the program was caught or while it ran.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pending_wait_answers_with_the_stop_it_waited_for() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let wait = h
        .call_later("wait", json!({"until": "stopped", "timeout_ms": 30000}))
        .await;
    let run = h.run_demo().await;
    let stop = h.event("stopped").await;
    let waited = h.response(&wait).await;
    assert_eq!(waited["result"]["stop"], stop["body"], "{waited}");
    assert_eq!(waited["result"]["epoch"], stop["body"]["epoch"], "{waited}");
    // While a continue runs (its answer deferred at once), the wait answers the next stop.
    let pending = h
        .ok("step", json!({"type": "continue", "timeout_ms": 0}))
        .await;
    assert_eq!(pending["pending"], true, "{pending}");
    let waited = h
        .ok("wait", json!({"until": "stopped", "timeout_ms": 30000}))
        .await;
    assert!(
        waited["epoch"].as_u64() > stop["body"]["epoch"].as_u64(),
        "{waited}"
    );
    assert_eq!(waited["epoch"], waited["stop"]["epoch"], "{waited}");
    assert!(waited["frame"].is_object(), "{waited}");
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    assert_clean(&sim).await;
    sim.shutdown().await;
}

/// Item 12: with `--release continue`, a program beyond the thread cap is continued (past our
/// breakpoints, which it keeps reaching), not terminated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn programs_beyond_the_thread_cap_are_continued_when_the_policy_says_so() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |c| {
        c.max_threads = 1;
        c.release = engine::ReleasePolicy::Continue;
    });
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let first = h.run_demo().await;
    h.event("stopped").await;
    let second = h.run_demo().await;
    let released = h.event("thread.released").await;
    assert_eq!(released["body"]["how"], "continued", "{released}");
    assert_eq!(h.response(&second).await["result"]["output"], OUTPUT);
    h.release().await;
    assert_eq!(h.response(&first).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    assert_clean(&sim).await;
    sim.shutdown().await;
}

/// Item 12: a state file whose pid now belongs to another process (the owner was killed, the
/// pid reused) does not block the next start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reused_pid_in_a_stale_state_file_does_not_block_a_start() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let mut other = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .expect("spawn sleep");
    let dir = temp_dir("reused-pid");
    let path = dir.join("session.json");
    // Written by a session that started at another time than the process now under its pid.
    let record = json!({
        "pid": other.id(), "pid_start": 1, "base_url": sim.base_url(), "user": "DEVELOPER",
        "terminal_id": "O".repeat(32), "ide_id": "0".repeat(32), "listener": false,
        "line_uris": [], "unscoped_server_ids": [], "threads": [],
    });
    std::fs::write(&path, record.to_string()).expect("write record");
    let file = path.clone();
    let (mut h, task) = start_with(&sim, move |c| c.state_file = Some(file));
    let released = h.event("orphan.released").await;
    assert_eq!(released["body"]["pid"], other.id(), "{released}");
    assert_eq!(h.ok("status", json!({})).await["state"], "idle");
    h.finish(task).await;
    let _ = other.kill();
    let _ = other.wait();
    assert_clean(&sim).await;
    let _ = std::fs::remove_dir_all(&dir);
    sim.shutdown().await;
}

//! Events that report what happens without a request: programs beyond the thread cap, a
//! debuggee that went away on the system, a listener that cannot reach the system.

use crate::common;

use std::time::Duration;

use common::{DEMO, OUTPUT, start_with};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn programs_beyond_the_thread_cap_are_released_with_an_event() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |c| c.max_threads = 1);
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let first = h.run_demo().await;
    h.event("stopped").await;
    let second = h.run_demo().await;
    let released = h.event("thread.released").await;
    assert_eq!(released["body"]["max_threads"], 1, "{released}");
    assert!(
        released["body"]["program"]
            .as_str()
            .is_some_and(|p| p.starts_with(DEMO))
    );
    // The released program ran to its end (continued, or terminated when it kept stopping).
    let r2 = h.response(&second).await;
    let how = released["body"]["how"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    match how.as_str() {
        "continued" => assert_eq!(r2["result"]["output"], OUTPUT, "{r2}"),
        "terminated" => assert_eq!(r2["error"]["code"], "run.failed", "{r2}"),
        other => panic!("unexpected release: {other}"),
    }
    assert_eq!(
        h.ok("threads", json!({})).await["threads"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    h.release().await;
    assert_eq!(h.response(&first).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_debuggee_aborted_on_the_system_becomes_an_event_not_a_hang() {
    let sim = sim::start(sim::SimConfig {
        stopped_debuggee_expiry: Duration::from_millis(300),
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim");
    let (mut h, task) = start_with(&sim, |c| c.keepalive = Duration::from_millis(700));
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    h.event("stopped").await;
    // Nobody touches the program; the system aborts it; the keepalive notices.
    let lost = h.event("debuggee.ended").await;
    assert_eq!(lost["body"]["reason"], "lost", "{lost}");
    // The run that caught it failed; its end says so.
    assert_eq!(lost["body"]["run"]["ok"], false, "{lost}");
    assert_eq!(lost["body"]["run"]["error"]["code"], "run.failed", "{lost}");
    assert!(lost["body"].get("output").is_none(), "{lost}");
    assert_eq!(h.ok("status", json!({})).await["state"], "ended");
    assert_eq!(h.fails("vars", json!({})).await, "state.not_stopped");
    let r = h.response(&run).await;
    assert_eq!(r["ok"], false, "an aborted run does not report output: {r}");
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listener_that_cannot_reach_the_system_gives_up_with_an_event() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |c| c.listener_poll_secs = 1);
    h.ok("listen", json!({})).await;
    h.event("listener.armed").await;
    sim.shutdown().await;
    let failed = tokio::time::timeout(Duration::from_secs(30), h.event("listener.failed"))
        .await
        .expect("the listener gives up within 30 s");
    assert!(
        failed["body"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{failed}"
    );
    let st = h.ok("status", json!({})).await;
    assert_eq!(st["listener"]["armed"], false);
    // A trigger tries to listen again, and fails (bounded) rather than hanging.
    let run = h.call("run", json!({"class": DEMO})).await;
    let code = run["error"]["code"].as_str().unwrap_or_default();
    assert!(code.starts_with("transport."), "{run}");
    let receipt = h.finish(task).await;
    assert!(
        !receipt.errors.is_empty() || !receipt.listener_stopped,
        "{receipt:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_is_an_auth_error_with_a_hint() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |c| c.adt.password = "wrong".into());
    let hello = h.ok("hello", json!({})).await;
    assert_eq!(hello["system"]["logon"]["ok"], false, "{hello}");
    assert_eq!(
        hello["system"]["logon"]["error"]["code"], "auth.unauthenticated",
        "{hello}"
    );
    let r = h
        .call("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    assert_eq!(r["error"]["code"], "auth.unauthenticated", "{r}");
    assert!(
        r["error"]["hint"]
            .as_str()
            .is_some_and(|t| t.contains("ABAPDBG_PASSWORD")),
        "{r}"
    );
    assert_eq!(r["error"]["adt"]["http_status"], 401, "{r}");
    let src = h.call("source", json!({"location": "ZCL_NOPE:1"})).await;
    assert_eq!(src["ok"], false, "{src}");
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakpoints_set_while_the_system_is_down_are_set_when_it_answers() {
    // A free port with nothing listening: the system is "down".
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port");
    let placeholder = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&placeholder, |c| {
        c.adt.base_url = format!("http://127.0.0.1:{port}");
    });
    let r = h
        .ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    assert_eq!(r["breakpoints"][0]["status"], "pending", "{r}");
    assert!(
        r["warning"].as_str().is_some_and(|w| w.contains("pending")),
        "{r}"
    );
    // The system comes up on that port: the breakpoint is set and announced.
    let sim = sim::start(sim::SimConfig {
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim on the port");
    let changed = tokio::time::timeout(Duration::from_secs(60), h.event("breakpoint.changed"))
        .await
        .expect("announced within 20 s");
    assert_eq!(
        changed["body"]["breakpoint"]["status"], "verified",
        "{changed}"
    );
    assert!(changed["body"]["breakpoint"]["server_id"].is_string());
    // And it works: the run stops there.
    let run = h.run_demo().await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], 48, "{stop}");
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    sim.shutdown().await;
    placeholder.shutdown().await;
}

/// `PUT /sim/faults` on the simulator's admin API.
async fn set_faults(sim: &sim::SimHandle, faults: serde_json::Value) {
    let url = format!("{}/sim/faults", sim.base_url());
    let body = faults.to_string();
    let host = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default()
        .to_string();
    let request = format!(
        "PUT /sim/faults HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(&host)
        .await
        .expect("connect admin");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("read");
    assert!(answer.starts_with("HTTP/1.1 2"), "faults not set: {answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_that_cannot_be_attached_in_time_is_reported_as_lost() {
    // The program waits 300 ms for a debugger; every request takes a second: the attach is late.
    let sim = sim::start(sim::SimConfig {
        attach_timeout: Duration::from_millis(300),
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    h.ok("listen", json!({})).await;
    h.event("listener.armed").await;
    // The session learns what the system offers before it turns slow (a client's `hello`);
    // without it, see the test below: the learning in the run is no hang, but it moves the
    // program's stop to where the harness's 5 s poll may just have ended on the server's time.
    h.ok("hello", json!({})).await;
    set_faults(&sim, json!({"latencyMs": 1000})).await;
    let run = h.run_demo().await;
    let lost = tokio::time::timeout(Duration::from_secs(30), h.event("debuggee.lost"))
        .await
        .expect("debuggee.lost within 30 s");
    assert!(
        lost["body"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("attach")),
        "{lost}"
    );
    assert!(lost["body"]["adt"]["http_status"].is_number(), "{lost}");
    assert_eq!(
        lost["body"]["program"]
            .as_str()
            .map(|p| p.starts_with(DEMO)),
        Some(true)
    );
    set_faults(&sim, json!({})).await;
    // The program was not held: it ran on. A later hit may have been caught: let it go.
    h.ok("bp.delete", json!({"all": true})).await;
    for _ in 0..5 {
        if h.ok("status", json!({})).await["state"] != "stopped" {
            break;
        }
        h.ok("step", json!({"type": "continue"})).await;
    }
    let r = tokio::time::timeout(Duration::from_secs(60), h.response(&run))
        .await
        .expect("the run ends");
    assert!(r["ok"] == true || r["error"]["code"] == "run.failed", "{r}");
    h.finish(task).await;
    sim.shutdown().await;
}

/// The same without a `hello`: the session learns what the system offers at the first `run`,
/// under the latency, in the run and again in the catch's attach. The loss is still reported.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_that_cannot_be_attached_in_time_is_reported_as_lost_without_a_hello() {
    // RUST_LOG=engine=debug,sim=debug shows each request and its time, if this fails.
    common::trace();
    let sim = sim::start(sim::SimConfig {
        attach_timeout: Duration::from_millis(300),
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim");
    // The listener's poll must be on the system when the program stops: a poll that ends on
    // the server's time just then is sent again a second late, after the program ran on
    // unseen (no loss to report: the system never showed it).
    let (mut h, task) = start_with(&sim, |c| c.listener_poll_secs = 60);
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    h.ok("listen", json!({})).await;
    h.event("listener.armed").await;
    set_faults(&sim, json!({"latencyMs": 1000})).await;
    let run = h.run_demo().await;
    let lost = tokio::time::timeout(Duration::from_secs(30), h.event("debuggee.lost"))
        .await
        .expect("debuggee.lost within 30 s");
    assert!(
        lost["body"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("attach")),
        "{lost}"
    );
    set_faults(&sim, json!({})).await;
    h.ok("bp.delete", json!({"all": true})).await;
    for _ in 0..5 {
        if h.ok("status", json!({})).await["state"] != "stopped" {
            break;
        }
        h.ok("step", json!({"type": "continue"})).await;
    }
    let r = tokio::time::timeout(Duration::from_secs(60), h.response(&run))
        .await
        .expect("the run ends");
    assert!(r["ok"] == true || r["error"]["code"] == "run.failed", "{r}");
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_listener_rides_out_transient_server_errors() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |c| c.listener_poll_secs = 1);
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    h.ok("listen", json!({})).await;
    h.event("listener.armed").await;
    // Two seconds in which every request gets the ICM's "Service cannot be reached" page.
    set_faults(&sim, json!({"icmEvery": 1})).await;
    tokio::time::sleep(Duration::from_millis(2000)).await;
    set_faults(&sim, json!({})).await;
    let failed_polls = sim
        .request_log()
        .iter()
        .filter(|r| r.path.starts_with("/sap/bc/adt/debugger/listeners") && r.status == 400)
        .count();
    assert!(failed_polls >= 1, "the listener met the outage");
    // It re-polled on its own: a run is caught as usual, and no failure was reported.
    let run = h.run_demo().await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], 48, "{stop}");
    assert!(
        !h.seen.iter().any(|v| v["event"] == "listener.failed"),
        "no listener.failed"
    );
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    sim.shutdown().await;
}

//! Issue 25's guarantees that live in the engine: only the listener we hold is deleted, the
//! release survives a CSRF token rotated under it and its receipt says only what was done, and
//! breakpoints are neither duplicated nor unbounded.

use crate::common;

use std::time::Duration;

use common::{DEMO, start_with};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// `PUT /sim/faults` on the simulator's admin API.
async fn set_faults(sim: &sim::SimHandle, faults: Value) {
    let host = sim.base_url().trim_start_matches("http://").to_string();
    let body = faults.to_string();
    let request = format!(
        "PUT /sim/faults HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(&host)
        .await
        .expect("connect admin");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("read");
    assert!(answer.starts_with("HTTP/1.1 2"), "faults not set: {answer}");
}

fn state(sim: &sim::SimHandle) -> Value {
    serde_json::from_str(&sim.state_json()).expect("state is JSON")
}

/// Requests that deleted a listener, of any user.
fn listener_deletes(sim: &sim::SimHandle) -> usize {
    sim.request_log()
        .iter()
        .filter(|r| r.method == "DELETE" && r.path.contains("/debugger/listeners"))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_listen_deletes_no_listener_at_shutdown() {
    let sim = sim::start(sim::SimConfig {
        faults: sim::Faults {
            foreign_listeners: vec!["DEVELOPER".into()],
            ..Default::default()
        },
        ..Default::default()
    })
    .await
    .expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.event("ready").await;
    h.ok("listen", json!({})).await;
    let conflict = h.event("listener.conflict").await;
    assert_eq!(conflict["body"]["displaced"], false, "{conflict}");
    sim.clear_request_log();
    let receipt = h.finish(task).await;
    assert!(
        !receipt.listener_stopped,
        "the listener is the other debugger's, not ours: {receipt:?}"
    );
    assert_eq!(
        listener_deletes(&sim),
        0,
        "no DELETE of the other debugger's listener"
    );
    let listeners = state(&sim)["listeners"].clone();
    assert_eq!(
        listeners[0]["terminalId"],
        sim::FOREIGN_TERMINAL_ID,
        "{listeners}"
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_csrf_token_rotated_during_the_release_leaves_nothing_and_the_receipt_is_true() {
    // The token rotates as the release begins, then again every few requests, each round at
    // other requests, so rotations fall between the parallel requests and between a fetch and
    // its retry. (Every 2 requests, no client wins: a fetch and its retry never meet.)
    for every in [3u32, 4, 5, 6, 7, 8] {
        let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
        let (mut h, task) = start_with(&sim, |_| {});
        h.event("ready").await;
        h.ok("listen", json!({})).await;
        h.event("listener.armed").await;
        for location in [
            format!("{DEMO}:48"),
            "ZCL_ABAPDBG_ORDERS:20".to_string(),
            "ZCL_ABAPDBG_ORDERS:30".to_string(),
        ] {
            h.ok("bp.set", json!({ "location": location })).await;
        }
        h.ok("bp.set", json!({"statement": "CATCH"})).await;
        h.ok("bp.set", json!({"exception": "CX_SY_ZERODIVIDE"}))
            .await;
        set_faults(&sim, json!({"csrfRotateEvery": every + 1})).await;
        set_faults(
            &sim,
            json!({"rotateCsrfNow": true, "csrfRotateEvery": every + 1}),
        )
        .await;
        let receipt = h.finish(task).await;
        let left = state(&sim);
        let ours_left = left["breakpoints"]
            .as_object()
            .map(|m| m.values().map(|v| v.as_array().map_or(0, Vec::len)).sum())
            .unwrap_or(0usize);
        let listener_left = left["listeners"].as_array().map_or(0, Vec::len);
        // What the receipt says was done is done.
        if receipt.listener_stopped {
            assert_eq!(
                listener_left, 0,
                "rotation every {every}: {receipt:?} {left}"
            );
        }
        // And with a rotation mid-release, everything is done.
        assert_eq!(
            (listener_left, ours_left),
            (0, 0),
            "rotation every {every}: {receipt:?} {left}"
        );
        assert!(receipt.listener_stopped, "{receipt:?}");
        assert!(receipt.errors.is_empty(), "{receipt:?}");
        sim.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_breakpoint_twice_is_one_and_their_number_is_bounded() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.event("ready").await;
    let first = h
        .ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let again = h
        .ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    assert_eq!(
        first["breakpoints"][0]["id"], again["breakpoints"][0]["id"],
        "{first} {again}"
    );
    // Another condition is another breakpoint; the same one again is that one.
    let cond = h
        .ok(
            "bp.set",
            json!({"location": format!("{DEMO}:48"), "condition": "lv_x = 1"}),
        )
        .await;
    assert_ne!(cond["breakpoints"][0]["id"], first["breakpoints"][0]["id"]);
    let cond2 = h
        .ok(
            "bp.set",
            json!({"location": format!("{DEMO}:48"), "condition": "lv_x = 1"}),
        )
        .await;
    assert_eq!(cond["breakpoints"][0]["id"], cond2["breakpoints"][0]["id"]);
    let list = h.ok("bp.list", json!({})).await;
    assert_eq!(
        list["breakpoints"].as_array().map(Vec::len),
        Some(2),
        "{list}"
    );

    // Up to the limit, then refused as a whole with its own code.
    let max = engine::MAX_BREAKPOINTS;
    let locations: Vec<String> = (0..max - 2)
        .map(|i| format!("{DEMO}:{}", 100 + i))
        .collect();
    h.ok("bp.set", json!({ "locations": locations })).await;
    let code = h
        .fails(
            "bp.set",
            json!({"locations": [format!("{DEMO}:9000"), format!("{DEMO}:9001")]}),
        )
        .await;
    assert_eq!(code, "breakpoint.limit");
    let list = h.ok("bp.list", json!({})).await;
    assert_eq!(list["breakpoints"].as_array().map(Vec::len), Some(max));
    // One already set is still answered at the limit.
    let at_limit = h
        .ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    assert_eq!(
        at_limit["breakpoints"][0]["id"],
        first["breakpoints"][0]["id"]
    );
    h.finish(task).await;
    tokio::time::sleep(Duration::from_millis(10)).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_left_idle_by_others_cannot_keep_the_release_out() {
    let sim = sim::start(sim::SimConfig {
        max_connections: 16,
        idle_connection_timeout: Duration::from_secs(1),
        ..Default::default()
    })
    .await
    .expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.event("ready").await;
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    h.ok("bp.set", json!({"statement": "CATCH"})).await;
    h.run_demo().await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], 48, "{stop}");
    // Another local process opens far more connections than the simulator takes, and sends
    // nothing on them.
    let addr = sim.base_url().trim_start_matches("http://").to_string();
    let mut hogs = Vec::new();
    for _ in 0..100 {
        hogs.push(
            tokio::net::TcpStream::connect(&addr)
                .await
                .expect("connect"),
        );
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let receipt = h.finish(task).await;
    assert!(receipt.errors.is_empty(), "{receipt:?}");
    assert_eq!(receipt.debuggees.len(), 1, "{receipt:?}");
    let left = state(&sim);
    assert_eq!(left["debuggees"], json!([]), "{left}");
    assert_eq!(left["listeners"], json!([]), "{left}");
    drop(hogs);
    sim.shutdown().await;
}

//! Honest answers at the edges of the protocol and of the system: request lines the protocol
//! refuses or ignores, requests sent behind `shutdown`, a system that answers too late, a
//! CSRF token that rotates under a delete, and a socket client that never reads.

use crate::common;

use std::time::Duration;

use common::{SocketClient, start_with};
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

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("abapdbg-limits-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_keep_their_digits_duplicate_keys_are_refused_and_empty_lines_ignored() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.event("ready").await;

    // Blank lines are no requests: nothing answers them, and the next request is answered.
    h.send_raw(b"\n   \n\r\n").await;
    h.send_raw(b"{\"id\":18446744073709551616123,\"cmd\":\"status\"}\n")
        .await;
    let big = h.until(|v| v["type"] == "response").await;
    assert_eq!(big["ok"], true, "{big}");
    assert_eq!(
        big["id"].to_string(),
        "18446744073709551616123",
        "the id comes back with every digit: {big}"
    );

    // "cmd" twice: refused, not run as the last one.
    h.send_raw(b"{\"id\":\"d\",\"cmd\":\"status\",\"cmd\":\"shutdown\"}\n")
        .await;
    let dup = h.response(&json!("d")).await;
    assert_eq!(dup["ok"], false, "{dup}");
    assert_eq!(dup["error"]["code"], "protocol.invalid_request", "{dup}");
    // The session is still there.
    let st = h.ok("status", json!({})).await;
    assert_eq!(st["state"], "idle", "{st}");
    assert!(
        h.seen
            .iter()
            .all(|v| v["type"] != "response" || v["id"] != Value::Null),
        "no line was answered as a request without id: {:#?}",
        h.seen
    );
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_sent_behind_shutdown_are_each_answered() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.event("ready").await;
    h.send_raw(
        b"{\"id\":1,\"cmd\":\"shutdown\"}\n{\"id\":2,\"cmd\":\"status\"}\n{\"id\":3,\"cmd\":\"bp.list\"}\n",
    )
    .await;
    let bye = h.response(&json!(1)).await;
    assert_eq!(bye["ok"], true, "{bye}");
    for id in [2, 3] {
        let r = h.response(&json!(id)).await;
        assert_eq!(r["error"]["code"], "state.shutting_down", "{r}");
    }
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_system_that_answers_too_late_is_a_timeout_not_unreachable() {
    let sim = sim::start(sim::SimConfig {
        faults: sim::Faults {
            latency: Duration::from_millis(1500),
            ..sim::Faults::default()
        },
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim");
    let (mut h, task) = start_with(&sim, |c| {
        c.adt.request_timeout = Duration::from_millis(300);
    });
    h.event("ready").await;
    let r = h
        .call("bp.set", json!({"location": "ZCL_ABAPDBG_DEMO:48"}))
        .await;
    assert_eq!(r["ok"], false, "{r}");
    assert_eq!(r["error"]["code"], "transport.timeout", "{r}");
    assert_eq!(r["error"]["retryable"], true, "{r}");
    let hint = r["error"]["hint"].as_str().unwrap_or_default();
    assert!(!hint.contains("ABAPDBG_URL"), "{hint}");
    assert!(hint.contains("did not answer in time"), "{hint}");
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_csrf_token_rotated_before_a_delete_is_fetched_again() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.event("ready").await;
    let set = h
        .ok("bp.set", json!({"location": "ZCL_ABAPDBG_DEMO:48"}))
        .await;
    assert_eq!(set["breakpoints"][0]["status"], "verified", "{set}");
    let statement = h.ok("bp.set", json!({"statement": "CATCH"})).await;
    let id = statement["breakpoints"][0]["id"].clone();
    set_faults(&sim, json!({"rotateCsrfNow": true})).await;
    let deleted = h.call("bp.delete", json!({"id": id})).await;
    assert_eq!(deleted["ok"], true, "{deleted}");
    // A line breakpoint goes by a partial sync (a POST): the same holds there.
    set_faults(&sim, json!({"rotateCsrfNow": true})).await;
    let all = h.call("bp.delete", json!({"all": true})).await;
    assert_eq!(all["ok"], true, "{all}");
    let receipt = h.finish(task).await;
    assert!(receipt.errors.is_empty(), "{receipt:?}");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_client_that_never_reads_is_dropped_and_others_go_on() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let dir = temp_dir("unread");
    let path = dir.join("s.sock");
    let socket = path.clone();
    let (mut h, task) = start_with(&sim, move |c| c.socket = Some(socket));
    h.event("ready").await;
    for _ in 0..3000 {
        if path.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Each `schema` answer is large; 3,000 of them are far beyond what one client may leave
    // unread.
    const REQUESTS: usize = 3000;
    let stream = tokio::net::UnixStream::connect(&path)
        .await
        .expect("connect");
    let (mut unread, mut writes) = stream.into_split();
    let flood = tokio::spawn(async move {
        for i in 0..REQUESTS {
            let line = format!("{{\"id\":{i},\"cmd\":\"schema\"}}\n");
            if writes.write_all(line.as_bytes()).await.is_err() {
                // The session closed the connection: it gave up on us.
                return i;
            }
        }
        REQUESTS
    });
    // The stdio client is answered all the while.
    for _ in 0..5 {
        let st = h.ok("status", json!({})).await;
        assert_eq!(st["state"], "idle");
    }
    let _ = flood.await;
    // Read what the session wrote before it gave up: then the connection ends.
    let mut answers = 0usize;
    let ended = tokio::time::timeout(Duration::from_secs(120), async {
        let mut buf = vec![0u8; 1 << 20];
        loop {
            match unread.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => {
                    answers += buf[..n].iter().filter(|b| **b == b'\n').count();
                }
            }
        }
    })
    .await;
    assert!(
        ended.is_ok(),
        "the connection of a client that does not read is closed"
    );
    assert!(
        answers < REQUESTS,
        "the session stopped queueing for a client that did not read ({answers} lines)"
    );
    // Another socket client is served as usual.
    let mut other = SocketClient::connect(&path).await;
    other.until(|v| v["event"] == "ready").await;
    let st = other.call(json!(1), "status", json!({})).await;
    assert_eq!(st["ok"], true, "{st}");
    drop(other);
    h.finish(task).await;
    let _ = std::fs::remove_dir_all(&dir);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_against_a_silent_system_is_bounded_and_names_what_was_not_done() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |c| {
        c.release_bound = Duration::from_secs(2);
    });
    h.event("ready").await;
    h.ok("bp.set", json!({"location": "ZCL_ABAPDBG_DEMO:48"}))
        .await;
    h.ok("bp.set", json!({"statement": "CATCH"})).await;
    let run = h.run_demo().await;
    h.event("stopped").await;
    // From now on the system takes two minutes for every answer: longer than the request
    // time limit, far longer than the release may take.
    set_faults(&sim, json!({"latencyMs": 120_000})).await;
    h.send(json!({"id": "bye", "cmd": "shutdown"})).await;
    let bye = h.response(&json!("bye")).await;
    assert_eq!(bye["ok"], true, "{bye}");
    let receipt = &bye["result"]["receipt"];
    let errors: Vec<&str> = receipt["errors"]
        .as_array()
        .map(|e| e.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let not_done = |what: &str| {
        errors
            .iter()
            .any(|e| e.starts_with(what) && e.contains("not done"))
    };
    assert!(not_done("stop listener"), "{receipt}");
    assert!(not_done("delete breakpoints of"), "{receipt}");
    assert!(not_done("delete breakpoint KIND"), "{receipt}");
    assert!(not_done("release thread 1"), "{receipt}");
    assert_eq!(receipt["debuggees"][0]["thread"], 1, "{receipt}");
    let how = receipt["debuggees"][0]["how"].as_str().unwrap_or_default();
    assert!(how.starts_with("failed: not done"), "{receipt}");
    let r = h.response(&run).await;
    assert_eq!(r["error"]["code"], "state.shutting_down", "{r}");
    let _ = h.finish(task).await;
    sim.shutdown().await;
}

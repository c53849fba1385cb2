//! One session shared by several clients: stdio and Unix-socket clients, each with its own
//! request ids and event subscriptions.

use crate::common;

use std::time::Duration;

use common::{DEMO, OUTPUT, SocketClient, start_with};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_and_socket_clients_share_one_session() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let dir = std::env::temp_dir().join(format!("abapdbg-share-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("s.sock");
    let socket = path.clone();
    let (mut h, task) = start_with(&sim, move |c| c.socket = Some(socket));
    h.event("ready").await;
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..3000 {
        if path.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path)
            .expect("socket")
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600, "the socket is the user's only");
        let dmode = std::fs::metadata(&dir).expect("dir").permissions().mode() & 0o777;
        assert_eq!(dmode, 0o700);
    }
    let mut s = SocketClient::connect(&path).await;
    let ready = s.until(|v| v["event"] == "ready").await;
    assert_eq!(
        ready["seq"], 1,
        "every client gets its own seq, starting with ready"
    );
    // The socket client wants stops only.
    let hello = s
        .call(json!(1), "hello", json!({"events": ["stopped"]}))
        .await;
    assert_eq!(hello["ok"], true, "{hello}");

    // The stdio client sets a breakpoint and runs; both see the stop.
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    let stop = h.event("stopped").await;
    let seen = s.until(|v| v["event"] == "stopped").await;
    assert_eq!(seen["body"]["epoch"], stop["body"]["epoch"]);
    assert!(seen.get("cause").is_none());
    // The socket client uses the same id numbers as stdio without confusion, and steps.
    let st = s.call(json!(1), "status", json!({})).await;
    assert_eq!(st["result"]["breakpoints"], 1, "{st}");
    let step = s.call(json!(2), "step", json!({"type": "over"})).await;
    assert_eq!(step["result"]["stop"]["frame"]["line"], 49, "{step}");
    let caused = s.until(|v| v["event"] == "stopped").await;
    assert_eq!(
        caused["cause"], 2,
        "the cause is shown to the client that asked"
    );
    let other = h.event("stopped").await;
    assert!(
        other.get("cause").is_none(),
        "and hidden from the others: {other}"
    );
    // Events the socket client did not subscribe to never reach it.
    assert!(!s.backlog.iter().any(|v| v["event"] == "listener.armed"));

    // A client that goes away leaves the session running.
    drop(s);
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);

    // `shutdown` from a socket client ends the whole session, with the receipt to it.
    let mut s2 = SocketClient::connect(&path).await;
    let r = s2.call(json!("bye"), "shutdown", json!({})).await;
    assert!(r["result"]["receipt"].is_object(), "{r}");
    let receipt = tokio::time::timeout(Duration::from_secs(60), task)
        .await
        .expect("ends")
        .expect("join")
        .expect("serve");
    assert!(receipt.listener_stopped);
    assert!(!path.exists(), "the socket is removed at the end");
    let _ = std::fs::remove_dir_all(&dir);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_that_cannot_be_opened_leaves_the_stdio_session_working() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    // A directory where the socket should go is a file: binding fails.
    let blocker = std::env::temp_dir().join(format!("abapdbg-blocker-{}", std::process::id()));
    std::fs::write(&blocker, b"not a directory").expect("blocker file");
    let socket = blocker.join("s.sock");
    let (mut h, task) = start_with(&sim, move |c| c.socket = Some(socket));
    h.event("ready").await;
    let st = h.ok("status", json!({})).await;
    assert_eq!(st["state"], "idle");
    h.finish(task).await;
    let _ = std::fs::remove_file(&blocker);
    sim.shutdown().await;
}

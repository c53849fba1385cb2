//! A session that dies without releasing (SIGKILL) is released by the next start, from the
//! state file it kept.

use crate::common;

use std::time::Duration;

use common::{DEMO, OUTPUT, adt_config, start_with};
use serde_json::{Value, json};

fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true")
        .spawn()
        .expect("spawn true");
    let pid = child.id();
    child.wait().expect("wait");
    pid
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_next_start_releases_what_a_killed_session_held() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let dir = std::env::temp_dir().join(format!("abapdbg-orphan-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("session.json");
    // The first session runs on a runtime of its own, so that killing it (shutting the
    // runtime down) stops every task it started, as SIGKILL would.
    let doomed = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let file = path.clone();
    let (mut h, task) = {
        let _on = doomed.enter();
        start_with(&sim, move |c| c.state_file = Some(file))
    };
    h.ok("bp.set", json!({"locations": [format!("{DEMO}:48")]}))
        .await;
    h.run_demo().await;
    h.event("stopped").await;
    // The record is written as things change; wait for the thread to appear in it.
    let mut recorded = Value::Null;
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1500 {
        if let Ok(text) = std::fs::read_to_string(&path) {
            recorded = serde_json::from_str(&text).unwrap_or(Value::Null);
            if recorded["threads"].as_array().is_some_and(|t| t.len() == 1) {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(recorded["listener"], true, "{recorded}");
    assert_eq!(
        recorded["line_uris"][0],
        "/sap/bc/adt/oo/classes/zcl_abapdbg_demo/source/main"
    );
    assert!(
        recorded["threads"][0]["context_id"].is_string(),
        "{recorded}"
    );
    assert!(recorded.get("password").is_none());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let dmode = std::fs::metadata(&dir).expect("meta").permissions().mode() & 0o777;
        assert_eq!(dmode, 0o700);
    }

    // Kill: no release runs, every task of the session stops.
    drop(task);
    doomed.shutdown_background();
    drop(h);
    // While the owner lives, a second start is refused.
    let file = path.clone();
    let (_h2, second) = start_with(&sim, move |c| c.state_file = Some(file));
    let refused = tokio::time::timeout(Duration::from_secs(60), second)
        .await
        .expect("ends")
        .expect("join");
    assert!(
        matches!(refused, Err(engine::ServeError::State(_))),
        "{refused:?}"
    );

    // The owner is dead: the next start releases everything it held.
    recorded["pid"] = dead_pid().into();
    std::fs::write(&path, recorded.to_string()).expect("rewrite");
    let file = path.clone();
    let (mut h3, third) = start_with(&sim, move |c| c.state_file = Some(file));
    let released = h3.event("orphan.released").await;
    assert_eq!(released["body"]["listener_stopped"], true, "{released}");
    assert_eq!(released["body"]["breakpoint_groups"], 1, "{released}");
    assert_eq!(
        released["body"]["debuggees"][0]["how"], "continued",
        "{released}"
    );
    assert_eq!(released["body"]["errors"], json!([]), "{released}");
    // Nothing is left: the class runs free, the old listener is gone.
    let client = adt::Client::new(&adt_config(&sim), adt::SessionMode::Stateless).expect("client");
    let out = tokio::time::timeout(Duration::from_secs(60), client.classrun(DEMO))
        .await
        .expect("not stopped by a leftover breakpoint")
        .expect("classrun");
    assert_eq!(out, OUTPUT);
    let old = adt::Identity {
        user: "DEVELOPER".into(),
        terminal_id: recorded["terminal_id"].as_str().unwrap_or_default().into(),
        ide_id: recorded["ide_id"].as_str().unwrap_or_default().into(),
    };
    assert!(!client.listener_exists(&old).await.expect("check"));
    h3.finish(third).await;
    assert!(!path.exists(), "a clean exit removes the state file");
    let _ = std::fs::remove_dir_all(&dir);
    sim.shutdown().await;
}

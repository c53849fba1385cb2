//! The command table against the running engine: every command `jsonl` lists is dispatched
//! (none answers `protocol.unknown_command`), and a name it does not list is refused. Each
//! request is one the command answers at once (nothing is stopped), so the probe is quick.

use crate::common;

use jsonl::Command;
use serde_json::{Value, json};

/// Arguments that make the command answer at once on a session with nothing stopped.
fn probe_args(command: Command) -> Value {
    match command {
        Command::Cancel => json!({"id": "nothing-in-flight"}),
        Command::BpDelete | Command::BpEnable | Command::BpDisable => json!({"id": 999}),
        Command::BpImport => json!({"breakpoints": []}),
        Command::Wait => json!({"until": "stopped", "timeout_ms": 1}),
        Command::Step => json!({"type": "over"}),
        Command::RunToLine | Command::JumpToLine => json!({"line": 1}),
        Command::Thread => json!({"id": 99}),
        Command::Frame => json!({"index": 0}),
        Command::Get => json!({"path": "LV_X"}),
        Command::Set => json!({"path": "LV_X", "value": "1"}),
        Command::WatchSet => json!({"variable": "LV_X"}),
        Command::WatchDelete => json!({"id": "1"}),
        Command::Table => json!({"id": "LT_X"}),
        Command::Export => json!({"id": "LT_X", "format": "json"}),
        Command::Search => json!({"query": "ZCL_*"}),
        Command::Dump | Command::DumpCatch => json!({"id": "nothing"}),
        _ => json!({}),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_listed_command_is_dispatched_and_no_other() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = common::start(&sim);
    for &command in Command::ALL {
        if command == Command::Shutdown {
            continue; // ends the session: last
        }
        let name = command.name();
        let r = h.call(name, probe_args(command)).await;
        assert_eq!(r["cmd"], name, "{r}");
        assert_ne!(
            r["error"]["code"], "protocol.unknown_command",
            "'{name}' is listed but not dispatched: {r}"
        );
    }
    assert_eq!(
        h.fails_invalid("bp.frobnicate", json!({})).await,
        "protocol.unknown_command"
    );
    // `shutdown` answers with what it released, then the session ends.
    let r = h.ok("shutdown", json!({})).await;
    assert_eq!(r["receipt"]["errors"], json!([]), "{r}");
    let receipt = task.await.expect("join").expect("serve");
    assert!(receipt.errors.is_empty(), "{:?}", receipt.errors);
    sim.shutdown().await;
}

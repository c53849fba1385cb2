//! The engine against the simulator over real HTTP, in one process: every exit path must
//! release what it holds, so no simulated work process stays frozen.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

struct Harness {
    input: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    seen: Vec<Value>,
}

impl Harness {
    async fn send(&mut self, line: Value) {
        self.input
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("write request");
    }

    async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(v) = self.seen.iter().find(|v| pred(v)) {
            return v.clone();
        }
        loop {
            let line = tokio::time::timeout(Duration::from_secs(60), self.lines.next_line())
                .await
                .expect("a line within 20 s")
                .expect("read")
                .expect("not EOF");
            let v: Value = serde_json::from_str(&line).expect("json line");
            self.seen.push(v.clone());
            if pred(&v) {
                return v;
            }
        }
    }
}

fn start(
    sim: &sim::SimHandle,
    release: engine::ReleasePolicy,
) -> (
    Harness,
    tokio::task::JoinHandle<Result<engine::Receipt, engine::ServeError>>,
) {
    let adt = adt::Config {
        base_url: sim.base_url(),
        user: "DEVELOPER".into(),
        password: "abap".into(),
        client: Some("001".into()),
        language: None,
        ..Default::default()
    };
    let identity = adt::Identity {
        user: "DEVELOPER".into(),
        terminal_id: "T".repeat(32),
        ide_id: format!("{:032}", std::process::id()),
    };
    let mut config = engine::EngineConfig::new(adt, identity);
    config.listener_poll_secs = 5;
    config.release = release;
    let (client, server) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server);
    let task = tokio::spawn(engine::serve(
        config,
        BufReader::new(sr),
        sw,
        std::future::pending::<()>(),
    ));
    let (cr, cw) = tokio::io::split(client);
    (
        Harness {
            input: cw,
            lines: BufReader::new(cr).lines(),
            seen: Vec::new(),
        },
        task,
    )
}

async fn stop_in_demo(h: &mut Harness) {
    h.send(json!({"id": 1, "cmd": "bp.set", "args": {"location": "ZCL_ABAPDBG_DEMO:48"}}))
        .await;
    let r = h.until(|v| v["id"] == 1).await;
    assert_eq!(r["result"]["breakpoints"][0]["status"], "verified", "{r}");
    h.send(json!({"id": 2, "cmd": "run", "args": {"class": "ZCL_ABAPDBG_DEMO"}}))
        .await;
    let stop = h.until(|v| v["event"] == "stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], 48, "{stop}");
    assert_eq!(stop["body"]["depth"], 2, "{stop}");
}

/// After the session ended, the class runs to its end without stopping: nothing is left.
async fn runs_free(sim: &sim::SimHandle) {
    let cfg = adt::Config {
        base_url: sim.base_url(),
        user: "DEVELOPER".into(),
        password: "abap".into(),
        client: Some("001".into()),
        language: None,
        ..Default::default()
    };
    let client = adt::Client::new(&cfg, adt::SessionMode::Stateless).expect("client");
    let out = tokio::time::timeout(Duration::from_secs(60), client.classrun("ZCL_ABAPDBG_DEMO"))
        .await
        .expect("the run is not stopped by a leftover breakpoint")
        .expect("classrun");
    assert_eq!(out, "Order A001: total 60, rate 12.50\nDoubled rate: 25.00");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdin_eof_while_stopped_continues_the_program_and_cleans_up() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim, engine::ReleasePolicy::Continue);
    stop_in_demo(&mut h).await;
    h.input.shutdown().await.expect("close stdin");
    drop(h.input);
    let receipt = tokio::time::timeout(Duration::from_secs(30), task)
        .await
        .expect("serve ends after EOF")
        .expect("join")
        .expect("serve");
    assert!(receipt.listener_stopped, "{receipt:?}");
    assert_eq!(receipt.breakpoints_deleted, 1, "{receipt:?}");
    assert_eq!(receipt.debuggees.len(), 1, "{receipt:?}");
    assert_eq!(receipt.debuggees[0].how, "continued", "{receipt:?}");
    // The pending `run` got its one answer before the stream closed.
    let mut lines = h.lines;
    let mut run_answered = h.seen.iter().any(|v| v["id"] == 2);
    while let Ok(Some(line)) = lines.next_line().await {
        let v: Value = serde_json::from_str(&line).expect("json");
        run_answered |= v["id"] == 2;
    }
    assert!(run_answered, "the run request was answered");
    runs_free(&sim).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_with_terminate_policy_aborts_the_program() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim, engine::ReleasePolicy::Terminate);
    stop_in_demo(&mut h).await;
    h.send(json!({"id": 9, "cmd": "shutdown"})).await;
    let r = h.until(|v| v["id"] == 9).await;
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(
        r["result"]["receipt"]["debuggees"][0]["how"], "terminated",
        "{r}"
    );
    let run = h.until(|v| v["id"] == 2).await;
    assert_eq!(
        run["ok"], false,
        "a terminated run does not report success: {run}"
    );
    let receipt = task.await.expect("join").expect("serve");
    assert_eq!(receipt.breakpoints_deleted, 1);
    runs_free(&sim).await;
    sim.shutdown().await;
}

//! Benchmark: what one debugger step costs through the whole engine, against the simulator.
//!
//! `cargo run --release -p abapdbg-engine --example bench_step -- [steps]` prints the latency of a
//! protocol `step` (step, stack, source context, `stopped` event) and of a following `vars`,
//! the HTTP requests each needs (from the simulator's request log), and the ratio of the
//! engine's step time to a bare ADT `stepOver` round trip measured the same way.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const DEMO: &str = "ZCL_ABAPDBG_DEMO";

struct Session {
    input: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    next: u64,
}

impl Session {
    async fn call(&mut self, cmd: &str, args: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let line = json!({"id": id, "cmd": cmd, "args": args});
        if self
            .input
            .write_all(format!("{line}\n").as_bytes())
            .await
            .is_err()
        {
            return Value::Null;
        }
        while let Ok(Some(l)) = self.lines.next_line().await {
            let v: Value = serde_json::from_str(&l).unwrap_or(Value::Null);
            if v["type"] == "response" && v["id"] == id {
                return v;
            }
        }
        Value::Null
    }

    async fn until_event(&mut self, name: &str) {
        while let Ok(Some(l)) = self.lines.next_line().await {
            let v: Value = serde_json::from_str(&l).unwrap_or(Value::Null);
            if v["event"] == name {
                return;
            }
        }
    }
}

fn stats(label: &str, mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    let n = samples.len().max(1);
    let mean = samples.iter().sum::<Duration>() / n as u32;
    let p = |q: f64| {
        samples
            .get(((n as f64 - 1.0) * q) as usize)
            .copied()
            .unwrap_or_default()
    };
    println!(
        "{label:<28} n={n:<5} mean={:>8.3} ms  median={:>8.3} ms  p95={:>8.3} ms",
        mean.as_secs_f64() * 1e3,
        p(0.5).as_secs_f64() * 1e3,
        p(0.95).as_secs_f64() * 1e3
    );
    mean
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let steps: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let Ok(sim) = sim::start(sim::SimConfig::default()).await else {
        eprintln!("cannot start the simulator");
        return;
    };
    let adt = adt::Config {
        base_url: sim.base_url(),
        user: "DEVELOPER".into(),
        password: "abap".into(),
        client: Some("001".into()),
        ..Default::default()
    };
    let identity = adt::Identity {
        user: "DEVELOPER".into(),
        terminal_id: "B".repeat(32),
        ide_id: "C".repeat(32),
    };
    // Baseline: a bare stepOver over the same HTTP stack, no engine.
    let mut bare = Vec::new();
    let raw = adt::Client::new(&adt, adt::SessionMode::Stateless);
    if let Ok(raw) = raw {
        let id = adt::Identity {
            user: "DEVELOPER".into(),
            terminal_id: "D".repeat(32),
            ide_id: "E".repeat(32),
        };
        let _ = raw
            .set_breakpoints(
                &id,
                &adt::SyncScope::Full,
                &[adt::BreakpointSpec {
                    client_id: "b".into(),
                    kind: adt::BreakpointKind::Line {
                        uri: adt::address::class_uri(DEMO),
                        line: 35,
                    },
                    condition: None,
                }],
            )
            .await;
        while bare.len() < steps.min(50) {
            let listener = raw.clone();
            let lid = id.clone();
            let poll = tokio::spawn(async move { listener.listen(&lid, 30).await });
            tokio::time::sleep(Duration::from_millis(50)).await;
            let trigger = raw.clone();
            let run = tokio::spawn(async move { trigger.classrun(DEMO).await });
            let Ok(Ok(Some(debuggee))) = poll.await else {
                break;
            };
            let Ok(dbg) = adt::Client::new(&adt, adt::SessionMode::Stateful) else {
                break;
            };
            if let Err(e) = dbg.attach(&id, &debuggee.id).await {
                eprintln!("bare attach failed: {e}");
                break;
            }
            for _ in 0..5 {
                let t = Instant::now();
                match dbg.step(adt::StepKind::Over).await {
                    Ok(adt::StepOutcome::Stopped { .. }) => bare.push(t.elapsed()),
                    Ok(adt::StepOutcome::Ended) => break,
                    Err(e) => {
                        eprintln!("bare step failed: {e}");
                        break;
                    }
                }
            }
            let _ = dbg.terminate().await;
            let _ = run.await;
        }
        let _ = raw.set_breakpoints(&id, &adt::SyncScope::Full, &[]).await;
        let _ = raw.stop_listener(&id).await;
    }

    let config = engine::EngineConfig::new(adt.clone(), identity);
    let (client, server) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server);
    let serve = tokio::spawn(engine::serve(
        config,
        BufReader::new(sr),
        sw,
        std::future::pending::<()>(),
    ));
    let (cr, cw) = tokio::io::split(client);
    let mut s = Session {
        input: cw,
        lines: BufReader::new(cr).lines(),
        next: 0,
    };

    // Stop at the first statement of the method and step through the program repeatedly.
    s.call("bp.set", json!({"location": format!("{DEMO}:30")}))
        .await;
    s.call("bp.set", json!({"location": format!("{DEMO}:31")}))
        .await;
    let mut step_times = Vec::new();
    let mut vars_times = Vec::new();
    let mut requests_per_step = Vec::new();
    let mut requests_per_vars = Vec::new();
    while step_times.len() < steps {
        s.next += 1;
        let run_id = s.next;
        let line = json!({"id": run_id, "cmd": "run", "args": {"class": DEMO}});
        if s.input
            .write_all(format!("{line}\n").as_bytes())
            .await
            .is_err()
        {
            break;
        }
        s.until_event("stopped").await;
        loop {
            sim.clear_request_log();
            let t = Instant::now();
            let r = s.call("step", json!({"type": "into"})).await;
            step_times.push(t.elapsed());
            requests_per_step.push(
                sim.request_log()
                    .iter()
                    .filter(|l| l.is_round_trip() && !l.path.contains("/listeners"))
                    .count(),
            );
            if r["result"]["ended"].is_object() || !r["ok"].as_bool().unwrap_or(false) {
                break;
            }
            sim.clear_request_log();
            let t = Instant::now();
            s.call("vars", json!({})).await;
            vars_times.push(t.elapsed());
            requests_per_vars.push(
                sim.request_log()
                    .iter()
                    .filter(|l| l.is_round_trip() && !l.path.contains("/listeners"))
                    .count(),
            );
            if step_times.len() >= steps {
                s.call("terminate", json!({})).await;
                break;
            }
        }
    }

    println!("abapdbg step benchmark against the embedded simulator ({steps} steps)");
    let engine_step = stats("engine: step (into)", step_times);
    stats("engine: vars after a stop", vars_times);
    let bare_step = stats("bare ADT stepOver", bare);
    let avg = |v: &[usize]| v.iter().sum::<usize>() as f64 / v.len().max(1) as f64;
    println!(
        "HTTP round trips per step    {:.2}",
        avg(&requests_per_step)
    );
    println!(
        "HTTP round trips per vars    {:.2}",
        avg(&requests_per_vars)
    );
    if !bare_step.is_zero() {
        println!(
            "ratio engine step / bare step {:.2}",
            engine_step.as_secs_f64() / bare_step.as_secs_f64()
        );
    }
    drop(s);
    let _ = serve.await;
    sim.shutdown().await;
}

//! Stepping: HTTP round trips and latency of a step-to-view (step, then `stack`, then `vars`)
//! through the coprocess against a naive client; the coprocess's own cost per request; its
//! start and idle memory.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::procs::{Bins, Res, ServeProc, SimProc, memory_kib, mib};
use crate::programs::{Programs, STEP};
use crate::{Plan, stats};

const LONG: Duration = Duration::from_secs(60);

/// A naive client: the step, then the stack, then the root and the scopes' variables, each
/// its own request (no batch).
async fn naive(
    sim: &SimProc,
    progs: &Programs,
    plan: &Plan,
) -> Res<Vec<(u64, Vec<Duration>, f64)>> {
    let config = adt::Config {
        base_url: sim.base.clone(),
        user: "DEVELOPER".into(),
        password: "abap".into(),
        client: Some("001".into()),
        ..Default::default()
    };
    let id = adt::Identity {
        user: "DEVELOPER".into(),
        terminal_id: "N".repeat(32),
        ide_id: "M".repeat(32),
    };
    let control = adt::Client::new(&config, adt::SessionMode::Stateless)?;
    control
        .set_breakpoints(
            &id,
            &adt::SyncScope::Full,
            &[adt::BreakpointSpec {
                client_id: "naive".into(),
                kind: adt::BreakpointKind::Line {
                    uri: adt::address::class_uri(STEP),
                    line: progs.step_stop,
                },
                condition: None,
            }],
        )
        .await?;
    let listener = control.clone();
    let lid = id.clone();
    let poll = tokio::spawn(async move { listener.listen(&lid, 60).await });
    while !control.listener_exists(&id).await.unwrap_or(false) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let trigger = control.clone();
    let run = tokio::spawn(async move { trigger.classrun(STEP).await });
    let debuggee = poll.await??.ok_or("the naive client caught nothing")?;
    let dbg = adt::Client::new(&config, adt::SessionMode::Stateful)?;
    dbg.attach(&id, &debuggee.id).await?;
    let mut out = Vec::new();
    for &latency in &plan.latencies {
        sim.set_latency(latency)?;
        let mut times = Vec::new();
        let mut trips = 0usize;
        for _ in 0..plan.samples {
            sim.clear_log()?;
            let t = Instant::now();
            dbg.step(adt::StepKind::Over).await?;
            dbg.stack().await?;
            let root = dbg.child_variables(&["@ROOT".to_string()]).await?;
            let scopes: Vec<String> = root
                .hierarchies
                .iter()
                .filter(|h| h.parent_id == "@ROOT" && h.child_id.starts_with('@'))
                .map(|h| h.child_id.to_string())
                .collect();
            dbg.child_variables(&scopes).await?;
            times.push(t.elapsed());
            trips += sim.round_trips()?;
        }
        out.push((latency, times, trips as f64 / plan.samples as f64));
    }
    sim.set_latency(0)?;
    let _ = dbg.terminate().await;
    let _ = run.await;
    let _ = control
        .set_breakpoints(&id, &adt::SyncScope::Full, &[])
        .await;
    let _ = control.stop_listener(&id).await;
    Ok(out)
}

/// A coprocess stopped in `ZCL_BENCH_STEP`'s loop.
fn stopped_serve(bins: &Bins, sim: &SimProc, progs: &Programs, dir: &Path) -> Res<ServeProc> {
    let mut serve = ServeProc::start(bins, sim, dir)?;
    serve.lines.call("hello", json!({}), LONG)?;
    serve.lines.call(
        "bp.set",
        json!({"location": format!("{STEP}:{}", progs.step_stop)}),
        LONG,
    )?;
    serve.lines.send("run", json!({"class": STEP}))?;
    serve.lines.event("stopped", LONG)?;
    Ok(serve)
}

pub fn run(plan: &Plan, bins: &Bins, dirs: &[PathBuf], progs: &Programs, dir: &Path) -> Res<()> {
    let sim = SimProc::start(bins, dirs)?;
    let rt = tokio::runtime::Runtime::new()?;
    let naive = rt.block_on(naive(&sim, progs, plan))?;

    let mut serve = stopped_serve(bins, &sim, progs, dir)?;
    let mut ours = Vec::new();
    for &latency in &plan.latencies {
        sim.set_latency(latency)?;
        let mut step_times = Vec::new();
        let mut view_times = Vec::new();
        let (mut trips_step, mut trips_view) = (0usize, 0usize);
        for _ in 0..plan.samples {
            sim.clear_log()?;
            let t = Instant::now();
            let r = serve.lines.call("step", json!({"type": "over"}), LONG)?;
            step_times.push(t.elapsed());
            if r["stop"].is_null() {
                return Err(format!("the step did not stop: {r}").into());
            }
            trips_step += sim.round_trips()?;
            serve.lines.call("stack", json!({}), LONG)?;
            serve.lines.call("vars", json!({}), LONG)?;
            view_times.push(t.elapsed());
            trips_view += sim.round_trips()?;
        }
        let n = plan.samples as f64;
        ours.push((
            latency,
            step_times,
            view_times,
            trips_step as f64 / n,
            trips_view as f64 / n,
        ));
    }
    sim.set_latency(0)?;
    let _ = serve.lines.call("terminate", json!({}), LONG);
    serve.shutdown();

    let n_naive = naive.first().map_or(0.0, |(_, _, t)| *t);
    let n_ours = ours.first().map_or(0.0, |o| o.4);
    println!("  HTTP round trips per step + stack + vars:");
    println!("    abapdbg serve (batched step, cached reads)  {n_ours:>5.2}");
    println!("    naive client (step, stack, root, scopes)    {n_naive:>5.2}");
    if n_ours > 0.0 {
        println!(
            "    ratio naive / abapdbg                       {:>5.2}x",
            n_naive / n_ours
        );
    }
    println!(
        "  of which the step itself: {:.2}; stack and vars after it: {:.2}",
        ours.first().map_or(0.0, |o| o.3),
        ours.first().map_or(0.0, |o| o.4 - o.3)
    );
    println!(
        "  latency (median of {}), injected round trip = RTT:",
        plan.samples
    );
    println!(
        "    {:>8}  {:>12} {:>8}  {:>16} {:>8}  {:>16} {:>8}",
        "RTT", "step", "/RTT", "step+stack+vars", "/RTT", "naive", "/RTT"
    );
    for ((latency, step, view, _, _), (_, nv, _)) in ours.iter().zip(&naive) {
        let (s, v, n) = (stats(step).p50, stats(view).p50, stats(nv).p50);
        let rel = |x: f64| {
            if *latency == 0 {
                "-".to_string()
            } else {
                format!("{:.2}", x / *latency as f64)
            }
        };
        println!(
            "    {:>5} ms  {:>9.2} ms {:>8}  {:>13.2} ms {:>8}  {:>13.2} ms {:>8}",
            latency,
            s,
            rel(s),
            v,
            rel(v),
            n,
            rel(n)
        );
    }
    Ok(())
}

pub fn overhead(
    plan: &Plan,
    bins: &Bins,
    dirs: &[PathBuf],
    progs: &Programs,
    dir: &Path,
) -> Res<()> {
    let sim = SimProc::start(bins, dirs)?;
    let mut serve = stopped_serve(bins, &sim, progs, dir)?;
    let n = plan.samples.max(10) * 10;
    // `status` and a `stack` of the stop (read with the stop: no HTTP) take turns, so a busy
    // machine weighs on both alike (issue 31: status was well above the cached reads).
    serve.lines.call("stack", json!({}), LONG)?;
    let mut status = Vec::new();
    let mut stack = Vec::new();
    for _ in 0..n / 10 {
        for (cmd, times) in [("status", &mut status), ("stack", &mut stack)] {
            for _ in 0..10 {
                let t = Instant::now();
                serve.lines.call(cmd, json!({}), LONG)?;
                times.push(t.elapsed());
            }
        }
    }
    // The first `vars` of a frame reads the system (the scopes, then their variables); the
    // same `vars` again is answered from the stop's reads. A `set` forgets the stop's reads
    // (selecting a frame does not: each frame keeps its own); LV_TEXT is assigned anew in the
    // loop after the stop, so writing it changes nothing the program shows.
    let mut first = Vec::new();
    let mut cached = Vec::new();
    let mut first_trips = 0;
    let mut cached_trips = 0;
    let rounds = n / 5;
    for _ in 0..rounds {
        serve
            .lines
            .call("set", json!({"path": "LV_TEXT", "value": "x"}), LONG)?;
        sim.clear_log()?;
        let t = Instant::now();
        serve.lines.call("vars", json!({}), LONG)?;
        first.push(t.elapsed());
        first_trips += sim.round_trips()?;
        for _ in 0..4 {
            sim.clear_log()?;
            let t = Instant::now();
            serve.lines.call("vars", json!({}), LONG)?;
            cached.push(t.elapsed());
            cached_trips += sim.round_trips()?;
        }
    }
    let _ = serve.lines.call("terminate", json!({}), LONG);
    serve.shutdown();
    let line = |label: &str, s: &[Duration], trips: Option<f64>| {
        let st = stats(s);
        println!(
            "  {label:<34} p50 {:>7.3} ms   p99 {:>7.3} ms   n={}{}",
            st.p50,
            st.p99,
            st.n,
            trips.map_or(String::new(), |t| format!("   {t:.2} HTTP requests each"))
        );
    };
    line("status, at the stop", &status, None);
    line("stack, at the stop (cached)", &stack, None);
    line(
        "vars, first read of the frame",
        &first,
        Some(first_trips as f64 / rounds.max(1) as f64),
    );
    line(
        "vars, again (cached)",
        &cached,
        Some(cached_trips as f64 / (rounds * 4).max(1) as f64),
    );
    Ok(())
}

pub fn startup(plan: &Plan, bins: &Bins, dirs: &[PathBuf], dir: &Path) -> Res<()> {
    let sim = SimProc::start(bins, dirs)?;
    let mut ready = Vec::new();
    let mut idle = Vec::new();
    for _ in 0..plan.samples.clamp(3, 10) {
        let mut serve = ServeProc::start(bins, &sim, dir)?;
        ready.push(serve.to_ready);
        serve.lines.call("hello", json!({}), LONG)?;
        std::thread::sleep(Duration::from_millis(200));
        if let Some((rss, _)) = memory_kib(serve.pid()) {
            idle.push(rss);
        }
        serve.shutdown();
    }
    idle.sort_unstable();
    let st = stats(&ready);
    println!(
        "  spawn to ready                     p50 {:>7.2} ms   p99 {:>7.2} ms   n={}",
        st.p50, st.p99, st.n
    );
    match idle.get(idle.len() / 2) {
        Some(kib) => println!(
            "  RSS after hello (idle)             {:>7.2} MiB (median)",
            mib(*kib)
        ),
        None => println!("  RSS after hello (idle)             not available (no /proc)"),
    }
    Ok(())
}

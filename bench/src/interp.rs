//! Interpreter speed: statements per second of a loop run as a classrun over HTTP, with no
//! breakpoints, with ten breakpoints on lines the loop never reaches, with those and an armed
//! listener, and with an armed listener alone.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::Plan;
use crate::procs::{Bins, Res, SimProc};
use crate::programs::{BIG, LOOP, Programs};

/// The phases: (label, ten idle breakpoints, listener armed).
const PHASES: [(&str, bool, bool); 4] = [
    ("no breakpoints, no listener", false, false),
    ("listener armed, no breakpoints", false, true),
    ("10 idle breakpoints, no listener", true, false),
    ("10 idle breakpoints, listener armed", true, true),
];

/// Runs the loop class once per phase per round (a warm-up round first), the phases taking
/// turns so that a machine busy with other work weighs on all of them alike; the median of
/// each phase.
async fn phases(sim: &SimProc, plan: &Plan, progs: &Programs) -> Res<Vec<(String, Duration)>> {
    let config = adt::Config {
        base_url: sim.base.clone(),
        user: "DEVELOPER".into(),
        password: "abap".into(),
        client: Some("001".into()),
        blocking_timeout: Duration::from_secs(3600),
        ..Default::default()
    };
    let id = adt::Identity {
        user: "DEVELOPER".into(),
        terminal_id: "L".repeat(32),
        ide_id: "K".repeat(32),
    };
    let client = adt::Client::new(&config, adt::SessionMode::Stateless)?;
    let specs: Vec<adt::BreakpointSpec> = progs
        .idle_lines
        .iter()
        .map(|line| adt::BreakpointSpec {
            client_id: format!("idle{line}"),
            kind: adt::BreakpointKind::Line {
                uri: adt::address::class_uri(BIG),
                line: *line,
            },
            condition: None,
        })
        .collect();
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); PHASES.len()];
    for round in 0..=plan.runs {
        for (i, (_, breakpoints, listener)) in PHASES.iter().enumerate() {
            let wanted: &[adt::BreakpointSpec] = if *breakpoints { &specs } else { &[] };
            client
                .set_breakpoints(&id, &adt::SyncScope::Full, wanted)
                .await?;
            let poll = if *listener {
                let listener = client.clone();
                let lid = id.clone();
                let poll = tokio::spawn(async move { listener.listen(&lid, 3600).await });
                while !client.listener_exists(&id).await.unwrap_or(false) {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Some(poll)
            } else {
                None
            };
            let t = Instant::now();
            client.classrun(LOOP).await?;
            let took = t.elapsed();
            if let Some(poll) = poll {
                client.stop_listener(&id).await?;
                let _ = poll.await;
            }
            if round > 0 {
                times[i].push(took);
            }
        }
    }
    let _ = client
        .set_breakpoints(&id, &adt::SyncScope::Full, &[])
        .await;
    Ok(PHASES
        .iter()
        .zip(times)
        .map(|((label, _, _), mut t)| {
            t.sort();
            (label.to_string(), t[t.len() / 2])
        })
        .collect())
}

pub fn run(plan: &Plan, bins: &Bins, dirs: &[PathBuf], progs: &Programs) -> Res<()> {
    let sim = SimProc::start(bins, dirs)?;
    let rt = tokio::runtime::Runtime::new()?;
    let phases = rt.block_on(phases(&sim, plan, progs))?;
    let statements = progs.loop_statements as f64;
    println!(
        "  {LOOP}: about {} statements per run, median of {} runs per phase (phases take turns)",
        crate::thousands(progs.loop_statements),
        plan.runs
    );
    let base = phases.first().map_or(1.0, |(_, d)| d.as_secs_f64());
    for (label, d) in &phases {
        let secs = d.as_secs_f64();
        println!(
            "  {label:<38} {:>8.1} ms/run {:>8.2} M statements/s   {:>5.3}x the time without",
            secs * 1e3,
            statements / secs / 1e6,
            secs / base
        );
    }
    Ok(())
}

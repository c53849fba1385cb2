//! The abapdbg benchmark harness: `cargo run --profile dist -p bench [-- --quick] [--rows N]`.
//!
//! Starts the simulator (`abapdbg sim`) and the coprocess (`abapdbg serve`) as processes of
//! their own and prints, measured in the same run: HTTP round trips per step-to-view against a
//! naive client, step latency as a multiple of an injected round trip, the coprocess's own cost
//! per request, the front ends against starting their binaries, a big table (pages, a cell,
//! exports, peak memory of both processes), the coprocess's start and idle memory, and the
//! interpreter's statements per second with and without idle breakpoints and an armed
//! listener. `--quick` runs every section with small sizes (CI runs it as a test; its numbers
//! mean nothing). BENCHMARKS.md says how to read the output.

mod children;
mod dap_requests;
mod frontends;
mod interp;
mod procs;
mod programs;
mod stepping;
mod table;

use std::path::PathBuf;
use std::time::Duration;

use procs::{Bins, Res};

/// Sizes of one run.
#[derive(Debug, Clone)]
pub struct Plan {
    pub quick: bool,
    /// Rows of the big table.
    pub rows: u64,
    /// Samples per latency figure.
    pub samples: usize,
    /// Injected latencies (ms) for the step figures.
    pub latencies: Vec<u64>,
    /// Iterations of the interpreter loop, and runs per phase.
    pub iterations: u64,
    pub runs: usize,
    /// How long one export may take before it counts as not finished.
    pub export_timeout: Duration,
    /// Sections to run (all when empty).
    pub only: Vec<String>,
    /// Only write the ABAP classes to this folder (to run them elsewhere).
    pub write_programs: Option<PathBuf>,
    /// Another build's `abapdbg`, whose DAP adapter the `dap` section measures too.
    pub dap_baseline: Option<PathBuf>,
}

impl Plan {
    fn wants(&self, section: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|s| s == section)
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: bench [--quick] [--rows N] [--samples N] [--export-timeout SECONDS] \
         [--only SECTION]… [--write-programs DIR] [--dap-baseline ABAPDBG]\n\
         sections: stepping, overhead, frontends, dap, table, startup, interpreter"
    );
    std::process::exit(2)
}

fn parse() -> Plan {
    let mut args = std::env::args().skip(1);
    let mut plan = Plan {
        quick: false,
        rows: 100_000,
        samples: 30,
        latencies: vec![0, 10, 40, 100],
        iterations: 1_000_000,
        runs: 5,
        export_timeout: Duration::from_secs(300),
        only: Vec::new(),
        write_programs: None,
        dap_baseline: None,
    };
    let mut rows = None;
    let mut samples = None;
    while let Some(a) = args.next() {
        let mut num = |what: &str| -> u64 {
            args.next()
                .and_then(|v| v.replace(['_', ','], "").parse().ok())
                .unwrap_or_else(|| {
                    eprintln!("{what} needs a number");
                    usage()
                })
        };
        match a.as_str() {
            "--quick" => plan.quick = true,
            "--rows" => rows = Some(num("--rows")),
            "--samples" => samples = Some(num("--samples") as usize),
            "--export-timeout" => {
                plan.export_timeout = Duration::from_secs(num("--export-timeout"))
            }
            "--only" => match args.next() {
                Some(s) => plan.only.push(s),
                None => usage(),
            },
            "--write-programs" => match args.next() {
                Some(dir) => plan.write_programs = Some(PathBuf::from(dir)),
                None => usage(),
            },
            "--dap-baseline" => match args.next() {
                Some(bin) => plan.dap_baseline = Some(PathBuf::from(bin)),
                None => usage(),
            },
            _ => usage(),
        }
    }
    if plan.quick {
        plan.rows = 2_000;
        plan.samples = 3;
        plan.latencies = vec![0, 5];
        plan.iterations = 20_000;
        plan.runs = 1;
        plan.export_timeout = Duration::from_secs(120);
    }
    if let Some(r) = rows {
        plan.rows = r.max(20);
    }
    if let Some(s) = samples {
        plan.samples = s.max(1);
    }
    plan
}

fn main() {
    let mut raw = std::env::args().skip(1);
    if raw.next().as_deref() == Some("--child") {
        children::run(raw.next().as_deref());
        return;
    }
    let plan = parse();
    match run(&plan) {
        Ok(0) => {}
        Ok(failures) => {
            eprintln!("{failures} section(s) failed");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("bench: {e}");
            std::process::exit(1);
        }
    }
}

fn run(plan: &Plan) -> Res<usize> {
    if let Some(dir) = &plan.write_programs {
        let p = programs::write(dir, plan.rows, plan.iterations)?;
        println!(
            "{}: stop at line {}; {}: loop at line {}",
            programs::BIG,
            p.big_stop,
            programs::STEP,
            p.step_stop
        );
        return Ok(0);
    }
    let bins = Bins::find()?;
    let dir = std::env::temp_dir().join(format!("abapdbg-bench-{}", std::process::id()));
    let programs_dir = dir.join("src");
    let progs = programs::write(&programs_dir, plan.rows, plan.iterations)?;
    // The profile directory the harness runs from (target/dist/bench: `--profile dist`, the
    // build the figures are for).
    let profile = bins
        .own
        .parent()
        .map(|d| {
            if d.ends_with("deps") {
                d.parent().unwrap_or(d)
            } else {
                d
            }
        })
        .and_then(|d| d.file_name())
        .map_or_else(|| "unknown".into(), |n| n.to_string_lossy().into_owned());
    println!(
        "abapdbg benchmark ({profile} build{}, loopback, {} CPUs){}",
        if plan.quick { ", --quick" } else { "" },
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        match &bins.abapdbg {
            Some(b) => format!(": {}", b.display()),
            None =>
                ": abapdbg not built, simulator and coprocess run from the harness binary".into(),
        }
    );
    let mut failures = 0;
    let mut section = |name: &str, title: &str, f: &mut dyn FnMut() -> Res<()>| {
        if !plan.wants(name) {
            return;
        }
        println!("\n## {title}");
        if let Err(e) = f() {
            println!("  FAILED: {e}");
            failures += 1;
        }
    };
    let dirs = vec![programs_dir.clone()];
    section(
        "stepping",
        "Step-to-view: round trips and latency",
        &mut || stepping::run(plan, &bins, &dirs, &progs, &dir),
    );
    section(
        "overhead",
        "Coprocess overhead per request (loopback, no injected latency)",
        &mut || stepping::overhead(plan, &bins, &dirs, &progs, &dir),
    );
    section(
        "frontends",
        "Front ends against starting their binaries",
        &mut || frontends::run(plan, &bins, &dirs, &progs, &dir),
    );
    section(
        "dap",
        "DAP: session requests per editor action",
        &mut || dap_requests::run(plan, &bins, &dirs, &progs, &dir),
    );
    section(
        "table",
        &format!("A {}-row table of ten columns", thousands(plan.rows)),
        &mut || table::run(plan, &bins, &dirs, &progs, &dir),
    );
    section("startup", "Coprocess start and idle memory", &mut || {
        stepping::startup(plan, &bins, &dirs, &dir)
    });
    section(
        "interpreter",
        "Interpreter statements per second (classrun over HTTP)",
        &mut || interp::run(plan, &bins, &dirs, &progs),
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(failures)
}

/// `100000` → `100,000`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Samples in milliseconds: median and 99th percentile.
pub struct Stats {
    pub p50: f64,
    pub p99: f64,
    pub n: usize,
}

pub fn stats(samples: &[Duration]) -> Stats {
    let mut ms: Vec<f64> = samples.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(|a, b| a.total_cmp(b));
    let n = ms.len();
    let at = |q: f64| {
        if n == 0 {
            0.0
        } else {
            ms[(((n - 1) as f64) * q).round() as usize]
        }
    };
    Stats {
        p50: at(0.5),
        p99: at(0.99),
        n,
    }
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

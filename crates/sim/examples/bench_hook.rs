//! Cost of the debug hook when nothing stops: runs the loop-heavy sample class
//! `ZCL_SMP_BENCH` (200 000 iterations of arithmetic) through the simulator's classrun over
//! HTTP, first with no breakpoints, then with ten line breakpoints registered on lines that are
//! never reached, and prints runs per second, time per run, statements per second and the
//! ratio of the two.
//!
//! `cargo run --release -p abapdbg-sim --example bench_hook [runs]` (default 5 runs per phase).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use base64::Engine as _;

const CLASS: &str = "ZCL_SMP_BENCH";
/// `ZCL_SMP_ORDER` is in the same folder; its method `line_amount` is never run by the bench.
const IDLE_URI: &str = "/sap/bc/adt/oo/classes/zcl_smp_order/source/main";
/// Executable lines of `ZCL_SMP_ORDER` (main method and `line_amount`).
const IDLE_LINES: [u32; 10] = [35, 36, 37, 38, 40, 42, 49, 50, 51, 52];
/// Statements one run executes: the DO statement, 200 000 × (two assignments and the loop
/// head), the final `out->write`. An estimate for the rate; the ratio does not depend on it.
const STATEMENTS_PER_RUN: f64 = 1.0 + 200_000.0 * 3.0 + 1.0;
const TERMINAL: &str = "TERMINAL0000000000000000000BENCH";
const IDE: &str = "IDE0000000000000000000000000BENCH";

type BoxError = Box<dyn std::error::Error + Send + Sync>;

struct Client {
    http: reqwest::Client,
    base: String,
    auth: String,
    cookie: Option<String>,
    csrf: Option<String>,
}

impl Client {
    async fn new(base: &str) -> Result<Self, BoxError> {
        let http = reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_secs(300))
            .build()?;
        let auth = format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode("DEVELOPER:abap")
        );
        let mut c = Client {
            http,
            base: base.to_string(),
            auth,
            cookie: None,
            csrf: None,
        };
        let r = c
            .http
            .get(format!(
                "{}/sap/bc/adt/debugger/breakpoints/messagetypes",
                c.base
            ))
            .header("authorization", &c.auth)
            .header("x-csrf-token", "fetch")
            .send()
            .await?;
        if !r.status().is_success() {
            return Err(format!("CSRF fetch answered {}", r.status()).into());
        }
        c.csrf = r
            .headers()
            .get("x-csrf-token")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        c.cookie = r
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .filter_map(|v| v.split(';').next())
            .map(str::to_string)
            .reduce(|a, b| format!("{a}; {b}"));
        Ok(c)
    }

    async fn post(&self, path: &str, body: Option<String>) -> Result<(u16, String), BoxError> {
        let mut rb = self
            .http
            .post(format!("{}{path}", self.base))
            .header("authorization", &self.auth);
        if let Some(t) = &self.csrf {
            rb = rb.header("x-csrf-token", t);
        }
        if let Some(c) = &self.cookie {
            rb = rb.header("cookie", c);
        }
        if let Some(b) = body {
            rb = rb.header("content-type", "application/xml").body(b);
        }
        let r = rb.send().await?;
        let status = r.status().as_u16();
        Ok((status, r.text().await?))
    }

    async fn classrun(&self) -> Result<Duration, BoxError> {
        let start = Instant::now();
        let (status, body) = self
            .post(&format!("/sap/bc/adt/oo/classrun/{CLASS}"), None)
            .await?;
        let took = start.elapsed();
        if status != 200 || !body.starts_with("Checksum: 1399991") {
            return Err(format!("classrun answered {status}: {body}").into());
        }
        Ok(took)
    }

    async fn register_idle_breakpoints(&self) -> Result<(), BoxError> {
        let mut body = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><dbg:breakpoints xmlns:dbg=\"http://www.sap.com/adt/debugger\" scope=\"external\" debuggingMode=\"user\" requestUser=\"DEVELOPER\" terminalId=\"{TERMINAL}\" ideId=\"{IDE}\" systemDebugging=\"false\" deactivated=\"false\">"
        );
        for line in IDLE_LINES {
            body.push_str(&format!(
                "<breakpoint xmlns:adtcore=\"http://www.sap.com/adt/core\" kind=\"line\" clientId=\"b{line}\" skipCount=\"0\" adtcore:uri=\"{IDLE_URI}#start={line}\"/>"
            ));
        }
        body.push_str("</dbg:breakpoints>");
        let (status, answer) = self
            .post("/sap/bc/adt/debugger/breakpoints", Some(body))
            .await?;
        let accepted = answer.matches("<breakpoint ").count();
        if status != 200 || answer.contains("errorMessage") || accepted != IDLE_LINES.len() {
            return Err(format!("breakpoints not all accepted ({status}): {answer}").into());
        }
        Ok(())
    }
}

struct Phase {
    per_run: Duration,
}

impl Phase {
    fn print(&self, label: &str) {
        let secs = self.per_run.as_secs_f64();
        println!(
            "{label:<28} {:>9.1} ms/run {:>8.2} runs/s {:>12.0} statements/s",
            secs * 1000.0,
            1.0 / secs,
            STATEMENTS_PER_RUN / secs
        );
    }
}

async fn measure(c: &Client, runs: u32) -> Result<Phase, BoxError> {
    // One warm-up run (thread stacks, caches), then the median of `runs`.
    c.classrun().await?;
    let mut times = Vec::new();
    for _ in 0..runs {
        times.push(c.classrun().await?);
    }
    times.sort();
    Ok(Phase {
        per_run: times[times.len() / 2],
    })
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let runs: u32 = match std::env::args().nth(1) {
        Some(a) => a.parse()?,
        None => 5,
    };
    let runs = runs.max(1);
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![samples],
        ..sim::SimConfig::default()
    })
    .await?;
    let client = Client::new(&sim.base_url()).await?;

    println!(
        "{CLASS}: about {STATEMENTS_PER_RUN:.0} statements per run, median of {runs} runs per phase"
    );
    let without = measure(&client, runs).await?;
    without.print("no breakpoints");
    client.register_idle_breakpoints().await?;
    let with = measure(&client, runs).await?;
    with.print("10 idle line breakpoints");
    println!(
        "ratio (with / without, time per run): {:.3}",
        with.per_run.as_secs_f64() / without.per_run.as_secs_f64()
    );
    sim.shutdown().await;
    Ok(())
}

//! A big internal table: pages at the start and at the end, a page through `vars`, one cell,
//! the three exports (rows per second), and the peak memory of the coprocess and the
//! simulator.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::procs::{Bins, Res, ServeProc, SimProc, memory_kib, mib};
use crate::programs::{BIG, Programs};
use crate::{Plan, ms, stats, thousands};

const LONG: Duration = Duration::from_secs(600);

fn timed(
    serve: &mut ServeProc,
    cmd: &str,
    args: serde_json::Value,
) -> Res<(Duration, serde_json::Value)> {
    let t = Instant::now();
    let r = serve.lines.call(cmd, args, LONG)?;
    Ok((t.elapsed(), r))
}

pub fn run(plan: &Plan, bins: &Bins, dirs: &[PathBuf], progs: &Programs, dir: &Path) -> Res<()> {
    let sim = SimProc::start(bins, dirs)?;
    let mut serve = ServeProc::start(bins, &sim, dir)?;
    serve.lines.call("hello", json!({}), LONG)?;
    serve.lines.call(
        "bp.set",
        json!({"location": format!("{BIG}:{}", progs.big_stop)}),
        LONG,
    )?;
    let t = Instant::now();
    serve.lines.send("run", json!({"class": BIG}))?;
    serve.lines.event("stopped", LONG)?;
    let filled = t.elapsed();
    let sim_at_stop = memory_kib(sim.pid());
    println!(
        "  run to the stop after filling the table  {:>9.0} ms; simulator RSS then {}",
        ms(filled),
        sim_at_stop.map_or("n/a".into(), |(rss, _)| format!("{:.1} MiB", mib(rss)))
    );
    let rows = plan.rows;
    // Enough pages that the ratio of two medians holds still from run to run (five did not:
    // 3.3x and 4.0x in two runs of the same binaries); a cold page costs milliseconds.
    let reps = if plan.quick { 2 } else { 21 };
    // Each page is read cold, then once more (answered from what the stop read). A `set`
    // makes the engine forget every read of the stop (selecting a frame no longer does: each
    // frame keeps its reads); it assigns the date its own value, so the program is unchanged.
    let mut page = |label: &str, args: serde_json::Value, want: u64| -> Res<f64> {
        let mut times = Vec::new();
        let mut again = Duration::ZERO;
        for _ in 0..reps {
            serve
                .lines
                .call("set", json!({"path": "LV_DAY", "value": "20260101"}), LONG)?;
            let (d, r) = timed(&mut serve, "table", args.clone())?;
            let got = r["rows"].as_array().map_or(0, Vec::len) as u64;
            if got != want {
                return Err(format!("{label}: {got} rows instead of {want}").into());
            }
            times.push(d);
            again = timed(&mut serve, "table", args.clone())?.0;
        }
        let p50 = stats(&times).p50;
        println!(
            "  {label:<40} {p50:>9.2} ms (median of {reps}; read again: {:.2} ms)",
            ms(again)
        );
        Ok(p50)
    };
    let small = page(
        "table, first page of the 10-row table",
        json!({"id": "LT_SMALL", "limit": 100}),
        10,
    )?;
    let first = page(
        "table, first page (100 rows)",
        json!({"id": "LT_BIG", "limit": 100}),
        100,
    )?;
    println!(
        "  {:<40} {:>9.2}x (goal ≤ 3x)",
        "  ratio to the 10-row table's page",
        first / small.max(1e-9)
    );
    // The same two pages over a link with a round trip of its own (what a real system
    // adds), where the work per row weighs less than the round trips.
    let rtt = if plan.quick { 5 } else { 40 };
    sim.set_latency(rtt)?;
    let small_far = page(
        &format!("  10-row table's page, RTT {rtt} ms"),
        json!({"id": "LT_SMALL", "limit": 100}),
        10,
    )?;
    let first_far = page(
        &format!("  first page (100 rows), RTT {rtt} ms"),
        json!({"id": "LT_BIG", "limit": 100}),
        100,
    )?;
    sim.set_latency(0)?;
    println!(
        "  {:<40} {:>9.2}x",
        format!("  ratio with RTT {rtt} ms"),
        first_far / small_far.max(1e-9)
    );
    page(
        &format!("table, 100 rows at offset {}", thousands(rows - 100)),
        json!({"id": "LT_BIG", "offset": rows - 100, "limit": 100}),
        100,
    )?;
    page(
        "table, 500 rows",
        json!({"id": "LT_BIG", "limit": 500}),
        500,
    )?;
    serve.lines.call("frame", json!({"index": 0}), LONG)?;
    let (d, r) = timed(
        &mut serve,
        "vars",
        json!({"id": "LT_BIG", "offset": rows - 100, "limit": 100}),
    )?;
    if r["variables"].as_array().map_or(0, Vec::len) != 100 {
        return Err(format!("vars page at the end: {r}").into());
    }
    println!(
        "  {:<40} {:>9.2} ms",
        format!("vars, 100 rows at offset {}", thousands(rows - 100)),
        ms(d)
    );
    let cell = format!("LT_BIG[{}]-NAME", rows / 2);
    serve.lines.call("frame", json!({"index": 0}), LONG)?;
    let (d, r) = timed(&mut serve, "get", json!({"path": cell}))?;
    if r["variable"]["value"] != format!("name {}", rows / 2) {
        return Err(format!("get {cell}: {r}").into());
    }
    println!("  {:<40} {:>9.2} ms", format!("get {cell}"), ms(d));

    for format in ["csv", "json", "abap"] {
        let file = dir.join(format!("export.{format}"));
        let id = serve.lines.send(
            "export",
            json!({"id": "LT_BIG", "format": format, "file": file.display().to_string()}),
        )?;
        let t = Instant::now();
        let mut peak_sim = 0;
        let mut peak_serve = 0;
        let r = loop {
            match serve.lines.response(id, Duration::from_millis(100)) {
                Ok(r) => break Some(r),
                Err(e) if e.to_string() == "timed out" => {}
                Err(e) => return Err(e),
            }
            peak_sim = peak_sim.max(memory_kib(sim.pid()).map_or(0, |m| m.0));
            peak_serve = peak_serve.max(memory_kib(serve.pid()).map_or(0, |m| m.0));
            if t.elapsed() > plan.export_timeout {
                break None;
            }
        };
        let took = t.elapsed();
        let Some(r) = r else {
            println!(
                "  export {format:<5} did not finish in {} s (RSS serve {:.1} MiB, simulator {:.1} MiB at that time)",
                plan.export_timeout.as_secs(),
                mib(peak_serve),
                mib(peak_sim)
            );
            // The coprocess is still busy with it: this section ends here.
            return Ok(());
        };
        if r["ok"] != true {
            return Err(format!("export {format}: {}", r["error"]).into());
        }
        let result = &r["result"];
        let exported = result["rows"].as_u64().unwrap_or(0);
        if exported != rows {
            return Err(format!("export {format}: {exported} rows instead of {rows}").into());
        }
        let bytes = std::fs::metadata(&file).map_or(0, |m| m.len());
        if format == "csv" {
            let lines = std::fs::read_to_string(&file)?.lines().count() as u64;
            if lines != rows + 1 {
                return Err(format!("export csv: {lines} lines for {rows} rows").into());
            }
        }
        println!(
            "  export {format:<5} {:>9.2} s  {:>10.0} rows/s  {:>7.1} MB  (RSS sampled: serve ≤ {:.1} MiB, simulator ≤ {:.1} MiB)",
            took.as_secs_f64(),
            rows as f64 / took.as_secs_f64(),
            bytes as f64 / 1e6,
            mib(peak_serve),
            mib(peak_sim)
        );
        let _ = std::fs::remove_file(&file);
    }
    let serve_mem = memory_kib(serve.pid());
    let sim_mem = memory_kib(sim.pid());
    println!(
        "  peak RSS (VmHWM) of serve      {}",
        serve_mem.map_or("n/a".into(), |m| format!(
            "{:>7.1} MiB (goal < 64 MiB)",
            mib(m.1)
        ))
    );
    println!(
        "  peak RSS (VmHWM) of simulator  {}",
        sim_mem.map_or("n/a".into(), |m| format!("{:>7.1} MiB", mib(m.1)))
    );
    let _ = serve.lines.call("terminate", json!({}), LONG);
    serve.shutdown();
    Ok(())
}

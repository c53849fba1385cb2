//! What one `abap vars` costs: from a fresh `nu -c` (a nu process and a plugin process per
//! call) and from an open nu session, against a stop on the embedded simulator, with the same
//! request sent straight through the session client and an empty `nu -c` as baselines.
//!
//! cargo build --release --workspace
//! cargo run --release -p nu_plugin_abap --example bench_vars -- [calls]
//!
//! NU_BIN names nu 0.115.x (default: tests/nu/node_modules/@nushell/linux-x64/bin/nu).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use client::{Incoming, Session, Target};
use serde_json::json;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let calls: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let exe = std::env::current_exe()?;
    // target/<profile>/examples/bench_vars → target/<profile>
    let bin_dir = exe
        .parent()
        .and_then(|p| p.parent())
        .ok_or("no target directory")?
        .to_path_buf();
    let plugin = bin_dir.join("nu_plugin_abap");
    let abapdbg = bin_dir.join("abapdbg");
    let nu = std::env::var_os("NU_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../tests/nu/node_modules/@nushell/linux-x64/bin/nu")
        });
    for (what, path) in [("plugin", &plugin), ("abapdbg", &abapdbg), ("nu", &nu)] {
        if !path.exists() {
            return Err(format!(
                "{what} not found at {}: build the workspace (and npm ci --prefix tests/nu)",
                path.display()
            )
            .into());
        }
    }
    let dir = std::env::temp_dir().join(format!("abapdbg-bench-vars-{}", std::process::id()));
    let env = [
        ("ABAPDBG_BIN", abapdbg.display().to_string()),
        ("ABAPDBG_RUNTIME_DIR", dir.join("run").display().to_string()),
        ("ABAPDBG_STATE_DIR", dir.join("state").display().to_string()),
    ];
    let lookup = env.clone();
    let target =
        Target::from_lookup(move |k| lookup.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()));
    let never = || false;
    let long = Duration::from_secs(60);

    // A stop with 13 variables, two of them structures (one with a nested table).
    let session = Session::connect_or_start(&target)?;
    session.request(
        "bp.set",
        json!({"location": "ZCL_ABAPDBG_ORDERS:67"}),
        long,
        &never,
    )?;
    let sub = session.subscribe();
    session.send_routed(&sub, "run", json!({"class": "ZCL_ABAPDBG_ORDERS"}))?;
    loop {
        match sub.recv_timeout(long)? {
            Some(Incoming::Event(e)) if e.event == "stopped" => break,
            Some(_) => {}
            None => return Err("no stop within 60 s".into()),
        }
    }

    let result = (|| -> Result<(), Box<dyn std::error::Error>> {
        let nu_c = |script: &str| -> Result<Duration, Box<dyn std::error::Error>> {
            let start = Instant::now();
            let out = Command::new(&nu)
                .args([
                    "--no-config-file",
                    "--plugins",
                    &format!("[{}]", plugin.display()),
                    "-c",
                    script,
                ])
                .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
                .output()?;
            if !out.status.success() {
                return Err(
                    format!("nu -c {script:?}: {}", String::from_utf8_lossy(&out.stderr)).into(),
                );
            }
            Ok(start.elapsed())
        };
        let mean = |f: &dyn Fn() -> Result<Duration, Box<dyn std::error::Error>>| -> Result<f64, Box<dyn std::error::Error>> {
            f()?; // warm up
            let mut total = Duration::ZERO;
            for _ in 0..calls {
                total += f()?;
            }
            Ok(total.as_secs_f64() * 1000.0 / f64::from(calls))
        };
        let empty = mean(&|| nu_c("null"))?;
        let fresh = mean(&|| nu_c("abap vars | length"))?;
        let direct = mean(&|| {
            let start = Instant::now();
            session.request("vars", json!({}), long, &never)?;
            Ok(start.elapsed())
        })?;
        // Inside one nu: the plugin process and its connection stay; `timeit` per call.
        let script = format!(
            "abap vars | length; 1..{calls} | each {{ timeit {{ abap vars | length }} }} | math avg | into int"
        );
        let out = Command::new(&nu)
            .args([
                "--no-config-file",
                "--plugins",
                &format!("[{}]", plugin.display()),
                "-c",
                &script,
            ])
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .output()?;
        if !out.status.success() {
            return Err(format!("nu session: {}", String::from_utf8_lossy(&out.stderr)).into());
        }
        let open_ns: f64 = String::from_utf8_lossy(&out.stdout).trim().parse()?;
        let open = open_ns / 1e6;
        println!("abap vars at a stop with 13 variables, mean of {calls} calls:");
        println!("  nu -c 'null' (baseline: a fresh nu)      {empty:8.2} ms");
        println!(
            "  nu -c 'abap vars' (fresh nu + plugin)    {fresh:8.2} ms   {:.2}x the baseline",
            fresh / empty
        );
        println!(
            "  abap vars in an open nu session          {open:8.2} ms   {:.2}x the direct request",
            open / direct
        );
        println!("  vars straight through the session client {direct:8.2} ms");
        Ok(())
    })();
    let _ = session.request("shutdown", json!({}), long, &never);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

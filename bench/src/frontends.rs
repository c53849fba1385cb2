//! The front ends: a one-shot CLI call (`abapdbg status --json`) against starting the binary
//! (`abapdbg --version`), and `nu -c 'abap vars'` against starting nu (`nu --version`), both
//! at a stop held by a background session (`serve --daemon`) on the simulator.

use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::procs::{Bins, Lines, Res, SimProc, system_env};
use crate::programs::{Programs, STEP};
use crate::{Plan, stats};

const LONG: Duration = Duration::from_secs(60);

/// Times `n` calls after a warm-up call; an empty list with the reason when the warm-up
/// fails (the command does not exist yet, say).
fn time_command(
    n: usize,
    mut make: impl FnMut() -> Command,
) -> Res<Option<(Vec<Duration>, String)>> {
    let warm = make().output()?;
    if !warm.status.success() {
        let why = String::from_utf8_lossy(&warm.stderr).trim().to_string();
        let why = if why.is_empty() {
            warm.status.to_string()
        } else {
            why
        };
        return Ok(Some((Vec::new(), why)));
    }
    let mut times = Vec::new();
    for _ in 0..n {
        let t = Instant::now();
        let out = make().output()?;
        times.push(t.elapsed());
        if !out.status.success() {
            return Err(format!(
                "failed on a later call: {}",
                String::from_utf8_lossy(&out.stderr)
            )
            .into());
        }
    }
    Ok(Some((times, String::new())))
}

fn print(label: &str, r: &Option<(Vec<Duration>, String)>, base: Option<f64>) -> Option<f64> {
    match r {
        Some((times, _)) if !times.is_empty() => {
            let st = stats(times);
            let rel = base.map_or(String::new(), |b| {
                format!("   {:.2}x the baseline", st.p50 / b)
            });
            println!(
                "  {label:<36} p50 {:>8.2} ms   p99 {:>8.2} ms{rel}",
                st.p50, st.p99
            );
            Some(st.p50)
        }
        Some((_, why)) => {
            let why: String = why
                .lines()
                .next()
                .unwrap_or_default()
                .chars()
                .take(100)
                .collect();
            println!("  {label:<36} not available ({why})");
            None
        }
        None => {
            println!("  {label:<36} not available");
            None
        }
    }
}

pub fn run(plan: &Plan, bins: &Bins, dirs: &[PathBuf], progs: &Programs, dir: &Path) -> Res<()> {
    let Some(abapdbg) = bins.abapdbg.clone() else {
        println!("  not available: abapdbg is not built (cargo build --profile dist --workspace)");
        return Ok(());
    };
    let n = if plan.quick { 2 } else { 20 };
    let sim = SimProc::start(bins, dirs)?;
    let fe_dir = dir.join("frontends");
    let env = system_env(&sim, &fe_dir);
    let mut env_with_bin = env.clone();
    env_with_bin.push(("ABAPDBG_BIN".into(), abapdbg.display().to_string()));
    let command = |program: &Path, args: &[&str]| {
        let mut c = Command::new(program);
        c.args(args)
            .envs(env_with_bin.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .env_remove("ABAPDBG_PROFILE")
            .stdin(std::process::Stdio::null());
        c
    };

    // The background session the front ends reach, stopped in the step class.
    let out = command(&abapdbg, &["serve", "--daemon"]).output()?;
    if !out.status.success() {
        return Err(format!(
            "serve --daemon: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )
        .into());
    }
    let started: Value = serde_json::from_slice(&out.stdout)?;
    let socket = started["socket"]
        .as_str()
        .ok_or("serve --daemon named no socket")?
        .to_string();
    let stream = UnixStream::connect(&socket)?;
    let mut session = Lines::new(Box::new(stream.try_clone()?), Box::new(stream));
    let result = (|| -> Res<()> {
        session.call("hello", json!({}), LONG)?;
        session.call(
            "bp.set",
            json!({"location": format!("{STEP}:{}", progs.step_stop)}),
            LONG,
        )?;
        session.send("run", json!({"class": STEP}))?;
        session.event("stopped", LONG)?;

        let version = time_command(n, || command(&abapdbg, &["--version"]))?;
        let base = print("abapdbg --version (baseline)", &version, None);
        let status = time_command(n, || command(&abapdbg, &["status", "--json"]))?;
        print("abapdbg status --json (one-shot)", &status, base);

        match (&bins.nu, &bins.plugin) {
            (Some(nu), Some(plugin)) => {
                let plugins = format!("[{}]", plugin.display());
                let version = time_command(n, || command(nu, &["--version"]))?;
                let base = print("nu --version (baseline)", &version, None);
                let vars = time_command(n, || {
                    command(
                        nu,
                        &[
                            "--no-config-file",
                            "--plugins",
                            &plugins,
                            "-c",
                            "abap vars | length",
                        ],
                    )
                })?;
                print("nu -c 'abap vars'", &vars, base);
            }
            (None, _) => println!(
                "  nu -c 'abap vars'                    not available (no nu: npm install --prefix tests/nu)"
            ),
            (_, None) => println!(
                "  nu -c 'abap vars'                    not available (nu_plugin_abap not built)"
            ),
        }
        Ok(())
    })();
    let _ = session.call("terminate", json!({}), LONG);
    let _ = session.call("shutdown", json!({}), LONG);
    result
}

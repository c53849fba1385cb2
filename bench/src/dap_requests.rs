//! The DAP adapter: session requests per editor action. `abapdbg dap` runs as an editor starts
//! it (DAP on its stdin/stdout), against a background session (`serve --daemon`) on the
//! simulator that it reaches through a relay socket: the relay passes every line on and counts
//! each request the adapter sends by its `cmd`. An action is what an editor does for one thing
//! the user does (after a step: the stack, the top frame's scopes and its locals), and the
//! requests counted are those between its first DAP request and its last response.
//! `--dap-baseline PATH` runs the same script with another build's adapter (the session is
//! this build's either way) and prints both with their ratio.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::Plan;
use crate::procs::{Bins, Lines, Res, SimProc, system_env};
use crate::programs::{DAP, DAP_FILE, Programs};

const LONG: Duration = Duration::from_secs(60);

/// The requests of the session protocol that only move the session's cursor (which thread,
/// which frame the next requests mean) and read or move nothing themselves.
const CURSOR: &[&str] = &["thread", "frame"];

/// The `cmd`s the adapter sent, in order, since the last [`Counter::take`].
#[derive(Clone, Default)]
struct Counter(Arc<Mutex<Vec<String>>>);

impl Counter {
    fn push(&self, cmd: String) {
        if let Ok(mut v) = self.0.lock() {
            v.push(cmd);
        }
    }

    fn take(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }
}

/// Listens at `at` and relays each connection to the session's socket `to`, counting the
/// requests that pass.
fn relay(at: &Path, to: PathBuf, counter: Counter) -> Res<()> {
    let listener = UnixListener::bind(at)?;
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(client) = client else { return };
            let Ok(upstream) = UnixStream::connect(&to) else {
                continue;
            };
            let (Ok(client_w), Ok(upstream_r)) = (client.try_clone(), upstream.try_clone()) else {
                continue;
            };
            let counter = counter.clone();
            std::thread::spawn(move || {
                let mut upstream = upstream;
                for line in BufReader::new(client).lines() {
                    let Ok(line) = line else { break };
                    if let Ok(v) = serde_json::from_str::<Value>(&line)
                        && let Some(cmd) = v["cmd"].as_str()
                    {
                        counter.push(cmd.to_string());
                    }
                    if writeln!(upstream, "{line}").is_err() {
                        break;
                    }
                }
                let _ = upstream.shutdown(std::net::Shutdown::Both);
            });
            std::thread::spawn(move || {
                let mut client_w = client_w;
                let mut upstream_r = upstream_r;
                let _ = std::io::copy(&mut upstream_r, &mut client_w);
                let _ = client_w.shutdown(std::net::Shutdown::Both);
            });
        }
    });
    Ok(())
}

/// `abapdbg dap` as an editor drives it.
struct Editor {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    seq: i64,
    /// Events read while waiting for something else.
    events: Vec<Value>,
}

impl Editor {
    fn start(bin: &Path, env: &[(String, String)]) -> Res<Editor> {
        let mut child = Command::new(bin)
            .arg("dap")
            .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .env_remove("ABAPDBG_PROFILE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().ok_or("no stdin of the adapter")?;
        let stdout = child.stdout.take().ok_or("no stdout of the adapter")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Ok(Some(message)) = dap::framing::read_message(&mut reader) {
                if tx.send(message).is_err() {
                    return;
                }
            }
        });
        Ok(Editor {
            child,
            stdin,
            rx,
            seq: 0,
            events: Vec::new(),
        })
    }

    fn next(&mut self, deadline: Instant) -> Res<Value> {
        match self
            .rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(v) => Ok(v),
            Err(RecvTimeoutError::Timeout) => Err("the adapter did not answer in time".into()),
            Err(RecvTimeoutError::Disconnected) => Err("the adapter ended".into()),
        }
    }

    /// Sends a request and answers its response's body (failing on `success: false`).
    fn request(&mut self, command: &str, arguments: Value) -> Res<Value> {
        self.seq += 1;
        let seq = self.seq;
        let message =
            json!({"seq": seq, "type": "request", "command": command, "arguments": arguments});
        dap::framing::write_message(&mut self.stdin, &message)?;
        let deadline = Instant::now() + LONG;
        loop {
            let m = self.next(deadline)?;
            if m["type"] == "response" && m["request_seq"] == seq {
                if m["success"] != true {
                    return Err(format!("{command}: {}", m["message"]).into());
                }
                return Ok(m["body"].clone());
            }
            if m["type"] == "event" {
                self.events.push(m);
            }
        }
    }

    /// The next event named `name` (earlier ones of other names are dropped).
    fn event(&mut self, name: &str) -> Res<Value> {
        if let Some(i) = self.events.iter().position(|e| e["event"] == name) {
            let e = self.events.remove(i);
            self.events.drain(..i);
            return Ok(e);
        }
        self.events.clear();
        let deadline = Instant::now() + LONG;
        loop {
            let m = self.next(deadline)?;
            if m["type"] == "event" && m["event"] == name {
                return Ok(m);
            }
        }
    }
}

impl Drop for Editor {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The actions measured, in the order they run.
const ACTIONS: &[&str] = &[
    "launch to the first stop (configuration included)",
    "first look at the stop: threads, stack, scopes, locals",
    "next, then stack, scopes, locals of the top frame",
    "the caller's frame: scopes, locals",
    "back to the top frame: scopes, locals",
    "hover (evaluate) in the top frame",
    "hover (evaluate) in the caller's frame",
];

/// Session requests of one action (averaged over its repetitions), by `cmd`.
#[derive(Default, Clone)]
struct Tally {
    by_cmd: BTreeMap<String, f64>,
}

impl Tally {
    fn of(cmds: &[Vec<String>]) -> Tally {
        let mut t = Tally::default();
        let n = cmds.len().max(1) as f64;
        for c in cmds.iter().flatten() {
            *t.by_cmd.entry(c.clone()).or_default() += 1.0 / n;
        }
        t
    }

    fn total(&self) -> f64 {
        self.by_cmd.values().sum()
    }

    fn cursor(&self) -> f64 {
        self.by_cmd
            .iter()
            .filter(|(c, _)| CURSOR.contains(&c.as_str()))
            .map(|(_, n)| n)
            .sum()
    }

    fn breakdown(&self) -> String {
        self.by_cmd
            .iter()
            .map(|(c, n)| format!("{c} {}", number(*n)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn number(n: f64) -> String {
    // An empty sum is -0.
    let n = n + 0.0;
    if (n - n.round()).abs() < 1e-9 {
        format!("{n:.0}")
    } else {
        format!("{n:.2}")
    }
}

/// Runs the editor's script with `bin`'s adapter; one tally per action of [`ACTIONS`].
fn script(
    bin: &Path,
    env: &[(String, String)],
    counter: &Counter,
    progs: &Programs,
    source_root: &Path,
    steps: usize,
) -> Res<Vec<Tally>> {
    let mut tallies = Vec::new();
    let mut ed = Editor::start(bin, env)?;
    counter.take();
    ed.request(
        "initialize",
        json!({"adapterID": "bench", "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"}),
    )?;
    ed.request(
        "launch",
        json!({"class": DAP, "sourceRoot": source_root.display().to_string()}),
    )?;
    ed.event("initialized")?;
    let file = source_root.join(DAP_FILE).display().to_string();
    let bps = ed.request(
        "setBreakpoints",
        json!({"source": {"path": file}, "breakpoints": [{"line": progs.dap_stop}]}),
    )?;
    if bps["breakpoints"][0]["verified"] != true {
        return Err(format!("the breakpoint was not set: {bps}").into());
    }
    ed.request("configurationDone", json!({}))?;
    let stop = ed.event("stopped")?;
    let thread = stop["body"]["threadId"].clone();
    tallies.push(Tally::of(&[counter.take()]));

    // The editor's look at a stop: stack, the top frame's scopes, its locals.
    let look = |ed: &mut Editor, frame: &Value| -> Res<()> {
        let scopes = ed.request("scopes", json!({"frameId": frame["id"]}))?;
        let locals = scopes["scopes"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["name"] == "Locals"))
            .ok_or("no Locals scope")?;
        ed.request(
            "variables",
            json!({"variablesReference": locals["variablesReference"]}),
        )?;
        Ok(())
    };
    let stack = |ed: &mut Editor| -> Res<Vec<Value>> {
        let frames = ed.request("stackTrace", json!({"threadId": thread}))?["stackFrames"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if frames.len() < 2 {
            return Err(format!("expected two frames, got {}", frames.len()).into());
        }
        Ok(frames)
    };

    ed.request("threads", json!({}))?;
    let frames = stack(&mut ed)?;
    look(&mut ed, &frames[0])?;
    tallies.push(Tally::of(&[counter.take()]));

    let mut per_step = Vec::new();
    let mut frames = frames;
    for _ in 0..steps {
        ed.request("next", json!({"threadId": thread}))?;
        ed.event("stopped")?;
        frames = stack(&mut ed)?;
        look(&mut ed, &frames[0])?;
        per_step.push(counter.take());
    }
    tallies.push(Tally::of(&per_step));

    look(&mut ed, &frames[1])?;
    tallies.push(Tally::of(&[counter.take()]));
    look(&mut ed, &frames[0])?;
    tallies.push(Tally::of(&[counter.take()]));

    let hover = |ed: &mut Editor, expression: &str, frame: &Value| -> Res<()> {
        ed.request(
            "evaluate",
            json!({"expression": expression, "frameId": frame["id"], "context": "hover"}),
        )?;
        Ok(())
    };
    hover(&mut ed, "lv_sum", &frames[0])?;
    tallies.push(Tally::of(&[counter.take()]));
    hover(&mut ed, "lv_n", &frames[1])?;
    tallies.push(Tally::of(&[counter.take()]));

    ed.request("disconnect", json!({"terminateDebuggee": true}))?;
    Ok(tallies)
}

pub fn run(plan: &Plan, bins: &Bins, dirs: &[PathBuf], progs: &Programs, dir: &Path) -> Res<()> {
    let Some(abapdbg) = bins.abapdbg.clone() else {
        println!("  not available: abapdbg is not built (cargo build --profile dist --workspace)");
        return Ok(());
    };
    let steps = if plan.quick { 2 } else { 10 };
    let source_root = dirs.first().ok_or("no program folder")?.clone();
    let sim = SimProc::start(bins, dirs)?;
    let dap_dir = dir.join("dap");
    let env = system_env(&sim, &dap_dir);
    let with = |runtime: &Path| -> Vec<(String, String)> {
        let mut e: Vec<(String, String)> = env
            .iter()
            .filter(|(k, _)| k != "ABAPDBG_RUNTIME_DIR")
            .cloned()
            .collect();
        e.push(("ABAPDBG_RUNTIME_DIR".into(), runtime.display().to_string()));
        e.push(("ABAPDBG_BIN".into(), abapdbg.display().to_string()));
        e
    };
    let out = Command::new(&abapdbg)
        .args(["serve", "--daemon"])
        .envs(with(&dap_dir.join("run")))
        .env_remove("ABAPDBG_PROFILE")
        .stdin(Stdio::null())
        .output()?;
    if !out.status.success() {
        return Err(format!(
            "serve --daemon: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )
        .into());
    }
    let started: Value = serde_json::from_slice(&out.stdout)?;
    let socket = PathBuf::from(
        started["socket"]
            .as_str()
            .ok_or("serve --daemon named no socket")?,
    );
    // The adapter looks for the session where its runtime directory says: the relay is there,
    // under the socket's own name.
    let relay_runtime = dap_dir.join("relay");
    let own = socket
        .parent()
        .and_then(Path::file_name)
        .ok_or("the socket has no directory")?;
    let relay_dir = relay_runtime.join(own);
    std::fs::create_dir_all(&relay_dir)?;
    std::fs::set_permissions(&relay_dir, std::fs::Permissions::from_mode(0o700))?;
    let name = socket.file_name().ok_or("the socket has no name")?;
    let counter = Counter::default();
    relay(&relay_dir.join(name), socket.clone(), counter.clone())?;
    let adapter_env = with(&relay_runtime);

    let result = (|| -> Res<()> {
        let now = script(&abapdbg, &adapter_env, &counter, progs, &source_root, steps)?;
        let baseline = match &plan.dap_baseline {
            Some(bin) => Some(script(
                bin,
                &adapter_env,
                &counter,
                progs,
                &source_root,
                steps,
            )?),
            None => None,
        };
        println!(
            "  session requests the adapter sends per editor action (`thread`/`frame`: cursor requests;"
        );
        println!("  a step averaged over {steps})");
        match &baseline {
            Some(before) => {
                println!(
                    "  baseline: {}",
                    plan.dap_baseline
                        .as_ref()
                        .map(|b| b.display().to_string())
                        .unwrap_or_default()
                );
                println!(
                    "    {:<54} {:>9} {:>9} {:>9}",
                    "action", "baseline", "this", "ratio"
                );
                for ((action, b), n) in ACTIONS.iter().zip(before).zip(&now) {
                    let ratio = if n.total() > 0.0 {
                        format!("{:.2}x", b.total() / n.total())
                    } else {
                        "none left".to_string()
                    };
                    println!(
                        "    {action:<54} {:>9} {:>9} {ratio:>9}",
                        format!("{} ({})", number(b.total()), number(b.cursor())),
                        format!("{} ({})", number(n.total()), number(n.cursor())),
                    );
                }
                println!("  baseline by command:");
                for (action, b) in ACTIONS.iter().zip(before) {
                    println!("    {action:<54} {}", b.breakdown());
                }
            }
            None => {
                println!("    {:<54} {:>6} {:>7}", "action", "total", "cursor");
                for (action, n) in ACTIONS.iter().zip(&now) {
                    println!(
                        "    {action:<54} {:>6} {:>7}",
                        number(n.total()),
                        number(n.cursor())
                    );
                }
            }
        }
        println!("  this build by command:");
        for (action, n) in ACTIONS.iter().zip(&now) {
            println!("    {action:<54} {}", n.breakdown());
        }
        Ok(())
    })();
    if let Ok(stream) = UnixStream::connect(&socket) {
        let mut session = Lines::new(Box::new(stream.try_clone()?), Box::new(stream));
        let _ = session.call("shutdown", json!({}), LONG);
    }
    result
}

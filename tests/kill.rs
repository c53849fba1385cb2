//! Every way a session can end — SIGINT, SIGTERM, SIGHUP, stdin EOF at a stop, and SIGKILL
//! followed by the next start — leaves nothing behind on the system: no stopped program, no
//! listener, none of our breakpoints.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use e2e::{Simulator, abapdbg_bin};
use serde_json::{Value, json};

const DEMO: &str = "ZCL_ABAPDBG_DEMO";
const OUTPUT: &str = "Order A001: total 60, rate 12.50\nDoubled rate: 25.00";

struct Serve {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
    stderr: Receiver<String>,
}

impl Serve {
    fn start(sim: &Simulator, state_dir: &Path) -> Serve {
        let mut child = Command::new(abapdbg_bin())
            .args(["serve", "--listener-poll-secs", "5"])
            .env("ABAPDBG_URL", &sim.url)
            .env("ABAPDBG_USER", "DEVELOPER")
            .env("ABAPDBG_PASSWORD", "abap")
            .env("ABAPDBG_CLIENT", "001")
            .env("ABAPDBG_STATE_DIR", state_dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start serve");
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let v: Value = serde_json::from_str(&line).expect("every stdout line is JSON");
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let (etx, stderr_rx) = channel();
        std::thread::spawn(move || {
            let mut all = String::new();
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                all.push_str(&line);
                all.push('\n');
            }
            let _ = etx.send(all);
        });
        let stdin = child.stdin.take();
        Serve {
            child,
            stdin,
            lines,
            stderr: stderr_rx,
        }
    }

    fn send(&mut self, v: Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{v}").expect("write");
        stdin.flush().expect("flush");
    }

    fn until(&self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            match self.lines.recv_timeout(Duration::from_secs(30)) {
                Ok(v) if pred(&v) => return v,
                Ok(_) => {}
                Err(e) => panic!("no {what} within 30 s: {e}"),
            }
        }
    }

    fn event(&self, name: &str) -> Value {
        self.until(name, |v| v["type"] == "event" && v["event"] == name)
    }

    /// Breakpoint, run, stop: the session holds a listener, a breakpoint and a stopped program.
    fn stop_in_demo(&mut self) -> Value {
        self.event("ready");
        self.send(json!({"id": 1, "cmd": "bp.set", "args": {"location": format!("{DEMO}:48")}}));
        let r = self.until("bp.set response", |v| v["id"] == 1);
        assert_eq!(r["result"]["breakpoints"][0]["status"], "verified", "{r}");
        self.send(json!({"id": 2, "cmd": "run", "args": {"class": DEMO}}));
        let armed = self.event("listener.armed");
        self.event("stopped");
        armed["body"].clone()
    }

    fn signal(&self, sig: &str) {
        let ok = Command::new("kill")
            .arg(format!("-{sig}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("kill")
            .success();
        assert!(ok, "kill -{sig}");
    }

    /// Waits for the exit; returns success and everything written to stderr.
    fn wait(mut self) -> (bool, String) {
        drop(self.stdin.take());
        let status = self.child.wait().expect("wait");
        let stderr = self
            .stderr
            .recv_timeout(Duration::from_secs(10))
            .unwrap_or_default();
        (status.success(), stderr)
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

fn client(sim: &Simulator) -> adt::Client {
    let config = adt::Config {
        base_url: sim.url.clone(),
        user: "DEVELOPER".into(),
        password: "abap".into(),
        client: Some("001".into()),
        ..Default::default()
    };
    adt::Client::new(&config, adt::SessionMode::Stateless).expect("client")
}

/// Nothing of the session is left: the program ran on, the class runs free (no breakpoint of
/// ours stops it, no frozen run holds it), and the listener is gone.
fn nothing_left(sim: &Simulator, identity: &Value) {
    let rt = runtime();
    let c = client(sim);
    let out = rt
        .block_on(async { tokio::time::timeout(Duration::from_secs(60), c.classrun(DEMO)).await })
        .expect("the class runs without stopping")
        .expect("classrun");
    assert_eq!(out, OUTPUT);
    let id = adt::Identity {
        user: "DEVELOPER".into(),
        terminal_id: identity["terminal_id"].as_str().unwrap_or_default().into(),
        ide_id: identity["ide_id"].as_str().unwrap_or_default().into(),
    };
    let listening = rt.block_on(c.listener_exists(&id)).expect("listener check");
    assert!(!listening, "the listener is gone");
    // And the simulator's own view: no stopped program, no listener, no breakpoint.
    let state = e2e::sim_state(&sim.url);
    assert_eq!(state["debuggees"], json!([]), "{state}");
    assert_eq!(state["listeners"], json!([]), "{state}");
    let held: usize = state["breakpoints"]
        .as_object()
        .map(|m| m.values().filter_map(|v| v.as_array()).map(Vec::len).sum())
        .unwrap_or(0);
    assert_eq!(held, 0, "{state}");
}

fn state_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("abapdbg-kill-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn ends_clean(sig: Option<&str>) {
    let sim = Simulator::start();
    let dir = state_dir(sig.unwrap_or("eof"));
    let mut serve = Serve::start(&sim, &dir);
    let identity = serve.stop_in_demo();
    match sig {
        Some(s) => serve.signal(s),
        None => drop(serve.stdin.take()),
    }
    let (ok, stderr) = serve.wait();
    assert!(ok, "serve exits successfully: {stderr}");
    assert!(
        stderr.contains(
            "abapdbg released: listener stopped, 1 breakpoint(s) deleted, 1 debuggee(s) released"
        ),
        "receipt on stderr: {stderr}"
    );
    nothing_left(&sim, &identity);
    // The session keeps its files in a directory of its own inside the state directory.
    let left: Vec<_> = std::fs::read_dir(dir.join("abapdbg"))
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| !e2e::is_discovery_cache(p))
                .collect()
        })
        .unwrap_or_default();
    assert!(
        left.is_empty(),
        "the state file is removed after a clean release: {left:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigint_at_a_stop_releases_everything() {
    ends_clean(Some("INT"));
}

#[test]
fn sigterm_at_a_stop_releases_everything() {
    ends_clean(Some("TERM"));
}

#[test]
fn sighup_at_a_stop_releases_everything() {
    ends_clean(Some("HUP"));
}

#[test]
fn stdin_eof_at_a_stop_releases_everything() {
    ends_clean(None);
}

#[test]
fn after_sigkill_the_next_start_releases_the_orphan() {
    let sim = Simulator::start();
    let dir = state_dir("kill9");
    let mut serve = Serve::start(&sim, &dir);
    let identity = serve.stop_in_demo();
    // Wait until the stopped program is in the state file.
    let mut recorded = false;
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1200 {
        recorded = std::fs::read_dir(dir.join("abapdbg"))
            .map(|d| {
                d.flatten().any(|f| {
                    f.path().extension().is_some_and(|e| e == "json")
                        && std::fs::read_to_string(f.path())
                            .is_ok_and(|t| t.contains("\"context_id\": \""))
                })
            })
            .unwrap_or(false);
        if recorded {
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    assert!(recorded, "the stop is recorded in the state file");
    serve.signal("KILL");
    let (ok, _) = serve.wait();
    assert!(!ok, "killed");

    let mut next = Serve::start(&sim, &dir);
    next.event("ready");
    let released = next.event("orphan.released");
    assert_eq!(released["body"]["listener_stopped"], true, "{released}");
    assert_eq!(
        released["body"]["debuggees"][0]["how"], "continued",
        "{released}"
    );
    assert_eq!(released["body"]["errors"], json!([]), "{released}");
    next.send(json!({"id": 1, "cmd": "shutdown"}));
    next.until("shutdown response", |v| v["id"] == 1);
    let (ok, stderr) = next.wait();
    assert!(ok, "{stderr}");
    nothing_left(&sim, &identity);
    let _ = std::fs::remove_dir_all(&dir);
}

//! The processes the harness measures: the simulator (`abapdbg sim`), the coprocess
//! (`abapdbg serve`), a JSON-lines session with either over a pipe or a Unix socket, the
//! simulator's admin API, and what a process holds in memory.

use std::collections::VecDeque;
use std::error::Error;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub type Res<T> = Result<T, Box<dyn Error + Send + Sync>>;

/// The programs the harness starts.
#[derive(Debug, Clone)]
pub struct Bins {
    /// `abapdbg` of this build (`ABAPDBG_BIN` overrides); `None` when it is not built: the
    /// harness then runs the simulator and the coprocess from its own binary (same crates).
    pub abapdbg: Option<PathBuf>,
    /// This binary (for the fallback roles).
    pub own: PathBuf,
    /// `nu_plugin_abap` of this build, when built.
    pub plugin: Option<PathBuf>,
    /// nu 0.115.x (`NU_BIN`, else tests/nu/node_modules/@nushell/linux-x64/bin/nu), when there.
    pub nu: Option<PathBuf>,
}

impl Bins {
    pub fn find() -> Res<Bins> {
        let own = std::env::current_exe()?;
        let dir = own.parent().ok_or("no directory of the harness binary")?;
        // target/<profile>/bench, or target/<profile>/deps/… for a test.
        let profile_dir = if dir.ends_with("deps") {
            dir.parent().unwrap_or(dir)
        } else {
            dir
        };
        let existing = |p: PathBuf| p.is_file().then_some(p);
        let abapdbg = std::env::var_os("ABAPDBG_BIN")
            .map(PathBuf::from)
            .and_then(existing)
            .or_else(|| existing(profile_dir.join("abapdbg")));
        let plugin = existing(profile_dir.join("nu_plugin_abap"));
        let nu = std::env::var_os("NU_BIN")
            .map(PathBuf::from)
            .or_else(|| {
                Some(
                    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                        .join("../tests/nu/node_modules/@nushell/linux-x64/bin/nu"),
                )
            })
            .and_then(existing);
        Ok(Bins {
            abapdbg,
            own,
            plugin,
            nu,
        })
    }

    fn sim_command(&self) -> Command {
        match &self.abapdbg {
            Some(bin) => {
                let mut c = Command::new(bin);
                c.arg("sim");
                c
            }
            None => {
                let mut c = Command::new(&self.own);
                c.arg("--child").arg("sim");
                c
            }
        }
    }

    fn serve_command(&self) -> Command {
        match &self.abapdbg {
            Some(bin) => {
                let mut c = Command::new(bin);
                c.arg("serve").arg("--no-socket");
                c
            }
            None => {
                let mut c = Command::new(&self.own);
                c.arg("--child").arg("serve");
                c
            }
        }
    }
}

/// A running simulator process; killed on drop.
pub struct SimProc {
    child: Child,
    pub base: String,
}

impl SimProc {
    pub fn start(bins: &Bins, program_dirs: &[PathBuf]) -> Res<SimProc> {
        let mut cmd = bins.sim_command();
        for d in program_dirs {
            cmd.arg("--programs").arg(d);
        }
        cmd.args([
            "--max-statements",
            "2000000000",
            "--max-run-seconds",
            "3600",
            "--max-table-rows",
            "10000000",
        ]);
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = cmd.spawn()?;
        let stdout = child.stdout.take().ok_or("no stdout of the simulator")?;
        let mut line = String::new();
        let mut reader = BufReader::new(stdout);
        reader.read_line(&mut line)?;
        let base = line.trim().to_string();
        if !base.starts_with("http://") {
            let _ = child.kill();
            return Err(format!("the simulator printed {base:?} instead of its URL").into());
        }
        // Keep reading its stdout so it never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = reader.read_to_end(&mut sink);
        });
        Ok(SimProc { child, base })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// One request to the admin API (`/sim/…`, no authentication).
    pub fn admin(&self, method: &str, path: &str, body: Option<&str>) -> Res<(u16, String)> {
        http(&self.base, method, path, body)
    }

    pub fn clear_log(&self) -> Res<()> {
        self.admin("DELETE", "/sim/requests", None)?;
        Ok(())
    }

    /// Requests that travelled over the network since the log was cleared (batch parts not
    /// counted), without the listener's long polls.
    pub fn round_trips(&self) -> Res<usize> {
        let (_, body) = self.admin("GET", "/sim/requests", None)?;
        let log: Value = serde_json::from_str(&body)?;
        Ok(log
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|r| r["batchPart"].is_null())
                    .filter(|r| {
                        !r["path"]
                            .as_str()
                            .unwrap_or_default()
                            .contains("/listeners")
                    })
                    .count()
            })
            .unwrap_or(0))
    }

    /// The latency injected before every ADT request (0 = none).
    pub fn set_latency(&self, ms: u64) -> Res<()> {
        let (status, body) = if ms == 0 {
            self.admin("DELETE", "/sim/faults", None)?
        } else {
            self.admin(
                "PUT",
                "/sim/faults",
                Some(&json!({"latencyMs": ms}).to_string()),
            )?
        };
        if !(200..300).contains(&status) {
            return Err(format!("setting the latency: {status} {body}").into());
        }
        Ok(())
    }
}

impl Drop for SimProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A small HTTP/1.1 client for the admin API (loopback, no TLS, `Connection: close`).
fn http(base: &str, method: &str, path: &str, body: Option<&str>) -> Res<(u16, String)> {
    let host = base.strip_prefix("http://").ok_or("not an http URL")?;
    let host = host.trim_end_matches('/');
    let mut s = TcpStream::connect(host)?;
    s.set_read_timeout(Some(Duration::from_secs(60)))?;
    let body = body.unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw);
    let (head, rest) = text.split_once("\r\n\r\n").ok_or("no HTTP header end")?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no HTTP status")?;
    let chunked = head.lines().any(|l| {
        l.to_ascii_lowercase()
            .starts_with("transfer-encoding: chunked")
    });
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Ok((status, body))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A JSON-lines session: requests with ids, responses matched by id, events queued.
pub struct Lines {
    writer: Box<dyn Write + Send>,
    rx: Receiver<Value>,
    next: u64,
    events: VecDeque<Value>,
    early: Vec<Value>,
}

impl Lines {
    pub fn new(writer: Box<dyn Write + Send>, reader: Box<dyn Read + Send>) -> Lines {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(reader).lines() {
                let Ok(line) = line else { break };
                let Ok(v) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Lines {
            writer,
            rx,
            next: 1000,
            events: VecDeque::new(),
            early: Vec::new(),
        }
    }

    /// Sends a request; answers its id.
    pub fn send(&mut self, cmd: &str, args: Value) -> Res<u64> {
        self.next += 1;
        let line = json!({"id": self.next, "cmd": cmd, "args": args});
        writeln!(self.writer, "{line}")?;
        self.writer.flush()?;
        Ok(self.next)
    }

    fn recv(&mut self, deadline: Instant) -> Res<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(v) => Ok(v),
            Err(RecvTimeoutError::Timeout) => Err("timed out".into()),
            Err(RecvTimeoutError::Disconnected) => Err("the session closed".into()),
        }
    }

    /// The response to request `id`.
    pub fn response(&mut self, id: u64, timeout: Duration) -> Res<Value> {
        if let Some(i) = self.early.iter().position(|r| r["id"] == id) {
            return Ok(self.early.remove(i));
        }
        let deadline = Instant::now() + timeout;
        loop {
            let v = self.recv(deadline)?;
            if v["type"] == "response" {
                if v["id"] == id {
                    return Ok(v);
                }
                self.early.push(v);
            } else {
                self.events.push_back(v);
            }
        }
    }

    /// The next event named `name` (earlier events of other names are dropped).
    pub fn event(&mut self, name: &str, timeout: Duration) -> Res<Value> {
        while let Some(e) = self.events.pop_front() {
            if e["event"] == name {
                return Ok(e);
            }
        }
        let deadline = Instant::now() + timeout;
        loop {
            let v = self.recv(deadline)?;
            if v["type"] == "response" {
                self.early.push(v);
            } else if v["event"] == name {
                return Ok(v);
            }
        }
    }

    /// A request's `result`, or its error as an error.
    pub fn call(&mut self, cmd: &str, args: Value, timeout: Duration) -> Res<Value> {
        let id = self.send(cmd, args)?;
        let r = self.response(id, timeout)?;
        if r["ok"] == true {
            Ok(r["result"].clone())
        } else {
            Err(format!("{cmd}: {}", r["error"]).into())
        }
    }
}

/// The environment that points a coprocess (or a front end) at the simulator.
pub fn system_env(sim: &SimProc, dir: &Path) -> Vec<(String, String)> {
    vec![
        ("ABAPDBG_URL".into(), sim.base.clone()),
        ("ABAPDBG_USER".into(), "DEVELOPER".into()),
        ("ABAPDBG_PASSWORD".into(), "abap".into()),
        ("ABAPDBG_CLIENT".into(), "001".into()),
        // The table figures forget what a stop has read with a `set` (a write action).
        ("ABAPDBG_ALLOW_WRITES".into(), "true".into()),
        (
            "ABAPDBG_STATE_DIR".into(),
            dir.join("state").display().to_string(),
        ),
        (
            "ABAPDBG_RUNTIME_DIR".into(),
            dir.join("run").display().to_string(),
        ),
    ]
}

/// A running coprocess on stdin/stdout; killed on drop.
pub struct ServeProc {
    child: Child,
    pub lines: Lines,
    /// From spawning the process to its `ready` line.
    pub to_ready: Duration,
}

impl ServeProc {
    pub fn start(bins: &Bins, sim: &SimProc, dir: &Path) -> Res<ServeProc> {
        let mut cmd = bins.serve_command();
        cmd.envs(system_env(sim, dir))
            .env_remove("ABAPDBG_PROFILE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let start = Instant::now();
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take().ok_or("no stdin of serve")?;
        let stdout = child.stdout.take().ok_or("no stdout of serve")?;
        let mut lines = Lines::new(Box::new(stdin), Box::new(stdout));
        let ready = lines.event("ready", Duration::from_secs(30));
        let to_ready = start.elapsed();
        if let Err(e) = ready {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("serve did not say ready: {e}").into());
        }
        Ok(ServeProc {
            child,
            lines,
            to_ready,
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Ends the session politely (releasing what it holds), else kills it.
    pub fn shutdown(mut self) {
        let _ = self
            .lines
            .call("shutdown", json!({}), Duration::from_secs(20));
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for ServeProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Resident set size now and its peak so far (VmRSS, VmHWM) in KiB.
pub fn memory_kib(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse::<u64>().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

pub fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

//! Helpers for end-to-end tests: find the binary, start the simulator as a process, run shells.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// The `abapdbg` binary of this build (ABAPDBG_BIN overrides).
pub fn abapdbg_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("ABAPDBG_BIN") {
        return PathBuf::from(bin);
    }
    // target/<profile>/deps/<test> → target/<profile>/abapdbg
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target directory");
    let bin = dir.join("abapdbg");
    assert!(
        bin.exists(),
        "{} not found: build it first with `cargo build -p abapdbg` (the test script does)",
        bin.display()
    );
    bin
}

/// Where the test scripts live.
pub fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(name)
}

/// A running `abapdbg sim` process; terminated on drop.
pub struct Simulator {
    child: Child,
    pub url: String,
}

impl Simulator {
    pub fn start() -> Simulator {
        Simulator::start_with(&[])
    }

    /// `abapdbg sim` with extra flags.
    pub fn start_with(flags: &[&str]) -> Simulator {
        let mut child = Command::new(abapdbg_bin())
            .arg("sim")
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start abapdbg sim");
        let stdout = child.stdout.take().expect("sim stdout");
        let mut first = String::new();
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("read the simulator's URL");
        let url = first.trim().to_string();
        assert!(
            url.starts_with("http://127.0.0.1:"),
            "unexpected first line: {url:?}"
        );
        Simulator { child, url }
    }

    /// Sends SIGTERM and waits; true when the process exited successfully.
    pub fn stop(mut self) -> bool {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status();
        self.child.wait().map(|s| s.success()).unwrap_or(false)
    }
}

impl Drop for Simulator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `GET` of a URL on the simulator (plain HTTP/1.1, `Connection: close`); answers the body.
/// For the simulator's unauthenticated admin API (`/sim/state`).
pub fn http_get(base_url: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let host = base_url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(host).expect("connect to the simulator");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut raw = String::new();
    stream.read_to_string(&mut raw).expect("read");
    let (head, body) = raw.split_once("\r\n\r\n").expect("an HTTP answer");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        // One or more chunks: size line, data, CRLF.
        let mut out = String::new();
        let mut rest = body;
        while let Some((size, tail)) = rest.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).expect("chunk size");
            if n == 0 {
                break;
            }
            out.push_str(&tail[..n]);
            rest = &tail[n + 2..];
        }
        out
    } else {
        body.to_string()
    }
}

/// The simulator's state (`GET /sim/state`): stopped debuggees, listeners, breakpoints.
pub fn sim_state(base_url: &str) -> serde_json::Value {
    serde_json::from_str(&http_get(base_url, "/sim/state")).expect("state is JSON")
}

/// A raw HTTP/1.1 request to the simulator; answers the status line and the body.
pub fn http_raw(base_url: &str, method: &str, path: &str) -> (String, String) {
    use std::io::{Read, Write};
    let host = base_url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(host).expect("connect to the simulator");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Basic REVWRUxPUEVSOmFiYXA=\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut raw = String::new();
    let _ = stream.read_to_string(&mut raw);
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((raw.as_str(), ""));
    (
        head.lines().next().unwrap_or_default().to_string(),
        body.to_string(),
    )
}

/// `PUT /sim/faults` with `body` (a JSON object of faults); the simulator must accept it.
pub fn sim_faults(base_url: &str, body: &serde_json::Value) {
    use std::io::{Read, Write};
    let host = base_url.trim_start_matches("http://").trim_end_matches('/');
    let body = body.to_string();
    let mut stream = std::net::TcpStream::connect(host).expect("connect to the simulator");
    write!(
        stream,
        "PUT /sim/faults HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "faults refused: {answer}"
    );
}

/// Whether `path` is the per-system discovery cache the state directory keeps across sessions
/// (`discovery-<hash>.json`, meant to stay), not a file of one session.
pub fn is_discovery_cache(path: &std::path::Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("discovery-"))
}

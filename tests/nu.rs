//! The Nushell plugin `nu_plugin_abap` driven by the real `nu` 0.115.1 (pinned in
//! tests/nu/package.json; `npm ci --prefix tests/nu` installs it, `NU_BIN` overrides the path)
//! against the simulator: every command, one session shared by separate `nu` processes, the
//! 300-row table through `where`/`sort-by`/`math sum`, error codes and spans, streams stopped
//! early, Ctrl-C and Tab in an interactive `nu` in tmux, and plugin GC.
//!
//! Each test has its own runtime and state directories, so its own session daemon, which it
//! ends with `abap shutdown` (a guard does it on failure too). Output is compared as
//! `to json -r` / `to nuon`, never as a drawn table.
//!
//! Expected values come from the ABAP source of ZCL_NU_ORDERS (tests/abap/zcl_nu_orders.clas.abap,
//! bundled as ZCL_ABAPDBG_ORDERS): row i (1…300) of LT_ITEMS has amount = i * 1.25,
//! customer = 'C' + i mod 7, due = 2026-11-24 + i days, at = 13:45:01, code = i as NUMC 6,
//! note = 'item i', flags = BEEF, big = i * 10^10, ratio = i / 4.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use e2e::{Simulator, abapdbg_bin, http_get, http_raw, sim_faults, sim_state};
use serde_json::{Value, json};

/// The Nushell version the plugin is built against (nu-plugin =0.115.1).
const NU_VERSION: &str = "0.115.1";
/// How long one `nu -c` may take before the test fails (a run, a catch, a step: normally
/// well under a second; a loaded machine is slow).
const NU_LIMIT: Duration = Duration::from_secs(90);
/// Bounded waits for something that will happen (a daemon gone, a screen line).
const SETTLE: Duration = Duration::from_secs(30);
/// What the demo class prints.
const DEMO_OUTPUT: &str = "Order A001: total 60, rate 12.50\nDoubled rate: 25.00";
/// What ZCL_NU_ORDERS (and ZCL_ABAPDBG_ORDERS) prints.
const ORDERS_OUTPUT: &str = "300 items for ACME\ndone 301";
/// The prompt of the interactive `nu` in tmux.
const PROMPT: &str = "nutest>";

// ---------------------------------------------------------------------------------------------
// Finding the binaries

/// `nu` 0.115.1: `NU_BIN`, else the one `npm ci --prefix tests/nu` installs. Missing or of
/// another version fails the test with what to do; it never passes silently.
fn nu_bin() -> PathBuf {
    static CHECKED: OnceLock<PathBuf> = OnceLock::new();
    CHECKED
        .get_or_init(|| {
            let path = std::env::var_os("NU_BIN")
                .map(PathBuf::from)
                .unwrap_or_else(|| {
                    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                        .join("nu/node_modules/@nushell/linux-x64/bin/nu")
                });
            assert!(
                path.is_file(),
                "nu {NU_VERSION} not found at {}: run `npm ci --prefix tests/nu` \
                 (scripts/test-all.sh does), or set NU_BIN to a nu {NU_VERSION}",
                path.display()
            );
            let out = Command::new(&path)
                .arg("--version")
                .output()
                .unwrap_or_else(|e| panic!("run {} --version: {e}", path.display()));
            let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
            assert_eq!(
                version,
                NU_VERSION,
                "{} is nu {version}; the plugin needs {NU_VERSION}: run `npm ci --prefix tests/nu`",
                path.display()
            );
            path
        })
        .clone()
}

/// `nu_plugin_abap` of this build, next to `abapdbg` (target/<profile>/).
fn plugin_bin() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target directory");
    let bin = dir.join("nu_plugin_abap");
    assert!(
        bin.exists(),
        "{} not found: build it first with `cargo build --workspace` (the test script does)",
        bin.display()
    );
    bin
}

/// `tmux`, required by the interactive tests.
fn require_tmux() {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "tmux not found: install it (`apt-get install tmux`; scripts/test-all.sh does)"
    );
}

fn abap_fixtures() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("abap")
        .display()
        .to_string()
}

fn samples() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../samples")
        .display()
        .to_string()
}

// ---------------------------------------------------------------------------------------------
// Running processes with a bound

/// What a finished process printed.
struct Out {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// How long to wait for a pipe's end after the process ended: the plugin process shares nu's
/// stderr and may end a moment later (after `abap events | first`, only with the next event).
const LINGER: Duration = Duration::from_secs(2);

/// What a pipe delivered so far, read on a thread.
struct Drain {
    text: Arc<Mutex<Vec<u8>>>,
    done: Receiver<()>,
}

impl Drain {
    fn new(pipe: Option<impl Read + Send + 'static>) -> Drain {
        let text = Arc::new(Mutex::new(Vec::new()));
        let (tx, done) = channel();
        let buf = text.clone();
        std::thread::spawn(move || {
            if let Some(mut p) = pipe {
                let mut chunk = [0u8; 4096];
                while let Ok(n) = p.read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut b) = buf.lock() {
                        b.extend_from_slice(&chunk[..n]);
                    }
                }
            }
            let _ = tx.send(());
        });
        Drain { text, done }
    }

    /// Everything, once the pipe ended or [`LINGER`] passed (call after the process ended).
    fn text(&self) -> String {
        let _ = self.done.recv_timeout(LINGER);
        self.text
            .lock()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    }
}

/// Waits for `child` at most `limit`; kills it after that. Never panics (used from `Drop`).
fn finish(mut child: Child, stdout: Drain, stderr: Drain, limit: Duration) -> Result<Out, String> {
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "did not end within {limit:?}; stderr:\n{}",
                    stderr.text()
                ));
            }
            Err(e) => return Err(format!("wait: {e}")),
        }
    };
    Ok(Out {
        code: status.code(),
        stdout: stdout.text(),
        stderr: stderr.text(),
    })
}

// ---------------------------------------------------------------------------------------------
// One test's world: directories, environment, `nu -c`, and the shutdown guard

/// A test's private directories and the environment of every `nu` it starts. On drop, when a
/// session socket is still there, `abap shutdown` ends the daemon (also when the test failed).
struct Nu {
    dir: PathBuf,
    url: Option<String>,
    nu: PathBuf,
    plugin: PathBuf,
}

impl Nu {
    /// Sessions on the embedded simulator (no ABAPDBG_URL: the daemon runs it).
    fn embedded(name: &str) -> Nu {
        Nu::new(name, None)
    }

    /// Sessions on a simulator process.
    fn on(sim: &Simulator, name: &str) -> Nu {
        Nu::new(name, Some(sim.url.clone()))
    }

    fn new(name: &str, url: Option<String>) -> Nu {
        let nu = nu_bin();
        let plugin = plugin_bin();
        let dir = test_dir(name);
        for sub in ["run", "state", "home", "work"] {
            std::fs::create_dir_all(dir.join(sub)).expect("create the test directories");
        }
        Nu {
            dir,
            url,
            nu,
            plugin,
        }
    }

    /// The environment of every process of the test (nothing else from ours leaks in).
    fn vars(&self) -> Vec<(String, String)> {
        let path = |sub: &str| self.dir.join(sub).display().to_string();
        let mut vars = vec![
            (
                "PATH".to_string(),
                std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into()),
            ),
            ("HOME".into(), path("home")),
            ("ABAPDBG_RUNTIME_DIR".into(), path("run")),
            ("ABAPDBG_STATE_DIR".into(), path("state")),
            ("ABAPDBG_BIN".into(), abapdbg_bin().display().to_string()),
        ];
        if let Some(url) = &self.url {
            vars.extend([
                ("ABAPDBG_URL".to_string(), url.clone()),
                ("ABAPDBG_USER".into(), "DEVELOPER".into()),
                ("ABAPDBG_PASSWORD".into(), "abap".into()),
                ("ABAPDBG_CLIENT".into(), "001".into()),
            ]);
        }
        vars
    }

    fn plugins_arg(&self) -> String {
        format!("[{}]", json!(self.plugin.display().to_string()))
    }

    fn command(&self, script: &str) -> Command {
        let mut cmd = Command::new(&self.nu);
        cmd.env_clear()
            .envs(self.vars())
            .current_dir(self.dir.join("work"))
            .args(["--no-config-file", "--plugins", &self.plugins_arg()])
            .args(["--error-style", "plain", "-c", script])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// `nu -c script`, whatever its outcome; `Err` only when it could not run or hung.
    fn try_run(&self, script: &str) -> Result<Out, String> {
        let mut child = self
            .command(script)
            .spawn()
            .map_err(|e| format!("start {}: {e}", self.nu.display()))?;
        let stdout = Drain::new(child.stdout.take());
        let stderr = Drain::new(child.stderr.take());
        finish(child, stdout, stderr, NU_LIMIT)
    }

    fn run(&self, script: &str) -> Out {
        self.try_run(script)
            .unwrap_or_else(|e| panic!("nu -c {script:?}: {e}\n{}", self.logs()))
    }

    /// `nu -c script`, which must succeed; its stdout without the final newline.
    fn ok(&self, script: &str) -> String {
        let out = self.run(script);
        assert_eq!(
            out.code,
            Some(0),
            "nu -c {script:?} failed:\n{}\n{}",
            out.stderr,
            self.logs()
        );
        out.stdout.trim_end().to_string()
    }

    /// `nu -c script` ending in `to json -r`, parsed.
    fn json(&self, script: &str) -> Value {
        let text = self.ok(script);
        serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("nu -c {script:?} printed no JSON ({e}): {text:?}"))
    }

    /// `nu -c script`, which must fail with exit code 1; its stderr.
    fn fails(&self, script: &str) -> String {
        let out = self.run(script);
        assert_eq!(
            out.code,
            Some(1),
            "nu -c {script:?} should fail; stdout: {}\nstderr: {}",
            out.stdout,
            out.stderr
        );
        out.stderr
    }

    /// `nu -c script` in the background, its stdout line by line.
    fn spawn(&self, script: &str) -> Background {
        let mut child = self.command(script).spawn().expect("start nu");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Drain::new(child.stderr.take());
        Background {
            child: Some(child),
            lines,
            stderr,
            script: script.to_string(),
        }
    }

    fn socket_exists(&self) -> bool {
        std::fs::read_dir(self.dir.join("run").join("abapdbg"))
            .map(|entries| {
                entries.filter_map(Result::ok).any(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    name.starts_with("session-") && name.ends_with(".sock")
                })
            })
            .unwrap_or(false)
    }

    /// Plugin processes started for this test (found by the runtime directory in their
    /// environment) that are still running.
    fn plugin_processes(&self) -> Vec<u32> {
        let marker = format!("ABAPDBG_RUNTIME_DIR={}", self.dir.join("run").display());
        std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter_map(|e| {
                let pid: u32 = e.file_name().to_str()?.parse().ok()?;
                let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
                let environ = std::fs::read(e.path().join("environ")).ok()?;
                let is_plugin = String::from_utf8_lossy(&cmdline).contains("nu_plugin_abap");
                let ours = environ.split(|b| *b == 0).any(|v| v == marker.as_bytes());
                (is_plugin && ours).then_some(pid)
            })
            .collect()
    }

    /// Waits (bounded) until the daemon removed its socket: it has ended.
    fn daemon_gone(&self) -> bool {
        let deadline = Instant::now() + SETTLE;
        while Instant::now() < deadline {
            if !self.socket_exists() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        false
    }

    /// `abap shutdown`: its receipt; the daemon is gone afterwards.
    fn shutdown(&self) -> Value {
        let receipt = self.json("abap shutdown | to json -r");
        assert!(self.daemon_gone(), "the daemon ended after abap shutdown");
        receipt
    }

    /// The daemon logs, for failure messages.
    fn logs(&self) -> String {
        let mut all = String::new();
        if let Ok(entries) = std::fs::read_dir(self.dir.join("state").join("abapdbg")) {
            for e in entries.filter_map(Result::ok) {
                let path = e.path();
                if path.extension().is_some_and(|x| x == "log") {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    let tail: Vec<&str> = text.lines().rev().take(40).collect();
                    all.push_str(&format!("--- {} (last lines)\n", path.display()));
                    for l in tail.into_iter().rev() {
                        all.push_str(l);
                        all.push('\n');
                    }
                }
            }
        }
        all
    }
}

impl Drop for Nu {
    fn drop(&mut self) {
        if self.socket_exists() {
            match self.try_run("abap shutdown | to json -r") {
                Ok(out) if out.code == Some(0) => {}
                Ok(out) => eprintln!("cleanup: abap shutdown failed: {}", out.stderr),
                Err(e) => eprintln!("cleanup: abap shutdown: {e}"),
            }
            if !self.daemon_gone() {
                eprintln!(
                    "cleanup: the daemon of {} did not end; its directory stays",
                    self.dir.display()
                );
                return;
            }
        }
        if std::thread::panicking() {
            eprintln!("{}", self.logs());
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A fresh directory for one test.
fn test_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("abapdbg-nu-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the test directory");
    dir
}

/// A directory removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A `nu -c` running in the background; killed on drop if still running.
struct Background {
    child: Option<Child>,
    lines: Receiver<String>,
    stderr: Drain,
    script: String,
}

impl Background {
    /// The next stdout line within `limit`.
    fn line(&self, limit: Duration) -> Option<String> {
        self.lines.recv_timeout(limit).ok()
    }

    /// Waits (bounded) for the process, which must succeed; the stdout lines not yet taken.
    fn finish(mut self) -> Vec<String> {
        let mut child = self.child.take().expect("running");
        let deadline = Instant::now() + NU_LIMIT;
        let status = loop {
            match child.try_wait().expect("wait for nu") {
                Some(s) => break s,
                None if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
                None => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("nu -c {:?} did not end within {NU_LIMIT:?}", self.script);
                }
            }
        };
        let mut rest = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(LINGER) {
            rest.push(l);
        }
        assert!(
            status.success(),
            "nu -c {:?} failed ({status}):\n{}",
            self.script,
            self.stderr.text()
        );
        rest
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Interactive nu in tmux

/// An interactive `nu` with the plugin in a private tmux server; the server is killed on drop.
struct Tmux {
    socket: PathBuf,
}

impl Tmux {
    fn start(nu: &Nu) -> Tmux {
        require_tmux();
        let socket = nu.dir.join("tmux.sock");
        // A fixed prompt without a right prompt, no banner, and no plugin GC (the test checks
        // that the same plugin process lives on).
        let setup = format!(
            "$env.config.show_banner = false; $env.PROMPT_COMMAND = {{|| '{}' }}; \
             $env.PROMPT_COMMAND_RIGHT = ''; $env.PROMPT_INDICATOR = '> '; \
             $env.config.plugin_gc = {{default: {{enabled: false}}}}",
            PROMPT.trim_end_matches('>')
        );
        let status = Command::new("tmux")
            .env_clear()
            .envs(nu.vars())
            .arg("-S")
            .arg(&socket)
            .args(["-f", "/dev/null", "new-session", "-d", "-s", "nu"])
            .args(["-x", "200", "-y", "50", "-c"])
            .arg(nu.dir.join("work"))
            .arg("--")
            .arg(&nu.nu)
            .args(["--no-config-file", "--no-history", "--plugins"])
            .arg(nu.plugins_arg())
            .args(["-e", &setup])
            .status()
            .expect("start tmux");
        assert!(status.success(), "tmux new-session failed");
        let tmux = Tmux { socket };
        tmux.wait_for("the first prompt", at_prompt);
        tmux
    }

    fn tmux(&self) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.arg("-S").arg(&self.socket);
        cmd
    }

    /// Types `text` literally (no key names).
    fn type_text(&self, text: &str) {
        let ok = self
            .tmux()
            .args(["send-keys", "-t", "nu", "-l", text])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "tmux send-keys {text:?}");
    }

    /// Presses a key (`Enter`, `Tab`, `C-c`).
    fn key(&self, key: &str) {
        let ok = self
            .tmux()
            .args(["send-keys", "-t", "nu", key])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "tmux send-keys {key}");
    }

    fn line(&self, text: &str) {
        self.type_text(text);
        self.key("Enter");
    }

    fn screen(&self) -> String {
        let out = self
            .tmux()
            .args(["capture-pane", "-t", "nu", "-p", "-J"])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Presses `key`, and again every few seconds, until the screen satisfies `pred` (bounded):
    /// a completion that found no answer in time shows nothing, and Tab asks again.
    fn press_until(&self, key: &str, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + SETTLE;
        loop {
            self.key(key);
            let again = Instant::now() + Duration::from_secs(3);
            while Instant::now() < again {
                let screen = self.screen();
                if pred(&screen) {
                    return screen;
                }
                assert!(
                    Instant::now() < deadline,
                    "waited in vain for {what}; the screen:\n{screen}"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }

    /// Waits (bounded) until the screen satisfies `pred`; the screen then.
    fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + SETTLE;
        loop {
            let screen = self.screen();
            if pred(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "waited in vain for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self
            .tmux()
            .arg("kill-server")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

fn screen_lines(screen: &str) -> Vec<&str> {
    screen
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect()
}

/// The last line is an empty prompt.
fn at_prompt(screen: &str) -> bool {
    screen_lines(screen).last() == Some(&PROMPT)
}

fn prompts(screen: &str) -> usize {
    screen_lines(screen)
        .iter()
        .filter(|l| l.starts_with(PROMPT))
        .count()
}

// ---------------------------------------------------------------------------------------------
// Expected values from the ABAP source

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

/// `lv_day + i`: 2026-11-24 plus i days, as `YYYY-MM-DD`.
fn due(i: i64) -> String {
    let (y, m, d) = civil_from_days(days_from_civil(2026, 11, 24) + i);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Row i of LT_ITEMS as `to json -r` prints it (dates as RFC 3339, bytes as a list).
fn item(i: i64) -> Value {
    json!({
        "id": i,
        "amount": i as f64 * 1.25,
        "customer": format!("C{}", i % 7),
        "due": format!("{}T00:00:00+00:00", due(i)),
        "at": "13:45:01",
        "code": format!("{i:06}"),
        "note": format!("item {i}"),
        "flags": [0xBE, 0xEF],
        "big": i * 10_000_000_000,
        "ratio": i as f64 / 4.0,
    })
}

/// `columns A to B` of a label on `needle` in a one-line script, as `--error-style plain`
/// prints it (1-based, inclusive).
fn label_columns(script: &str, needle: &str) -> String {
    let start = script.find(needle).expect("needle in script") + 1;
    format!(
        "label at line 1, columns {start} to {}",
        start + needle.len() - 1
    )
}

/// Our listener, breakpoints and stopped programs on the simulator, once they are gone
/// (bounded wait: continuing a program ends it a moment later).
fn assert_sim_clean(sim: &Simulator) {
    let deadline = Instant::now() + SETTLE;
    loop {
        let state = sim_state(&sim.url);
        let ours = |v: &Value| v["user"] == "DEVELOPER";
        let debuggees = state["debuggees"]
            .as_array()
            .is_some_and(|d| d.iter().any(ours));
        let listeners = state["listeners"]
            .as_array()
            .is_some_and(|l| l.iter().any(ours));
        let breakpoints = state["breakpoints"]["DEVELOPER"]
            .as_array()
            .is_some_and(|b| !b.is_empty());
        if !debuggees && !listeners && !breakpoints {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "after abap shutdown the simulator still holds something of ours: {state}"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

// ---------------------------------------------------------------------------------------------
// The tests

/// abap / abap bp / abap watch (their help), status, bp set (verified, rejected with the
/// system's reason, --kind exception, --condition), bp list, bp disable/enable (taken off and
/// put back on the system), listen, unlisten, test (stopped at an exception breakpoint, then
/// the results), bp delete with ids and a wrong id, a conditional stop, and shutdown while a
/// program is stopped, after which the simulator holds nothing of ours.
#[test]
fn breakpoints_unit_tests_and_the_end_of_a_session() {
    let fixtures = abap_fixtures();
    let samples = samples();
    let sim = Simulator::start_with(&["--programs", &fixtures, "--programs", &samples]);
    let nu = Nu::on(&sim, "bp");

    assert_eq!(
        nu.json("abap status | select state breakpoints listener threads | to json -r"),
        json!({"state": "idle", "breakpoints": 0,
               "listener": {"armed": false, "wanted": false}, "threads": []})
    );

    // The group commands print their help, which lists the subcommands.
    assert_eq!(
        nu.json(
            "[(abap | str contains 'abap bp set') (abap bp | str contains 'abap bp delete') \
             (abap watch | str contains 'abap watch set')] | to json -r"
        ),
        json!([true, true, true])
    );
    assert_eq!(
        nu.json("abap bp set ZCL_ABAPDBG_DEMO:48 | to json -r"),
        json!({"id": 1, "location": "ZCL_ABAPDBG_DEMO:48", "object": "ZCL_ABAPDBG_DEMO",
               "line": 48, "status": "verified", "reason": null})
    );
    // Line 30 is a comment.
    assert_eq!(
        nu.json("abap bp set ZCL_ABAPDBG_DEMO:30 | to json -r"),
        json!({"id": 2, "location": "ZCL_ABAPDBG_DEMO:30", "object": "ZCL_ABAPDBG_DEMO",
               "line": 30, "status": "rejected",
               "reason": "Cannot create a breakpoint at this position"})
    );
    assert_eq!(
        nu.json("abap bp set --kind exception cx_sy_zerodivide | to json -r"),
        json!({"id": 3, "location": "exception CX_SY_ZERODIVIDE", "object": null,
               "line": null, "status": "verified", "reason": null})
    );
    assert_eq!(
        nu.json(
            "abap bp set ZCL_NU_ORDERS:55 --condition 'sy-index = 3' | get status | to json -r"
        ),
        json!("verified")
    );
    assert_eq!(
        nu.json("abap bp list | to json -r"),
        json!([
            {"id": 1, "kind": "line", "location": "ZCL_ABAPDBG_DEMO:48",
             "object": "ZCL_ABAPDBG_DEMO", "line": 48, "status": "verified", "reason": null,
             "enabled": true, "condition": null, "user": null},
            {"id": 2, "kind": "line", "location": "ZCL_ABAPDBG_DEMO:30",
             "object": "ZCL_ABAPDBG_DEMO", "line": 30, "status": "rejected",
             "reason": "Cannot create a breakpoint at this position", "enabled": true,
             "condition": null, "user": null},
            {"id": 3, "kind": "exception", "location": "exception CX_SY_ZERODIVIDE",
             "object": null, "line": null, "status": "verified", "reason": null,
             "enabled": true, "condition": null, "user": null},
            {"id": 4, "kind": "line", "location": "ZCL_NU_ORDERS:55",
             "object": "ZCL_NU_ORDERS", "line": 55, "status": "verified", "reason": null,
             "enabled": true, "condition": "sy-index = 3", "user": null},
        ])
    );
    assert_eq!(
        nu.json("abap bp disable 1 4 | select id status enabled | to json -r"),
        json!([{"id": 1, "status": "disabled", "enabled": false},
               {"id": 4, "status": "disabled", "enabled": false}])
    );
    // Disabled breakpoints are off the system: only the exception breakpoint is left there.
    let on_system = sim_state(&sim.url)["breakpoints"]["DEVELOPER"].clone();
    assert_eq!(on_system.as_array().map(Vec::len), Some(1), "{on_system}");
    assert!(
        on_system[0]
            .as_str()
            .is_some_and(|s| s.contains("CX_SY_ZERODIVIDE")),
        "{on_system}"
    );

    assert_eq!(
        nu.json("abap listen | to json -r"),
        json!({"armed": true, "user": "DEVELOPER"})
    );
    assert_eq!(
        sim_state(&sim.url)["listeners"].as_array().map(Vec::len),
        Some(1)
    );
    assert_eq!(
        nu.json("abap status | get listener | to json -r"),
        json!({"armed": true, "wanted": true})
    );
    assert_eq!(
        nu.json("abap unlisten | to json -r"),
        json!({"stopped": true})
    );
    assert_eq!(
        sim_state(&sim.url)["listeners"].as_array().map(Vec::len),
        Some(0)
    );

    // The unit tests stop at the CATCH of the exception breakpoint…
    assert_eq!(
        nu.json("abap test ZCL_SMP_CALCULATOR | reject source | to json -r"),
        json!({"event": "stopped", "reason": "exception", "thread": 1, "epoch": 1,
               "object": "ZCL_SMP_CALCULATOR", "method": "DIVIDE_BY_ZERO_RAISES",
               "include": "ZCL_SMP_CALCULATOR============CCAU", "line": 37})
    );
    assert_eq!(
        nu.json("abap source --context 0 | to json -r"),
        json!([{"line": 37, "text": "      CATCH cx_sy_zerodivide INTO DATA(lx_error).",
                "current": true}])
    );
    // The end of a program `abap test` caught carries the unit result.
    assert_eq!(
        nu.json("abap continue | select event reason output test.passed test.failed | to json -r"),
        json!({"event": "ended", "reason": "finished", "output": null,
               "test.passed": 4, "test.failed": 0})
    );
    // … and without it they run through and answer the results.
    assert_eq!(nu.json("abap bp delete 3 | to json -r"), json!([3]));
    assert_eq!(
        nu.json(
            "abap test ZCL_SMP_CALCULATOR | update methods {|r| $r.methods | reject seconds } \
             | to json -r"
        ),
        json!({"event": "ended", "object": "ZCL_SMP_CALCULATOR", "passed": 4, "failed": 0,
        "ok": true, "alerts": [], "methods": [
            {"class": "LTC_CALCULATOR", "method": "ADDS", "passed": true, "line": 21,
             "alerts": []},
            {"class": "LTC_CALCULATOR", "method": "ADDS_NEGATIVE", "passed": true,
             "line": 25, "alerts": []},
            {"class": "LTC_CALCULATOR", "method": "DIVIDES", "passed": true, "line": 29,
             "alerts": []},
            {"class": "LTC_CALCULATOR", "method": "DIVIDE_BY_ZERO_RAISES",
             "passed": true, "line": 33, "alerts": []},
        ]})
    );

    // The conditional breakpoint stops in the third pass of the DO loop.
    assert_eq!(
        nu.json("abap bp enable 4 | select id status enabled condition | to json -r"),
        json!([{"id": 4, "status": "verified", "enabled": true, "condition": "sy-index = 3"}])
    );
    assert_eq!(
        nu.json("abap run ZCL_NU_ORDERS | select event reason thread line | to json -r"),
        json!({"event": "stopped", "reason": "breakpoint", "thread": 2, "line": 55})
    );
    assert_eq!(nu.ok("abap get ls_item-id"), "3");

    // A wrong id: the code, and the label on the id.
    let script = "abap bp delete 99";
    let err = nu.fails(script);
    assert!(err.contains("breakpoint.not_found"), "{err}");
    assert!(err.contains(&label_columns(script, "99")), "{err}");
    assert_eq!(
        nu.json("abap bp list | get id | to json -r"),
        json!([1, 2, 4])
    );

    // One unknown id among several: the label on that id, and nothing deleted.
    let script = "abap bp delete 1 99 2";
    let err = nu.fails(script);
    assert!(err.contains("breakpoint.not_found"), "{err}");
    assert!(err.contains(&label_columns(script, "99")), "{err}");
    assert_eq!(
        nu.json("abap bp list | get id | to json -r"),
        json!([1, 2, 4])
    );
    assert_eq!(nu.json("abap bp delete 1 2 | to json -r"), json!([1, 2]));
    assert_eq!(
        nu.json("abap bp list | select id status | to json -r"),
        json!([{"id": 4, "status": "verified"}])
    );

    // Shutdown while the program is stopped: it is continued, everything is released.
    assert_eq!(
        nu.shutdown(),
        json!({"breakpoints_deleted": 1, "listener_stopped": true, "errors": [],
               "debuggees": [{"thread": 2, "program": "ZCL_NU_ORDERS=================CP",
                              "how": "continued"}]})
    );
    assert_sim_clean(&sim);
}

/// One session, several `nu` processes: the breakpoint set in one, a `wait` in another, the
/// run in a third (it answers at the stop; the run request stays open in the daemon), the
/// variables in a fourth, `continue` in a fifth, which gets the run's output.
#[test]
fn one_session_is_shared_by_separate_nu_processes() {
    let fixtures = abap_fixtures();
    let sim = Simulator::start_with(&["--programs", &fixtures]);
    let nu = Nu::on(&sim, "shared");

    assert_eq!(
        nu.ok("abap bp set zcl_nu_orders:67 | get status"),
        "verified"
    );
    let waiting = nu.spawn("abap wait --timeout 60sec | reject reason source | to json -r");

    // The record's fields in order (serde_json's map would sort them).
    let answer =
        nu.json("abap run ZCL_NU_ORDERS | {fields: ($in | columns), stop: $in} | to json -r");
    assert_eq!(
        answer["fields"],
        json!([
            "event", "reason", "thread", "epoch", "object", "method", "include", "line", "source"
        ]),
        "{answer}"
    );
    let stop = &answer["stop"];
    assert_eq!(
        *stop,
        json!({"event": "stopped", "reason": "breakpoint", "thread": 1, "epoch": 1,
        "object": "ZCL_NU_ORDERS", "method": "IF_OO_ADT_CLASSRUN~MAIN",
        "include": "ZCL_NU_ORDERS=================CM001", "line": 67,
        // Eleven lines: five on each side of the current one.
        "source": [
            {"line": 62, "text": "      APPEND ls_item TO lt_items.", "current": false},
            {"line": 63, "text": "    ENDDO.", "current": false},
            {"line": 64, "text": "    ls_order-number = 42.", "current": false},
            {"line": 65, "text": "    ls_order-placed = lv_day.", "current": false},
            {"line": 66, "text": "    ls_order-words = VALUE #( ( `alpha` ) ( `beta` ) ).",
             "current": false},
            {"line": 67, "text": "    lv_count = lines( lt_items ).", "current": true},
            {"line": 68, "text": "    out->write( |{ lv_count } items for { lv_name }| ).",
             "current": false},
            {"line": 69, "text": "    lv_count = lv_count + 1.", "current": false},
            {"line": 70, "text": "    out->write( |done { lv_count }| ).", "current": false},
            {"line": 71, "text": "  ENDMETHOD.", "current": false},
            {"line": 72, "text": "", "current": false},
        ]})
    );

    // The wait in the other process saw the same stop.
    let lines = waiting.finish();
    let waited: Value = serde_json::from_str(lines.last().map(String::as_str).unwrap_or(""))
        .unwrap_or_else(|e| panic!("wait printed {lines:?}: {e}"));
    assert_eq!(
        waited,
        json!({"event": "stopped", "thread": 1, "epoch": 1, "object": "ZCL_NU_ORDERS",
               "method": "IF_OO_ADT_CLASSRUN~MAIN",
               "include": "ZCL_NU_ORDERS=================CM001", "line": 67})
    );

    assert_eq!(
        nu.json(
            "abap vars | where name in [LV_COUNT LV_NAME LT_ITEMS] | select name value rows \
             | to json -r"
        ),
        json!([
            {"name": "LT_ITEMS", "value": "[300x10(104)]Standard Table", "rows": 300},
            {"name": "LV_COUNT", "value": 0, "rows": 0},
            {"name": "LV_NAME", "value": "ACME", "rows": 0},
        ])
    );
    assert_eq!(
        nu.json("abap status | select state current_thread last_end | to json -r"),
        json!({"state": "stopped", "current_thread": 1, "last_end": null})
    );

    assert_eq!(
        nu.json("abap continue | to json -r"),
        json!({"event": "ended", "reason": "finished", "output": ORDERS_OUTPUT})
    );
    // The run's request, left open by the process that started it, was answered in the daemon.
    assert_eq!(
        nu.json("abap status | get last_end.run | to json -r"),
        json!({"cmd": "run", "class": "ZCL_NU_ORDERS", "ok": true})
    );
    assert_eq!(
        nu.json("abap wait --until ended --timeout 10sec | to json -r"),
        json!({"event": "ended", "reason": "finished", "output": ORDERS_OUTPUT})
    );

    assert_eq!(
        nu.shutdown(),
        json!({"breakpoints_deleted": 1, "listener_stopped": true, "errors": [],
               "debuggees": []})
    );
    assert_sim_clean(&sim);
}

/// Moving and looking, each command its own `nu` process on the embedded simulator: stack,
/// wait at a stop, vars --scope, frame (kept for the next process), source, step out / over
/// (the default) / into, run-to, watch set/list/delete with a watchpoint stop, threads,
/// thread, continue to the end with the output, wait --until ended, wait --timeout,
/// terminate and detach.
#[test]
fn stepping_and_looking_around_the_demo() {
    let nu = Nu::embedded("demo");
    assert_eq!(
        nu.ok("abap bp set ZCL_ABAPDBG_DEMO:48 | get status"),
        "verified"
    );
    assert_eq!(
        nu.json("abap run ZCL_ABAPDBG_DEMO | reject source | to json -r"),
        json!({"event": "stopped", "reason": "breakpoint", "thread": 1, "epoch": 1,
               "object": "ZCL_ABAPDBG_DEMO", "method": "LINE_TOTAL",
               "include": "ZCL_ABAPDBG_DEMO==============CM002", "line": 48})
    );
    assert_eq!(
        nu.json("abap stack | to json -r"),
        json!([
            {"index": 0, "object": "ZCL_ABAPDBG_DEMO", "method": "LINE_TOTAL",
             "include": "ZCL_ABAPDBG_DEMO==============CM002", "line": 48, "current": true},
            {"index": 1, "object": "ZCL_ABAPDBG_DEMO", "method": "IF_OO_ADT_CLASSRUN~MAIN",
             "include": "ZCL_ABAPDBG_DEMO==============CM001", "line": 36, "current": false},
        ])
    );
    // Already stopped: answers at once (its reason is not checked: see the engine's stop).
    assert_eq!(
        nu.json("abap wait --timeout 10sec | select event thread epoch method line | to json -r"),
        json!({"event": "stopped", "thread": 1, "epoch": 1, "method": "LINE_TOTAL", "line": 48})
    );
    assert_eq!(
        nu.json("abap vars --scope parameters | select name value | to json -r"),
        json!([{"name": "IV_QUANTITY", "value": 1}, {"name": "IV_PRICE", "value": 10},
               {"name": "RV_TOTAL", "value": 0}])
    );

    assert_eq!(
        nu.json("abap frame 1 | update source {|f| $f.source | where current } | to json -r"),
        json!({"index": 1, "object": "ZCL_ABAPDBG_DEMO", "method": "IF_OO_ADT_CLASSRUN~MAIN",
               "include": "ZCL_ABAPDBG_DEMO==============CM001", "line": 36,
               "source": [{"line": 36, "current": true,
                  "text": "      lv_total = lv_total + line_total( iv_quantity = lv_count iv_price = 10 )."}]})
    );
    // The selected frame holds for the next process.
    assert_eq!(
        nu.json("abap vars | where scope == Locals | select name value | to json -r"),
        json!([{"name": "LV_COUNT", "value": 1}, {"name": "LV_TOTAL", "value": 0},
               {"name": "LV_NAME", "value": "Order"}, {"name": "LV_CODE", "value": "A001"},
               {"name": "LV_RATE", "value": 12.5}])
    );
    assert_eq!(
        nu.json("abap source --context 1 | get line | to json -r"),
        json!([35, 36, 37])
    );

    let pos = "select event reason method line | to json -r";
    assert_eq!(
        nu.json(&format!("abap step out | {pos}")),
        json!({"event": "stopped", "reason": "step", "method": "IF_OO_ADT_CLASSRUN~MAIN",
               "line": 35})
    );
    assert_eq!(
        nu.json(&format!("abap step | {pos}")),
        json!({"event": "stopped", "reason": "step", "method": "IF_OO_ADT_CLASSRUN~MAIN",
               "line": 36})
    );
    assert_eq!(
        nu.json("abap step into | select event method line | to json -r"),
        json!({"event": "stopped", "method": "LINE_TOTAL", "line": 48})
    );
    assert_eq!(
        nu.json("abap bp disable 1 | get status | to json -r"),
        json!(["disabled"])
    );
    assert_eq!(
        nu.json(&format!("abap run-to 43 | {pos}")),
        json!({"event": "stopped", "reason": "step", "method": "IF_OO_ADT_CLASSRUN~MAIN",
               "line": 43})
    );
    assert_eq!(
        nu.json("abap vars | where name in [LV_COUNT LV_TOTAL] | get value | to json -r"),
        json!([3, 60])
    );

    let watch = json!([{"id": "1", "variable": "LV_RATE", "condition": null, "active": true,
                        "expired": false, "procedure": "IF_OO_ADT_CLASSRUN~MAIN",
                        "old_value": "12.50 ", "value": "12.50 "}]);
    assert_eq!(nu.json("abap watch set lv_rate | to json -r"), watch);
    assert_eq!(nu.json("abap watch list | to json -r"), watch);
    let thread = json!({"thread": 1, "current": true, "program": "ZCL_ABAPDBG_DEMO==============CP",
                        "user": "DEVELOPER", "running": false, "object": "ZCL_ABAPDBG_DEMO",
                        "method": "IF_OO_ADT_CLASSRUN~MAIN", "line": 43});
    assert_eq!(
        nu.json("abap threads | to json -r"),
        json!([thread.clone()])
    );
    assert_eq!(nu.json("abap thread 1 | to json -r"), thread);
    // Line 43 doubles the rate: the watchpoint stops after it.
    assert_eq!(
        nu.json(&format!("abap continue | {pos}")),
        json!({"event": "stopped", "reason": "watchpoint", "method": "IF_OO_ADT_CLASSRUN~MAIN",
               "line": 44})
    );
    assert_eq!(nu.json("abap get LV_RATE | to json -r"), json!(25.0));
    assert_eq!(nu.json("abap watch delete 1 | to json -r"), json!([]));

    let ended = json!({"event": "ended", "reason": "finished", "output": DEMO_OUTPUT});
    assert_eq!(nu.json("abap continue | to json -r"), ended);
    assert_eq!(nu.json("abap wait --until ended | to json -r"), ended);
    assert_eq!(
        nu.json("abap wait --timeout 100ms | to json -r"),
        json!({"event": "timeout", "state": "ended"})
    );

    // terminate: the run that started the program fails.
    assert_eq!(nu.ok("abap bp set ZCL_ABAPDBG_DEMO:43 | get id"), "2");
    assert_eq!(nu.ok("abap run ZCL_ABAPDBG_DEMO | get line"), "43");
    assert_eq!(
        nu.json("abap terminate | to json -r"),
        json!({"event": "ended", "reason": "terminated", "output": null})
    );
    assert_eq!(
        nu.json("abap status | get last_end.run | select ok error.code | to json -r"),
        json!({"ok": false, "error.code": "run.failed"})
    );
    // detach: our breakpoints come off the system, the program runs to its end.
    assert_eq!(nu.ok("abap run ZCL_ABAPDBG_DEMO | get line"), "43");
    assert_eq!(
        nu.json("abap detach | to json -r"),
        json!({"event": "ended", "reason": "detached", "output": DEMO_OUTPUT,
               "breakpoints_disabled": [2]})
    );
    assert_eq!(
        nu.json("abap bp list | get status | to json -r"),
        json!(["disabled", "disabled"])
    );
    assert_eq!(
        nu.shutdown(),
        json!({"breakpoints_deleted": 0, "listener_stopped": true, "errors": [],
               "debuggees": []})
    );
}

/// Typed variables, a structure with a nested table, the 300 rows through `where`,
/// `sort-by`, `uniq` and `math sum` with exact values, an error's code and span, and the write
/// actions refused (embedded simulator, ZCL_ABAPDBG_ORDERS = ZCL_NU_ORDERS).
#[test]
fn typed_values_and_the_table_of_300_rows() {
    let nu = Nu::embedded("table");
    assert_eq!(
        nu.ok("abap bp set ZCL_ABAPDBG_ORDERS:67 | get status"),
        "verified"
    );
    assert_eq!(nu.ok("abap run ZCL_ABAPDBG_ORDERS | get line"), "67");

    assert_eq!(
        nu.ok("abap vars | where name =~ '^LV_' | select name value | transpose -r -d | to nuon"),
        "{LV_COUNT: 0, LV_DAY: 2026-11-24T00:00:00+00:00, LV_NONE: null, \
         LV_TIME: \"13:45:01\", LV_NAME: ACME, LV_TEXT: \"Pens and pads\", \
         LV_HEX: 0x[CAFE01], LV_RATE: -12.5}"
    );
    assert_eq!(
        nu.json("abap vars | where name =~ '^LV_' | each {|v| $v.value | describe } | to json -r"),
        json!([
            "int", "datetime", "nothing", "string", "string", "string", "binary", "float"
        ])
    );
    assert_eq!(
        nu.json("abap vars | where meta == table | select name type rows | to json -r"),
        json!([{"name": "LT_ITEMS", "type": "Standard Table", "rows": 300}])
    );
    // Names in any case.
    assert_eq!(
        nu.json("[(abap get lv_name) (abap get LV_NAME) (abap get Lv_Name)] | to json -r"),
        json!(["ACME", "ACME", "ACME"])
    );
    assert_eq!(
        nu.json("[(abap vars ls_order | get name) (abap vars LS_ORDER | get name)] | to json -r"),
        json!([["NUMBER", "PLACED", "WORDS"], ["NUMBER", "PLACED", "WORDS"]])
    );
    assert_eq!(
        nu.json("abap get ls_order | to json -r"),
        json!({"number": "0042", "placed": "2026-11-24T00:00:00+00:00",
               "words": [{"table_line": "alpha"}, {"table_line": "beta"}]})
    );
    assert_eq!(
        nu.ok("abap get ls_order | describe"),
        "record<number: string, placed: datetime, words: table<table_line: string>>"
    );
    assert_eq!(
        nu.json("abap get lt_items[3]-amount | to json -r"),
        json!(3.75)
    );
    assert_eq!(
        nu.json("abap table ls_order-words | to json -r"),
        json!([{"table_line": "alpha"}, {"table_line": "beta"}])
    );

    // Pages: columns lower case and typed, --offset/--limit, 100 rows by default.
    assert_eq!(
        nu.json("abap table lt_items --limit 1 | first | transpose k v | each {|c| [$c.k ($c.v | describe)] } | to json -r"),
        json!([["id", "int"], ["amount", "float"], ["customer", "string"], ["due", "datetime"],
               ["at", "string"], ["code", "string"], ["note", "string"], ["flags", "binary"],
               ["big", "int"], ["ratio", "float"]])
    );
    assert_eq!(
        nu.json("abap table lt_items --offset 10 --limit 2 | to json -r"),
        json!([item(11), item(12)])
    );
    assert_eq!(nu.ok("abap table LT_ITEMS | length"), "100");
    // Straight from the stream into nu's commands.
    let over_100 = (1..=300).filter(|i| *i as f64 * 1.25 > 100.0).count();
    assert_eq!(over_100, 220);
    assert_eq!(
        nu.ok("abap table lt_items --all | where amount > 100 | length"),
        over_100.to_string()
    );
    let sum: f64 = (1..=300).map(|i| i as f64 * 1.25).sum();
    assert_eq!(sum, 56437.5);
    assert_eq!(
        nu.ok("abap table lt_items --all | get amount | math sum"),
        "56437.5"
    );
    assert_eq!(
        nu.json("abap table lt_items --all | first 3 | get id | to json -r"),
        json!([1, 2, 3])
    );

    // Every row exactly, and more of nu on them (read once: a whole read takes a while).
    let got = nu.json(
        "let items = (abap table lt_items --all)
         {
             rows: $items,
             big: ($items | get big | math sum),
             ratio: ($items | get ratio | math sum),
             after_new_year: ($items | where due > 2027-01-01 | length),
             january: ($items | where due >= 2027-01-01 and due < 2027-02-01 | get id),
             top: ($items | sort-by amount --reverse | first 3 | get id),
             last_c0: ($items | where customer == C0 | sort-by due --reverse | first 2
                       | select id customer),
             customers: ($items | get customer | uniq --count | sort-by value),
         } | to json -r",
    );
    assert_eq!(got["rows"], Value::Array((1..=300).map(item).collect()));
    assert_eq!(
        got["big"],
        json!((1..=300i64).map(|i| i * 10_000_000_000).sum::<i64>())
    );
    assert_eq!(got["ratio"], json!(11287.5));
    let after_new_year = (1..=300)
        .filter(|i| due(*i).as_str() > "2027-01-01")
        .count();
    assert_eq!(got["after_new_year"], json!(after_new_year));
    let january: Vec<i64> = (1..=300)
        .filter(|i| due(*i).starts_with("2027-01-"))
        .collect();
    assert_eq!(got["january"], json!(january));
    assert_eq!(got["top"], json!([300, 299, 298]));
    assert_eq!(
        got["last_c0"],
        json!([{"id": 294, "customer": "C0"}, {"id": 287, "customer": "C0"}])
    );
    let per_customer: Vec<Value> = (0..7)
        .map(|c| {
            let n = (1..=300).filter(|i| i % 7 == c).count();
            json!({"value": format!("C{c}"), "count": n})
        })
        .collect();
    assert_eq!(got["customers"], Value::Array(per_customer));

    // An error: exit 1, the protocol's code, the label on the argument.
    for script in ["abap get lt_x", "let n = 1; abap get   lt_x | describe"] {
        let err = nu.fails(script);
        assert!(err.contains("variable.not_found"), "{err}");
        assert!(err.contains(&label_columns(script, "lt_x")), "{err}");
    }
    // Write actions are refused without --allow-writes, and change nothing.
    let err = nu.fails("abap set lv_count 5");
    assert!(err.contains("permission.write_not_allowed"), "{err}");
    let err = nu.fails("abap jump-to 69");
    assert!(err.contains("permission.write_not_allowed"), "{err}");
    assert_eq!(
        nu.json("[(abap get lv_count) (abap stack | get 0.line)] | to json -r"),
        json!([0, 67])
    );

    assert_eq!(
        nu.shutdown(),
        json!({"breakpoints_deleted": 1, "listener_stopped": true, "errors": [],
               "debuggees": [{"thread": 1, "program": "ZCL_ABAPDBG_ORDERS============CP",
                              "how": "continued"}]})
    );
}

/// `abap table --all` streams page by page: `first 3` reads the first page only (seen in the
/// simulator's request log), the whole table three pages of 500.
#[test]
fn a_table_stream_stops_reading_when_the_pipeline_stops() {
    let src = Scratch(test_dir("big-src"));
    let source = "\
CLASS zcl_nu_big DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.

CLASS zcl_nu_big IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    DATA lt_big TYPE STANDARD TABLE OF i WITH EMPTY KEY.
    DO 1200 TIMES.
      APPEND sy-index TO lt_big.
    ENDDO.
    out->write( |{ lines( lt_big ) } rows| ).
  ENDMETHOD.
ENDCLASS.
";
    std::fs::write(src.0.join("zcl_nu_big.clas.abap"), source).expect("write the class");
    let line = source
        .lines()
        .position(|l| l.contains("out->write"))
        .expect("the write line")
        + 1;
    let sim = Simulator::start_with(&["--programs", &src.0.display().to_string()]);
    let nu = Nu::on(&sim, "big");
    assert_eq!(
        nu.ok(&format!("abap bp set ZCL_NU_BIG:{line} | get status")),
        "verified"
    );
    assert_eq!(nu.ok("abap run ZCL_NU_BIG | get line"), line.to_string());

    // Reads of table rows (ADT getChildVariables) while `script` runs.
    let row_reads = |script: &str| -> (String, usize) {
        let (status, _) = http_raw(&sim.url, "DELETE", "/sim/requests");
        assert!(status.contains("204"), "{status}");
        let out = nu.ok(script);
        let log: Value =
            serde_json::from_str(&http_get(&sim.url, "/sim/requests")).expect("request log");
        let reads = log
            .as_array()
            .map(|l| {
                l.iter()
                    .filter(|r| r["query"] == "method=getChildVariables")
                    .count()
            })
            .unwrap_or(0);
        (out, reads)
    };
    let (first, reads) = row_reads("abap table lt_big --all | first 3 | to json -r");
    assert_eq!(
        serde_json::from_str::<Value>(&first).expect("JSON"),
        json!([{"table_line": 1}, {"table_line": 2}, {"table_line": 3}])
    );
    assert_eq!(reads, 1, "first 3 reads one page");
    let (all, reads) = row_reads("abap table lt_big --all | get table_line | math sum");
    assert_eq!(all, (1..=1200).sum::<i64>().to_string());
    // Pages of 500: the first came with the read above (the same stop's reads are kept), so
    // the other two are asked for.
    assert_eq!(
        reads, 2,
        "1200 rows are three pages of 500, the first one known"
    );
    assert_eq!(
        nu.json("abap table lt_big --all --offset 1190 | get table_line | to json -r"),
        json!((1191..=1200).collect::<Vec<i64>>())
    );

    assert_eq!(
        nu.json("abap continue | to json -r"),
        json!({"event": "ended", "reason": "finished", "output": "1200 rows"})
    );
    assert_eq!(
        nu.json("abap shutdown | get breakpoints_deleted | to json -r"),
        json!(1)
    );
    assert!(nu.daemon_gone(), "the daemon ended");
    assert_sim_clean(&sim);
}

/// `abap events` in one `nu` process streams what other processes cause: once it shows a
/// listener event of another process it is live; then a run elsewhere shows up as `stopped`,
/// and `first` ends the stream.
#[test]
fn an_event_stream_sees_what_other_processes_do() {
    let fixtures = abap_fixtures();
    let sim = Simulator::start_with(&["--programs", &fixtures]);
    let nu = Nu::on(&sim, "events");
    // Starts the daemon before two processes could race to start it.
    assert_eq!(
        nu.ok("abap bp set ZCL_NU_ORDERS:67 | get status"),
        "verified"
    );
    let stream = nu.spawn(
        "abap events | each {|e| print $e.event; $e } | where event == stopped | first \
         | get body.frame.line | to json -r",
    );
    let mut live = false;
    for _ in 0..100 {
        nu.ok("abap listen | ignore; abap unlisten | ignore");
        while let Some(l) = stream.line(Duration::from_millis(200)) {
            if l == "listener.armed" {
                live = true;
            }
        }
        if live {
            break;
        }
    }
    assert!(live, "abap events never showed listener.armed");

    assert_eq!(nu.ok("abap run ZCL_NU_ORDERS | get line"), "67");
    let rest = stream.finish();
    // The stream's plugin process ends with its nu, though no further event comes to tell it.
    let deadline = Instant::now() + NU_LIMIT;
    while !nu.plugin_processes().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        nu.plugin_processes(),
        Vec::<u32>::new(),
        "a plugin outlived its nu"
    );
    assert_eq!(
        rest.iter().rev().take(2).rev().cloned().collect::<Vec<_>>(),
        ["stopped", "67"],
        "{rest:?}"
    );
    assert_eq!(
        nu.json("abap continue | get output | to json -r"),
        json!(ORDERS_OUTPUT)
    );
    assert_eq!(nu.json("abap bp delete --all | to json -r"), json!([1]));
    assert_eq!(
        nu.shutdown(),
        json!({"breakpoints_deleted": 0, "listener_stopped": true, "errors": [],
               "debuggees": []})
    );
    assert_sim_clean(&sim);
}

/// Plugin GC stops the plugin process whenever it is idle; the session (breakpoints, a stop)
/// lives in the daemon, so nothing is lost.
/// `abap shutdown` when no session runs answers that nothing was held and starts nothing.
#[test]
fn shutdown_without_a_session_starts_none() {
    let nu = Nu::embedded("noshutdown");
    assert_eq!(
        nu.json("abap shutdown | to json -r"),
        json!({"listener_stopped": false, "breakpoints_deleted": 0, "debuggees": [],
               "errors": []})
    );
    assert!(!nu.socket_exists(), "a session was started");
}

#[test]
fn plugin_gc_loses_nothing() {
    let nu = Nu::embedded("gc");
    let script = r#"
        $env.config.plugin_gc = {default: {enabled: true, stop_after: 0sec}}
        def plugin-status [] { plugin list | where name == abap | get 0.status }
        def wait-gc [] {
            mut n = 0
            while $n < 400 and (plugin-status) == running { sleep 25ms; $n += 1 }
            plugin-status
        }
        let set = (abap bp set ZCL_ABAPDBG_ORDERS:67 | get status)
        sleep 500ms
        let gc1 = (wait-gc)
        let count = (abap bp list | length)
        let line = (abap run ZCL_ABAPDBG_ORDERS | get line)
        let gc2 = (wait-gc)
        let rows = (abap table lt_items --all | length)
        let gc3 = (wait-gc)
        let output = (abap continue | get output)
        {set: $set, gc: [$gc1 $gc2 $gc3], count: $count, line: $line,
         rows: $rows, output: $output} | to json -r
    "#;
    assert_eq!(
        nu.json(script),
        json!({"set": "verified", "gc": ["loaded", "loaded", "loaded"], "count": 1,
               "line": 67, "rows": 300, "output": ORDERS_OUTPUT})
    );
    assert_eq!(
        nu.shutdown(),
        json!({"breakpoints_deleted": 1, "listener_stopped": true, "errors": [],
               "debuggees": []})
    );
}

/// Ctrl-C ends `abap events` in an interactive nu: the prompt comes back, the same plugin
/// process answers the next command, and the session is still there.
#[test]
fn ctrl_c_ends_an_event_stream_and_the_session_goes_on() {
    require_tmux();
    let nu = Nu::embedded("ctrlc");
    assert_eq!(nu.ok("abap status | get state"), "idle");
    let tmux = Tmux::start(&nu);
    tmux.line("abap status | get state | $'first: ($in)'");
    tmux.wait_for("the first status", |s| {
        screen_lines(s).contains(&"first: idle") && at_prompt(s)
    });
    tmux.line("plugin list | where name == abap | get 0.pid | $'pid: ($in)'");
    let screen = tmux.wait_for("the plugin's pid", |s| {
        screen_lines(s).iter().any(|l| l.starts_with("pid: ")) && at_prompt(s)
    });
    let pid = screen_lines(&screen)
        .into_iter()
        .find(|l| l.starts_with("pid: "))
        .map(String::from)
        .expect("pid line");

    tmux.line("abap events | each {|e| print $'event: ($e.event)' }");
    let mut live = false;
    for _ in 0..100 {
        nu.ok("abap listen | ignore; abap unlisten | ignore");
        if screen_lines(&tmux.screen()).contains(&"event: listener.armed") {
            live = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(live, "the stream never showed an event:\n{}", tmux.screen());
    let before = prompts(&tmux.screen());
    tmux.key("C-c");
    tmux.wait_for("the prompt after Ctrl-C", |s| {
        at_prompt(s) && prompts(s) > before
    });

    tmux.line("abap status | get state | $'after: ($in)'");
    tmux.wait_for("the status after Ctrl-C", |s| {
        screen_lines(s).contains(&"after: idle") && at_prompt(s)
    });
    tmux.line("plugin list | where name == abap | get 0.pid | $'pid: ($in)'");
    tmux.wait_for("the same plugin process", |s| {
        screen_lines(s)
            .iter()
            .filter(|l| **l == pid.as_str())
            .count()
            == 2
            && at_prompt(s)
    });
    drop(tmux);
    // The last unlisten left no listener to stop.
    assert_eq!(
        nu.shutdown(),
        json!({"breakpoints_deleted": 0, "listener_stopped": false, "errors": [],
               "debuggees": []})
    );
}

/// Tab in an interactive nu: variable names of the stopped program, breakpoint ids with
/// their locations.
#[test]
fn tab_completes_variables_and_breakpoint_ids() {
    require_tmux();
    let nu = Nu::embedded("complete");
    assert_eq!(
        nu.json(
            "[(abap bp set ZCL_ABAPDBG_ORDERS:67) (abap bp set ZCL_ABAPDBG_ORDERS:69)] \
             | get id | to json -r"
        ),
        json!([1, 2])
    );
    assert_eq!(nu.ok("abap run ZCL_ABAPDBG_ORDERS | get line"), "67");
    let tmux = Tmux::start(&nu);

    // The plugin process and its connection exist before the first Tab (a completion gives up
    // after 300 ms rather than keep the line waiting).
    tmux.line("abap status | get state | $'state: ($in)'");
    tmux.wait_for("the status", |s| {
        screen_lines(s).contains(&"state: stopped") && at_prompt(s)
    });

    tmux.type_text("abap vars LT_");
    tmux.press_until("Tab", "LT_ITEMS completed", |s| {
        screen_lines(s).contains(&"nutest> abap vars LT_ITEMS")
    });
    tmux.key("C-c");
    tmux.wait_for("an empty prompt", at_prompt);

    tmux.type_text("abap bp delete ");
    tmux.press_until("Tab", "the breakpoint ids listed", |s| {
        let rows: Vec<Vec<&str>> = screen_lines(s)
            .iter()
            .map(|l| l.split_whitespace().collect())
            .collect();
        rows.contains(&vec!["1", "ZCL_ABAPDBG_ORDERS:67"])
            && rows.contains(&vec!["2", "ZCL_ABAPDBG_ORDERS:69"])
    });
    tmux.key("C-c");
    tmux.wait_for("an empty prompt", at_prompt);
    drop(tmux);

    // Completion only reads: the breakpoints and the stop are still there.
    assert_eq!(
        nu.json("[(abap bp list | length) (abap status | get state)] | to json -r"),
        json!([2, "stopped"])
    );
    assert_eq!(
        nu.shutdown(),
        json!({"breakpoints_deleted": 2, "listener_stopped": true, "errors": [],
               "debuggees": [{"thread": 1, "program": "ZCL_ABAPDBG_ORDERS============CP",
                              "how": "continued"}]})
    );
}

#[test]
fn expected_dates_follow_the_calendar() {
    assert_eq!(due(0), "2026-11-24");
    assert_eq!(due(1), "2026-11-25");
    assert_eq!(due(38), "2027-01-01");
    assert_eq!(due(300), "2027-09-20");
    assert_eq!(days_from_civil(1970, 1, 1), 0);
    assert_eq!(civil_from_days(days_from_civil(2028, 2, 29)), (2028, 2, 29));
}

/// Short dumps in Nushell: a class divides by zero, `abap dumps` lists it as a typed table
/// (`time` a datetime, `line` an int) that `where` filters, `abap dump <id>` is a record
/// with `stack` and `variables` as tables, and `abap dump catch` stops the next run on the
/// failing statement.
#[test]
fn short_dumps_listed_read_and_caught() {
    let dumps = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/sim/tests/fixtures/dumps")
        .display()
        .to_string();
    let sim = Simulator::start_with(&["--programs", &dumps]);
    let nu = Nu::on(&sim, "dumps");

    assert_eq!(nu.ok("abap dumps | length"), "0");
    let died = nu.fails("abap run ZCL_SMP_DUMP_ZERODIV");
    assert!(died.contains("run.failed"), "{died}");

    let listed = nu.json(
        "abap dumps --since 1day | where runtime_error == COMPUTE_INT_ZERODIVIDE \
         | first | {time: ($in.time | describe), line: ($in.line | describe), \
         exception: $in.exception, n: $in.line, id: $in.id} | to json -r",
    );
    assert_eq!(listed["time"], "datetime", "{listed}");
    assert_eq!(listed["line"], "int", "{listed}");
    assert_eq!(listed["n"], 31, "{listed}");
    assert_eq!(listed["exception"], "CX_SY_ZERODIVIDE", "{listed}");
    let id = listed["id"].as_str().expect("id").to_string();
    assert_eq!(
        nu.ok("abap dumps --error STRING_SIZE_TOO_LARGE | length"),
        "0"
    );

    let quoted = json!(id).to_string();
    let stack = nu.json(&format!(
        "abap dump {quoted} | get stack | {{methods: $in.method, line: ($in | first).line, \
         table: ($in | describe | str starts-with table)}} | to json -r"
    ));
    assert_eq!(
        stack,
        json!({"methods": ["SHARE", "IF_OO_ADT_CLASSRUN~MAIN"], "line": 31, "table": true}),
        "{stack}"
    );
    // Every frame has its abapGit file and the line in it, the outer one too (its include is
    // the method's: line 1 is the METHOD statement).
    let frames = nu.json(&format!(
        "abap dump {quoted} | get stack | select file line | to json -r"
    ));
    assert_eq!(
        frames,
        json!([{"file": "zcl_smp_dump_zerodiv.clas.abap", "line": 31},
            {"file": "zcl_smp_dump_zerodiv.clas.abap", "line": 25}]),
        "{frames}"
    );
    let parts = nu.ok(&format!(
        "abap dump {quoted} | get variables | where name == IV_PARTS | first | get value"
    ));
    assert_eq!(parts, "0");

    let caught = nu.json(&format!(
        "abap dump catch {quoted} | {{user: $in.user, kinds: ($in.breakpoints | get kind)}} \
         | to json -r"
    ));
    assert_eq!(
        caught,
        json!({"user": "DEVELOPER", "kinds": ["line", "exception"]})
    );
    let stop = nu.json("abap run ZCL_SMP_DUMP_ZERODIV | select method line | to json -r");
    assert_eq!(stop, json!({"method": "SHARE", "line": 31}));
    drop(nu);
    sim.stop();
}

/// `abap settings`: without flags a record that changes nothing (nothing while no setting was
/// made); a flag (`on`/`off` as the CLI's, or a bool) changes that one setting, which the next
/// call and `abap status` show; another word is refused before anything is sent.
#[test]
fn debugger_settings_as_a_record_and_in_status() {
    let nu = Nu::embedded("settings");
    let fresh = nu.json("abap settings | to json -r");
    assert_eq!(
        fresh,
        json!({"system_debugging": null, "create_exception_object": null,
            "background_rfc": null, "shared_object_debugging": null,
            "show_data_aging": null, "update_debugging": null, "applied_to": []}),
        "{fresh}"
    );
    assert_eq!(
        nu.json("abap status | get settings | to json -r"),
        json!(null)
    );

    let set = nu.json("abap settings --system-debugging on | to json -r");
    assert_eq!(set["system_debugging"], true, "{set}");
    assert_eq!(set["create_exception_object"], false, "{set}");
    let more = nu.json("abap settings --update-debugging true | to json -r");
    assert_eq!(
        [&more["system_debugging"], &more["update_debugging"]],
        [&json!(true), &json!(true)],
        "{more}"
    );
    let status = nu.json("abap status | get settings | to json -r");
    assert_eq!(status["system_debugging"], true, "{status}");
    assert_eq!(status["update_debugging"], true, "{status}");
    assert_eq!(status["background_rfc"], false, "{status}");
    let off = nu.json("abap settings --system-debugging off | to json -r");
    assert_eq!(off["system_debugging"], false, "{off}");
    assert_eq!(off["update_debugging"], true, "{off}");

    let refused = nu.fails("abap settings --system-debugging maybe");
    assert!(refused.contains("neither on nor off"), "{refused}");
    assert_eq!(
        nu.ok("abap settings | get system_debugging | to json -r"),
        "false"
    );
}

#[test]
fn a_listener_conflict_hints_the_nushell_command() {
    let sim = Simulator::start();
    // Another debugger of the same user listens on the system.
    sim_faults(&sim.url, &json!({"foreignListeners": ["DEVELOPER"]}));
    let nu = Nu::on(&sim, "conflict");
    let stderr = nu.fails("abap listen");
    assert!(stderr.contains("conflict.listener"), "{stderr}");
    assert!(stderr.contains("'abap listen --take-over'"), "{stderr}");
    assert!(!stderr.contains("take_over"), "{stderr}");
    assert!(!stderr.contains("abapdbg"), "{stderr}");
    // What the hint says works.
    let armed = nu.json("abap listen --take-over | to json -r");
    assert_eq!(armed["armed"], true, "{armed}");
    drop(nu);
    sim.stop();
}

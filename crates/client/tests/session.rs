//! The session client against real sessions: the daemon it starts (`abapdbg serve --daemon`,
//! the embedded simulator or a simulator process), requests, typed errors, events, Ctrl-C,
//! the completion candidates, and the password kept out of every command line.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use client::{ClientError, Incoming, Session, Target, candidates};
use serde_json::{Value, json};

const LONG: Duration = Duration::from_secs(60);

/// The abapdbg binary of this build (`ABAPDBG_BIN` overrides): target/<profile>/abapdbg.
fn abapdbg_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("ABAPDBG_BIN") {
        return PathBuf::from(bin);
    }
    let exe = std::env::current_exe().expect("test binary path");
    let bin = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target directory")
        .join("abapdbg");
    assert!(
        bin.exists(),
        "{} not found: build the workspace first (cargo build --workspace)",
        bin.display()
    );
    bin
}

/// A target in a directory of its own; `extra` adds variables (a URL, credentials).
fn target(dir: &Path, extra: &[(&str, &str)]) -> Target {
    let mut vars: Vec<(String, String)> = vec![
        ("ABAPDBG_BIN".into(), abapdbg_bin().display().to_string()),
        (
            "ABAPDBG_RUNTIME_DIR".into(),
            dir.join("run").display().to_string(),
        ),
        (
            "ABAPDBG_STATE_DIR".into(),
            dir.join("state").display().to_string(),
        ),
    ];
    vars.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    Target::from_lookup(move |k| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("abapdbg-client-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn never() -> bool {
    false
}

/// Shuts the session down when the test ends, however it ends.
struct Shutdown(Target);

impl Drop for Shutdown {
    fn drop(&mut self) {
        if let Ok(s) = Session::connect(&self.0) {
            let _ = s.request("shutdown", json!({}), LONG, &never);
        }
    }
}

/// Waits for the first event named `name` (or a routed response) on `sub`.
fn next_event(sub: &client::Subscription, name: &str) -> Value {
    let deadline = Instant::now() + LONG;
    loop {
        match sub.recv_until(Some(deadline), &never) {
            Ok(Some(Incoming::Event(ev))) if ev.event == name => return ev.body,
            Ok(Some(_)) => {}
            other => panic!("no {name} event: {other:?}"),
        }
    }
}

#[test]
fn starts_the_embedded_session_once_and_speaks_to_it() {
    let dir = temp_dir("embedded");
    let t = target(&dir, &[]);
    assert_eq!(
        t.socket_path(),
        Some(
            dir.join("run")
                .join("abapdbg")
                .join("session-embedded.sock")
        )
    );
    // Nothing runs yet: connect says so and starts nothing.
    match Session::connect(&t) {
        Err(ClientError::NoSession { .. }) => {}
        Err(other) => panic!("expected NoSession, got {other}"),
        Ok(_) => panic!("a session ran before the test started one"),
    }
    let _guard = Shutdown(t.clone());

    // Two front ends starting at the same moment end up in one session.
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| Session::connect_or_start(&t));
        let b = s.spawn(|| Session::connect_or_start(&t));
        (a.join().expect("thread"), b.join().expect("thread"))
    });
    let (a, b) = (a.expect("first start"), b.expect("second start"));
    let pid = |s: &Session| {
        s.request("hello", json!({}), LONG, &never).expect("hello")["server"]["pid"].clone()
    };
    assert_eq!(pid(&a), pid(&b));
    drop(b);

    // A failed request is a typed error with the protocol's code and hint.
    let err = a
        .request("vars", json!({}), LONG, &never)
        .expect_err("nothing is stopped");
    assert_eq!(err.code(), "state.not_stopped");
    let p = err.protocol().expect("a protocol error");
    assert_eq!(p.family(), "state");
    assert!(err.hint().is_some_and(|h| !h.is_empty()), "{err:?}");

    // Events and a routed response on one subscription: the stop comes first.
    a.request(
        "bp.set",
        json!({"location": "ZCL_ABAPDBG_ORDERS:67"}),
        LONG,
        &never,
    )
    .expect("bp.set");
    let sub = a.subscribe();
    let run = a
        .send_routed(&sub, "run", json!({"class": "ZCL_ABAPDBG_ORDERS"}))
        .expect("send run");
    let stop = next_event(&sub, "stopped");
    assert_eq!(stop["frame"]["line"], 67, "{stop}");

    // The completion candidates, from the same session.
    let ids = candidates::breakpoints(&a);
    assert_eq!(ids.len(), 1, "{ids:?}");
    assert_eq!(ids[0].value, "1");
    assert_eq!(ids[0].description.as_deref(), Some("ZCL_ABAPDBG_ORDERS:67"));
    let vars: Vec<String> = candidates::variables(&a, "lt_")
        .into_iter()
        .map(|c| c.value)
        .collect();
    assert!(vars.contains(&"LT_ITEMS".to_string()), "{vars:?}");
    assert!(
        vars.contains(&"LS_ORDER".to_string()),
        "all of the frame: {vars:?}"
    );
    let parts: Vec<String> = candidates::variables(&a, "ls_order-")
        .into_iter()
        .map(|c| c.value)
        .collect();
    assert_eq!(
        parts,
        ["LS_ORDER-NUMBER", "LS_ORDER-PLACED", "LS_ORDER-WORDS"]
    );
    let row: Vec<String> = candidates::variables(&a, "LT_ITEMS[2]-am")
        .into_iter()
        .map(|c| c.value)
        .collect();
    assert!(row.contains(&"LT_ITEMS[2]-AMOUNT".to_string()), "{row:?}");
    assert_eq!(candidates::threads(&a)[0].value, "1");
    assert_eq!(candidates::frames(&a)[0].value, "0");

    // Ctrl-C while waiting: the wait ends, the session and the program stay.
    let started = Instant::now();
    let interrupted = move || started.elapsed() > Duration::from_millis(200);
    let err = a
        .request(
            "wait",
            json!({"until": "ended", "timeout_ms": 60_000}),
            LONG,
            &interrupted,
        )
        .expect_err("interrupted");
    assert!(matches!(err, ClientError::Interrupted), "{err:?}");
    let status = a
        .request("status", json!({}), LONG, &never)
        .expect("status");
    assert_eq!(status["state"], "stopped", "{status}");

    // Continue: the run's answer arrives on the subscription it was routed to.
    a.request("bp.delete", json!({"all": true}), LONG, &never)
        .expect("bp.delete");
    let ended = a
        .request("step", json!({"type": "continue"}), LONG, &never)
        .expect("continue");
    assert_eq!(
        ended["ended"]["output"], "300 items for ACME\ndone 301",
        "{ended}"
    );
    let deadline = Instant::now() + LONG;
    let answer = loop {
        match sub.recv_until(Some(deadline), &never) {
            Ok(Some(Incoming::Response(r))) if r.id == json!(run) => break r,
            Ok(Some(_)) => {}
            other => panic!("no answer to run: {other:?}"),
        }
    };
    assert_eq!(
        answer.outcome.expect("run ok")["output"],
        "300 items for ACME\ndone 301"
    );

    // After shutdown the connection reports that it is gone.
    a.request("shutdown", json!({}), LONG, &never)
        .expect("shutdown");
    let deadline = Instant::now() + LONG;
    while a.is_open() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(matches!(
        a.request("status", json!({}), LONG, &never),
        Err(ClientError::Disconnected)
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A simulator process on loopback; killed on drop.
struct Simulator {
    child: Child,
    url: String,
}

impl Simulator {
    fn start(user: &str) -> Simulator {
        let mut child = Command::new(abapdbg_bin())
            .args(["sim", "--user", user])
            .stdout(Stdio::piped())
            .spawn()
            .expect("start abapdbg sim");
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
            &mut line,
        )
        .expect("the simulator's URL");
        Simulator {
            child,
            url: line.trim().to_string(),
        }
    }
}

impl Drop for Simulator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every process's command line but `except`'s, for the password check.
fn all_command_lines(except: u32) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if entry.file_name().to_str() == Some(&except.to_string()) {
            continue;
        }
        if let Ok(raw) = std::fs::read(entry.path().join("cmdline")) {
            out.push(String::from_utf8_lossy(&raw).replace('\0', " "));
        }
    }
    out
}

#[test]
fn a_system_session_gets_the_password_without_a_command_line() {
    const SECRET: &str = "pw-7f3a9c-never-in-argv";
    let sim = Simulator::start(&format!("TESTER:{SECRET}"));
    let dir = temp_dir("system");
    let creds = [
        ("ABAPDBG_URL", sim.url.as_str()),
        ("ABAPDBG_USER", "tester"),
        ("ABAPDBG_PASSWORD", SECRET),
        ("ABAPDBG_CLIENT", "001"),
    ];
    let t = target(&dir, &creds);
    let _guard = Shutdown(t.clone());
    let s = Session::connect_or_start(&t).expect("start");
    // The logon works, so the daemon has the password …
    let hello = s.request("hello", json!({}), LONG, &never).expect("hello");
    assert_eq!(hello["system"]["logon"]["ok"], true, "{hello}");
    assert_eq!(hello["system"]["user"], "TESTER");
    // … and no process shows it on its command line.
    // (The simulator's own `--user NAME:PASSWORD` is the test's, not ours.)
    let leaks: Vec<String> = all_command_lines(sim.child.id())
        .into_iter()
        .filter(|c| c.contains(SECRET))
        .collect();
    assert!(leaks.is_empty(), "{leaks:?}");
    assert!(!format!("{t:?}").contains(SECRET));

    // A wrong password: the daemon starts, the logon fails with a typed auth error.
    let dir2 = temp_dir("wrong");
    let wrong = target(
        &dir2,
        &[("ABAPDBG_PASSWORD", "nope"), creds[0], creds[1], creds[3]],
    );
    let _guard2 = Shutdown(wrong.clone());
    let s2 = Session::connect_or_start(&wrong).expect("the daemon starts");
    let err = s2
        .request("hello", json!({}), LONG, &never)
        .map(|h| h["system"]["logon"].clone());
    match err {
        Ok(logon) => assert_eq!(logon["ok"], false, "{logon}"),
        Err(e) => assert!(e.code().starts_with("auth."), "{e:?}"),
    }
    // End both sessions before their sockets go with their directories.
    drop(_guard);
    drop(_guard2);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir2);
}

#[test]
fn a_daemon_that_cannot_start_is_a_start_error_with_its_reason() {
    let dir = temp_dir("nobin");
    let t = Target::from_lookup(|k| match k {
        "ABAPDBG_BIN" => Some("/nonexistent/abapdbg".into()),
        "ABAPDBG_RUNTIME_DIR" => Some(dir.join("run").display().to_string()),
        _ => None,
    });
    match Session::connect_or_start(&t) {
        Err(e @ ClientError::Start(_)) => {
            assert_eq!(e.code(), "session.start_failed");
            assert!(e.to_string().contains("/nonexistent/abapdbg"), "{e}");
        }
        Err(other) => panic!("expected a start error, got {other}"),
        Ok(_) => panic!("started without a binary"),
    }
    // A URL without a user: the daemon refuses and says why.
    let t = target(&dir, &[("ABAPDBG_URL", "http://127.0.0.1:9")]);
    match Session::connect_or_start(&t) {
        Err(ClientError::Start(reason)) => assert!(reason.contains("ABAPDBG_USER"), "{reason}"),
        Err(other) => panic!("expected a start error, got {other}"),
        Ok(_) => panic!("started without a user"),
    }
}

/// A caller's environment of fixed pairs, for [`Target::resolve`].
fn environment(pairs: Vec<(String, String)>) -> impl Fn(&str) -> Option<String> {
    move |k| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
}

/// The variables of [`target`] plus `extra`, as pairs.
fn pairs(dir: &Path, extra: &[(&str, String)]) -> Vec<(String, String)> {
    let mut vars: Vec<(String, String)> = vec![
        ("ABAPDBG_BIN".into(), abapdbg_bin().display().to_string()),
        (
            "ABAPDBG_RUNTIME_DIR".into(),
            dir.join("run").display().to_string(),
        ),
        (
            "ABAPDBG_STATE_DIR".into(),
            dir.join("state").display().to_string(),
        ),
    ];
    vars.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
    vars
}

/// A config file with profile `dev` for `sim`, whose password command appends a line to
/// `runs` each time it runs.
fn profile_config(dir: &Path, sim: &Simulator, secret: &str) -> (PathBuf, PathBuf) {
    std::fs::create_dir_all(dir).expect("test dir");
    let runs = dir.join("runs");
    let config = dir.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[profiles.dev]\nurl = \"{}\"\nclient = \"001\"\nuser = \"tester\"\n\
             password_command = \"echo run >> '{}'; printf {secret}\"\n",
            sim.url,
            runs.display()
        ),
    )
    .expect("write the config file");
    (config, runs)
}

fn runs_of(runs: &Path) -> usize {
    std::fs::read_to_string(runs)
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

/// Every regular file under `dir` that contains `needle`.
fn files_containing(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => todo.push(path),
                Ok(t) if t.is_file() => {
                    let bytes = std::fs::read(&path).unwrap_or_default();
                    if String::from_utf8_lossy(&bytes).contains(needle) {
                        found.push(path);
                    }
                }
                _ => {}
            }
        }
    }
    found
}

#[test]
fn a_profile_with_a_password_command_starts_the_session_once() {
    const SECRET: &str = "pw-profile-5e1d0b-never-shown";
    let sim = Simulator::start(&format!("TESTER:{SECRET}"));
    let dir = temp_dir("profile");
    let (config, runs) = profile_config(&dir, &sim, SECRET);
    let config = config.display().to_string();
    // Trace logs too: the password must not reach them either.
    let vars = pairs(
        &dir,
        &[
            ("ABAPDBG_CONFIG", config.clone()),
            ("ABAPDBG_LOG", "trace".into()),
        ],
    );
    let t = Target::resolve(environment(vars.clone()), Some("dev")).expect("the profile");
    assert_eq!(t.profile(), Some("dev"));
    assert_eq!(runs_of(&runs), 0, "resolving ran the password command");
    let _guard = Shutdown(t.clone());

    // The session starts and logs on with what the command printed.
    let s = Session::connect_or_start(&t).expect("start");
    let hello = s.request("hello", json!({}), LONG, &never).expect("hello");
    assert_eq!(hello["system"]["logon"]["ok"], true, "{hello}");
    assert_eq!(hello["system"]["user"], "TESTER");
    assert_eq!(runs_of(&runs), 1);

    // The password is on no command line (but the test's own simulator's) and in no file of
    // the state directory (state file, the daemon's trace log).
    let leaks: Vec<String> = all_command_lines(sim.child.id())
        .into_iter()
        .filter(|c| c.contains(SECRET))
        .collect();
    assert!(leaks.is_empty(), "{leaks:?}");
    let in_files = files_containing(&dir.join("state"), SECRET);
    assert!(in_files.is_empty(), "{in_files:?}");
    assert!(!format!("{t:?} {:?}", t.settings()).contains(SECRET));

    // A second front end naming the profile the plugin's way (ABAPDBG_PROFILE through
    // from_lookup) reaches the same session without running the command again …
    let mut second = vars.clone();
    second.push(("ABAPDBG_PROFILE".into(), "dev".into()));
    let t2 = Target::from_lookup(environment(second));
    assert_eq!(t2.problem(), None);
    let s2 = Session::connect_or_start(&t2).expect("connect");
    let pid = |s: &Session| {
        s.request("hello", json!({}), LONG, &never).expect("hello")["server"]["pid"].clone()
    };
    assert_eq!(pid(&s), pid(&s2));
    assert_eq!(runs_of(&runs), 1, "the password command ran again");
    // … and so does one that names the same system by variables, without any password.
    let t3 = target(
        &dir,
        &[
            ("ABAPDBG_URL", sim.url.as_str()),
            ("ABAPDBG_USER", "TESTER"),
            ("ABAPDBG_CLIENT", "001"),
        ],
    );
    assert_eq!(t3.socket_path(), t.socket_path());
    let s3 = Session::connect(&t3).expect("the same session");
    assert_eq!(pid(&s), pid(&s3));
    assert_eq!(runs_of(&runs), 1);

    // An unknown profile is a typed error, before anything is started.
    let err = Target::resolve(environment(vars), Some("prod")).expect_err("unknown");
    assert_eq!(err.code(), "config.unknown_profile");
    assert!(err.to_string().contains(&config), "{err}");
    // Shut the session down while its socket is still there.
    drop(_guard);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_started_directly_runs_the_password_command_itself_once() {
    const SECRET: &str = "pw-serve-8c2f41-never-shown";
    let sim = Simulator::start(&format!("TESTER:{SECRET}"));
    let dir = temp_dir("serve-profile");
    let (config, runs) = profile_config(&dir, &sim, SECRET);
    let out = Command::new(abapdbg_bin())
        .args(["serve", "--daemon", "--profile", "dev"])
        .env("ABAPDBG_CONFIG", &config)
        .env("ABAPDBG_RUNTIME_DIR", dir.join("run"))
        .env("ABAPDBG_STATE_DIR", dir.join("state"))
        .env_remove("ABAPDBG_PROFILE")
        .env_remove("ABAPDBG_URL")
        .env_remove("ABAPDBG_USER")
        .env_remove("ABAPDBG_PASSWORD")
        .env_remove("ABAPDBG_CLIENT")
        .stdin(Stdio::null())
        .output()
        .expect("run serve --daemon");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The launcher ran it and handed the result to the session it started: once.
    assert_eq!(runs_of(&runs), 1);
    let t = Target::resolve(
        environment(pairs(
            &dir,
            &[("ABAPDBG_CONFIG", config.display().to_string())],
        )),
        Some("dev"),
    )
    .expect("the profile");
    let _guard = Shutdown(t.clone());
    let s = Session::connect(&t).expect("the daemon's session");
    let hello = s.request("hello", json!({}), LONG, &never).expect("hello");
    assert_eq!(hello["system"]["logon"]["ok"], true, "{hello}");
    assert_eq!(runs_of(&runs), 1);
    let leaks: Vec<String> = all_command_lines(sim.child.id())
        .into_iter()
        .filter(|c| c.contains(SECRET))
        .collect();
    assert!(leaks.is_empty(), "{leaks:?}");
    drop(_guard);
    let _ = std::fs::remove_dir_all(&dir);
}

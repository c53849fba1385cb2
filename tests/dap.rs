//! `abapdbg dap` driven by a third-party DAP client: DebugClient of
//! `@vscode/debugadapter-testsupport` (pinned in tests/dap/package.json; `npm ci --prefix
//! tests/dap` installs it) runs tests/dap/dap.test.mjs under `node --test` against a simulator
//! process: a launch with breakpoints from abapGit files, a stop, the stack, scopes, a paged
//! 300-row table, evaluate, next, setVariable changing the output, continue to the end; and an
//! attach to a program another client (the one-shot CLI) starts. Each session leaves nothing
//! on the simulator, which this test checks again at the end.
//!
//! The adapter starts its own session daemon in this test's private runtime directory; a
//! guard ends it with `abapdbg shutdown` should a failure leave it running.

use std::path::{Path, PathBuf};
use std::process::Command;

use e2e::{Simulator, abapdbg_bin, sim_faults, sim_state};

fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The test's private directories and the environment of every process it starts.
struct World {
    dir: PathBuf,
    url: String,
}

impl World {
    fn new(name: &str, url: &str) -> World {
        let dir = std::env::temp_dir().join(format!("abapdbg-dap-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["run", "state", "home"] {
            std::fs::create_dir_all(dir.join(sub)).expect("create the test directories");
        }
        World {
            dir,
            url: url.to_string(),
        }
    }

    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        let path = |sub: &str| self.dir.join(sub);
        cmd.env_clear()
            .env(
                "PATH",
                std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into()),
            )
            .env("HOME", path("home"))
            .env("ABAPDBG_RUNTIME_DIR", path("run"))
            .env("ABAPDBG_STATE_DIR", path("state"))
            .env("ABAPDBG_BIN", abapdbg_bin())
            .env("ABAPDBG_PASSWORD", "abap");
        cmd
    }

    /// Whether a session socket is left in the runtime directory (or the directory abapdbg
    /// makes in it).
    fn socket_left(&self) -> bool {
        fn any_socket(dir: &Path, depth: usize) -> bool {
            std::fs::read_dir(dir)
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
                .any(|e| {
                    e.file_name().to_string_lossy().ends_with(".sock")
                        || (depth > 0 && e.path().is_dir() && any_socket(&e.path(), depth - 1))
                })
        }
        any_socket(&self.dir.join("run"), 2)
    }

    /// The session daemons' logs, for failure messages.
    fn logs(&self) -> String {
        let mut all = String::new();
        for e in std::fs::read_dir(self.dir.join("state"))
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
        {
            if e.path().extension().is_some_and(|x| x == "log") {
                all.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
            }
        }
        all
    }
}

impl Drop for World {
    fn drop(&mut self) {
        if self.socket_left() {
            // The sessions a failed test may have left: the simulator's, and the embedded.
            let _ = self
                .command(abapdbg_bin())
                .args(["shutdown", "--json"])
                .env("ABAPDBG_URL", &self.url)
                .env("ABAPDBG_USER", "DEVELOPER")
                .env("ABAPDBG_CLIENT", "001")
                .output();
            let _ = self
                .command(abapdbg_bin())
                .args(["shutdown", "--json"])
                .output();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn a_dap_client_launches_and_attaches_against_the_simulator() {
    let dap_dir = tests_dir().join("dap");
    assert!(
        dap_dir
            .join("node_modules/@vscode/debugadapter-testsupport")
            .exists(),
        "@vscode/debugadapter-testsupport is not installed: run `npm ci --prefix tests/dap` \
         (scripts/test-all.sh does)"
    );
    let fixtures = tests_dir().join("abap");
    let demo = tests_dir().join("../crates/sim/samples/zcl_abapdbg_demo.clas.abap");
    let demo = demo.canonicalize().expect("the bundled demo class");
    let orders = tests_dir()
        .join("../crates/sim/samples/zcl_abapdbg_orders.clas.abap")
        .canonicalize()
        .expect("the bundled orders class");
    let samples = tests_dir()
        .join("../samples")
        .canonicalize()
        .expect("samples/");
    let sim = Simulator::start_with(&[
        "--programs",
        &path_text(&fixtures),
        "--programs",
        &path_text(&samples),
    ]);
    let world = World::new("client", &sim.url);
    let out = world
        .command("node")
        .args(["--test", "--test-reporter=tap", "dap.test.mjs"])
        .current_dir(&dap_dir)
        .env("DAP_SIM_URL", &sim.url)
        .env("DAP_FIXTURES", path_text(&fixtures))
        .env("DAP_DEMO_SOURCE", path_text(&demo))
        .env("DAP_ORDERS_SOURCE", path_text(&orders))
        .env("DAP_SAMPLES", path_text(&samples))
        .output()
        .expect("run node (Node.js must be installed)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the DAP client's tests failed\nstdout:\n{stdout}\nstderr:\n{stderr}\nsession logs:\n{}",
        world.logs()
    );
    // Every test ran and passed (a filter or a skip must not pass silently).
    assert!(
        stdout.contains("# pass 12") && stdout.contains("# fail 0"),
        "{stdout}"
    );

    // Nothing of ours is left on the system, and the session the adapter started has ended.
    let state = sim_state(&sim.url);
    assert_eq!(
        state["listeners"].as_array().map(Vec::len),
        Some(0),
        "{state}"
    );
    assert!(
        state["breakpoints"]["DEVELOPER"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "{state}"
    );
    assert!(
        !state["debuggees"]
            .as_array()
            .is_some_and(|d| d.iter().any(|x| x["user"] == "DEVELOPER")),
        "{state}"
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while world.socket_left() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    assert!(!world.socket_left(), "the adapter's session still runs");
    assert!(sim.stop(), "the simulator exits cleanly");
}

fn path_text(p: &Path) -> String {
    p.display().to_string()
}

/// Reads DAP messages from the adapter's stdout on a thread, so a test waits with a bound.
fn dap_reader(stdout: std::process::ChildStdout) -> std::sync::mpsc::Receiver<serde_json::Value> {
    use std::io::{BufRead, BufReader, Read};
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(stdout);
        loop {
            let mut length = None;
            loop {
                let mut line = String::new();
                match r.read_line(&mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse::<usize>().ok();
                }
            }
            let Some(n) = length else { return };
            let mut body = vec![0; n];
            if r.read_exact(&mut body).is_err() {
                return;
            }
            match serde_json::from_slice(&body) {
                Ok(v) => {
                    if tx.send(v).is_err() {
                        return;
                    }
                }
                Err(_) => return,
            }
        }
    });
    rx
}

/// Malformed input reaches the adapter process: requests it can answer get `success: false`,
/// a bad body is reported and skipped, and a stream out of step ends it cleanly (no panic, no
/// hang).
#[test]
fn malformed_input_is_answered_and_a_broken_stream_ends_the_adapter() {
    use std::io::Write;
    use std::process::Stdio;
    use std::time::Duration;

    let world = World::new("malformed", "http://127.0.0.1:9");
    let mut child = world
        .command(abapdbg_bin())
        .arg("dap")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start abapdbg dap");
    let mut stdin = child.stdin.take().expect("stdin");
    let messages = dap_reader(child.stdout.take().expect("stdout"));
    let mut send = |raw: &[u8]| stdin.write_all(raw).and_then(|()| stdin.flush());
    let frame = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
    let next = || {
        messages
            .recv_timeout(Duration::from_secs(30))
            .expect("the adapter answers")
    };

    send(frame(r#"{"seq":1,"type":"request","command":"next","arguments":3}"#).as_bytes())
        .expect("write");
    let bad_args = next();
    assert_eq!(
        (&bad_args["request_seq"], &bad_args["success"]),
        (&serde_json::json!(1), &serde_json::json!(false)),
        "{bad_args}"
    );

    send(frame("{not json").as_bytes()).expect("write");
    let reported = next();
    assert_eq!(reported["event"], "output", "{reported}");
    assert!(
        reported["body"]["output"]
            .as_str()
            .is_some_and(|o| o.contains("not UTF-8 JSON")),
        "{reported}"
    );

    send(frame(r#"{"seq":2,"type":"request","command":"initialize","arguments":{}}"#).as_bytes())
        .expect("write");
    let init = next();
    assert_eq!(init["success"], true, "{init}");
    assert_eq!(init["body"]["supportsConfigurationDoneRequest"], true);

    // Every request behind an advertised capability is handled (before `launch` it may only
    // say so); what is not advertised is refused as unsupported or impossible.
    let advertised = [
        ("supportsConfigurationDoneRequest", "configurationDone"),
        ("supportsFunctionBreakpoints", "setFunctionBreakpoints"),
        ("supportsSetVariable", "setVariable"),
        ("supportsTerminateRequest", "terminate"),
        ("supportsGotoTargetsRequest", "gotoTargets"),
        ("supportsGotoTargetsRequest", "goto"),
        ("supportsLoadedSourcesRequest", "loadedSources"),
        ("supportsEvaluateForHovers", "evaluate"),
        ("supportsDataBreakpoints", "dataBreakpointInfo"),
        ("supportsDataBreakpoints", "setDataBreakpoints"),
        ("supportsSetExpression", "setExpression"),
        ("supportsExceptionInfoRequest", "exceptionInfo"),
    ];
    for (i, (capability, command)) in advertised.iter().enumerate() {
        assert_eq!(init["body"][capability], true, "{capability}");
        let seq = 100 + i;
        send(
            frame(&format!(
                r#"{{"seq":{seq},"type":"request","command":"{command}"}}"#
            ))
            .as_bytes(),
        )
        .expect("write");
        let answer = next();
        assert_eq!(answer["request_seq"], seq, "{answer}");
        assert!(
            !answer["message"]
                .as_str()
                .is_some_and(|m| m.contains("not supported")),
            "{command}: {answer}"
        );
    }
    assert_ne!(init["body"]["supportsPauseRequest"], true);
    send(
        frame(r#"{"seq":200,"type":"request","command":"pause","arguments":{"threadId":1}}"#)
            .as_bytes(),
    )
    .expect("write");
    let pause = next();
    assert_eq!(pause["success"], false);
    assert!(
        pause["message"]
            .as_str()
            .is_some_and(|m| m.contains("cannot interrupt")),
        "{pause}"
    );

    send(frame(r#"{"seq":3,"type":"request","command":"fly"}"#).as_bytes()).expect("write");
    let unknown = next();
    assert_eq!(
        (&unknown["request_seq"], &unknown["success"]),
        (&serde_json::json!(3), &serde_json::json!(false))
    );
    send(
        frame(r#"{"seq":4,"type":"request","command":"stackTrace","arguments":{"threadId":1}}"#)
            .as_bytes(),
    )
    .expect("write");
    let early = next();
    assert_eq!(early["success"], false, "{early}");
    assert!(
        early["message"]
            .as_str()
            .is_some_and(|m| m.contains("launch")),
        "{early}"
    );

    // A header that is no header: where the next message starts is unknown, so it ends.
    send(b"this is not a header\r\n\r\n").expect("write");
    let said = next();
    assert!(
        said["body"]["output"]
            .as_str()
            .is_some_and(|o| o.contains("not 'Name: value'")),
        "{said}"
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the adapter did not end"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
    // Nothing was launched: no session was started.
    assert!(!world.socket_left());
}

/// Issue 24: an editor and a shell look at different frames of one stop without disturbing
/// each other. The adapter reads the caller's frame while the shell's selected frame stays
/// the innermost; then the shell selects the caller's frame and the adapter still reads the
/// innermost one where it names it, and the shell's selection stays.
#[test]
fn an_editor_and_a_shell_look_at_different_frames_of_one_stop() {
    use std::io::Write;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    use serde_json::{Value, json};

    let samples = tests_dir().join("../crates/sim/samples");
    let demo = samples
        .join("zcl_abapdbg_demo.clas.abap")
        .canonicalize()
        .expect("the bundled demo class");
    let sim = Simulator::start();
    let world = World::new("frames", &sim.url);
    let on_system = |cmd: &mut Command| {
        cmd.env("ABAPDBG_URL", &sim.url)
            .env("ABAPDBG_USER", "DEVELOPER")
            .env("ABAPDBG_CLIENT", "001");
    };
    let mut adapter = world.command(abapdbg_bin());
    on_system(&mut adapter);
    let mut child = adapter
        .arg("dap")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start abapdbg dap");
    let mut stdin = child.stdin.take().expect("stdin");
    let messages = dap_reader(child.stdout.take().expect("stdout"));
    let mut events: Vec<Value> = Vec::new();
    let mut seq = 0;
    let mut request = |command: &str, arguments: Value, events: &mut Vec<Value>| -> Value {
        seq += 1;
        let body =
            json!({"seq": seq, "type": "request", "command": command, "arguments": arguments})
                .to_string();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len())
            .and_then(|()| stdin.flush())
            .expect("write to the adapter");
        loop {
            let m = messages
                .recv_timeout(Duration::from_secs(60))
                .expect("the adapter answers");
            if m["type"] == "response" && m["request_seq"] == seq {
                assert_eq!(m["success"], true, "{command}: {m}");
                return m["body"].clone();
            }
            events.push(m);
        }
    };
    let wait_event = |name: &str, events: &mut Vec<Value>| -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(i) = events.iter().position(|e| e["event"] == name) {
                return events.remove(i);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            events.push(messages.recv_timeout(left).expect("the adapter's event"));
        }
    };
    let shell = |args: &[&str]| -> Value {
        let mut cmd = world.command(abapdbg_bin());
        on_system(&mut cmd);
        let out = cmd.args(args).arg("--json").output().expect("run abapdbg");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("the shell's JSON")
    };
    let names = |vars: &Value| -> Vec<String> {
        vars["variables"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v["name"].as_str().map(str::to_string))
            .collect()
    };

    request("initialize", json!({"adapterID": "abap"}), &mut events);
    request(
        "launch",
        json!({"class": "ZCL_ABAPDBG_DEMO", "sourceRoot": path_text(&samples)}),
        &mut events,
    );
    wait_event("initialized", &mut events);
    request(
        "setBreakpoints",
        json!({"source": {"path": path_text(&demo)}, "breakpoints": [{"line": 48}]}),
        &mut events,
    );
    request("configurationDone", json!({}), &mut events);
    let stop = wait_event("stopped", &mut events);
    let thread = stop["body"]["threadId"].clone();
    let frames =
        request("stackTrace", json!({"threadId": thread}), &mut events)["stackFrames"].clone();
    assert_eq!(
        frames[0]["name"], "ZCL_ABAPDBG_DEMO->LINE_TOTAL",
        "{frames}"
    );
    assert_eq!(frames[1]["line"], 36, "{frames}");
    type Request<'a> = dyn FnMut(&str, Value, &mut Vec<Value>) -> Value + 'a;
    // The variables of every scope of `frame`, as the editor lists them.
    fn locals_of(request: &mut Request<'_>, frame: &Value, events: &mut Vec<Value>) -> Vec<String> {
        let scopes = request("scopes", json!({"frameId": frame["id"]}), events);
        let mut all = Vec::new();
        for s in scopes["scopes"].as_array().into_iter().flatten() {
            let vars = request(
                "variables",
                json!({"variablesReference": s["variablesReference"]}),
                events,
            );
            all.extend(
                vars["variables"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|v| v["name"].as_str().map(str::to_string)),
            );
        }
        all
    }

    // The editor looks at the caller's frame; the shell's default is still the innermost.
    let caller = locals_of(&mut request, &frames[1], &mut events);
    assert!(caller.contains(&"LV_COUNT".to_string()), "{caller:?}");
    let shell_vars = names(&shell(&["vars"]));
    assert!(
        shell_vars.contains(&"IV_QUANTITY".to_string())
            && !shell_vars.contains(&"LV_COUNT".to_string()),
        "the editor's look at frame 1 moved the shell's frame: {shell_vars:?}"
    );

    // The shell selects the caller's frame; the editor's innermost frame is still its own.
    shell(&["frame", "1"]);
    let innermost = locals_of(&mut request, &frames[0], &mut events);
    assert!(
        innermost.contains(&"IV_QUANTITY".to_string()),
        "{innermost:?}"
    );
    let hover = request(
        "evaluate",
        json!({"expression": "iv_quantity", "frameId": frames[0]["id"], "context": "hover"}),
        &mut events,
    );
    assert_eq!(hover["result"], "1", "{hover}");
    let shell_vars = names(&shell(&["vars"]));
    assert!(
        shell_vars.contains(&"LV_COUNT".to_string()),
        "the editor's reads moved the shell's frame back: {shell_vars:?}"
    );

    request(
        "disconnect",
        json!({"terminateDebuggee": true}),
        &mut events,
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().expect("wait").is_none() {
        assert!(Instant::now() < deadline, "the adapter did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(sim.stop(), "the simulator exits cleanly");
}

/// Issue 25, item 14: a launch against a system with a user but no password anywhere fails at
/// once with the auth code, instead of waiting 15 s for a session that will never start.
#[test]
fn a_launch_without_a_password_fails_at_once_with_the_auth_code() {
    use std::io::Write;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let world = World::new("no-password", "http://127.0.0.1:9");
    let mut child = world
        .command(abapdbg_bin())
        .arg("dap")
        .env_remove("ABAPDBG_PASSWORD")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start abapdbg dap");
    let mut stdin = child.stdin.take().expect("stdin");
    let messages = dap_reader(child.stdout.take().expect("stdout"));
    let mut send = |body: &str| {
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len())
            .and_then(|()| stdin.flush())
            .expect("write");
    };
    send(r#"{"seq":1,"type":"request","command":"initialize","arguments":{}}"#);
    let started = Instant::now();
    send(&format!(
        r#"{{"seq":2,"type":"request","command":"launch","arguments":{{"url":"{}","user":"DEVELOPER","class":"ZCL_ABAPDBG_DEMO"}}}}"#,
        world.url
    ));
    let launch = loop {
        let m = messages
            .recv_timeout(Duration::from_secs(30))
            .expect("the adapter answers");
        if m["type"] == "response" && m["command"] == "launch" {
            break m;
        }
    };
    assert_eq!(launch["success"], false, "{launch}");
    let message = launch["message"].as_str().unwrap_or_default().to_string()
        + launch["body"]["error"]["format"]
            .as_str()
            .unwrap_or_default();
    assert!(message.contains("auth.credentials_unavailable"), "{launch}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
}

/// An attach while another debugger of the same user listens: the debug console names the
/// launch option that takes the listener over (not the protocol's argument), and an attach
/// with it arms the listener.
#[test]
fn a_listener_conflict_names_the_take_over_option() {
    use std::io::Write;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    use serde_json::{Value, json};

    let sim = Simulator::start();
    sim_faults(&sim.url, &json!({"foreignListeners": ["DEVELOPER"]}));
    let world = World::new("conflict", &sim.url);
    let attach = |arguments: Value| {
        let mut child = world
            .command(abapdbg_bin())
            .env("ABAPDBG_URL", &sim.url)
            .env("ABAPDBG_USER", "DEVELOPER")
            .env("ABAPDBG_CLIENT", "001")
            .arg("dap")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start abapdbg dap");
        let mut stdin = child.stdin.take().expect("stdin");
        let messages = dap_reader(child.stdout.take().expect("stdout"));
        for (seq, command, args) in [
            (1, "initialize", json!({"adapterID": "abap"})),
            (2, "attach", arguments),
            (3, "configurationDone", json!({})),
        ] {
            let body = json!({"seq": seq, "type": "request", "command": command,
                              "arguments": args})
            .to_string();
            write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len())
                .and_then(|()| stdin.flush())
                .expect("write to the adapter");
        }
        (child, stdin, messages)
    };

    let (mut child, stdin, messages) = attach(json!({}));
    let deadline = Instant::now() + Duration::from_secs(60);
    let said = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let m = messages
            .recv_timeout(left)
            .expect("the conflict on the debug console");
        let text = m["body"]["output"].as_str().unwrap_or_default();
        if m["event"] == "output" && text.contains("another debugger") {
            break text.to_string();
        }
    };
    assert!(said.contains("\"takeOver\": true"), "{said}");
    assert!(!said.contains("take_over"), "{said}");
    drop(stdin);
    let _ = child.wait();

    // What the hint says works: the listener is ours and armed.
    let (mut child, stdin, _messages) = attach(json!({"takeOver": true}));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let out = world
            .command(abapdbg_bin())
            .env("ABAPDBG_URL", &sim.url)
            .env("ABAPDBG_USER", "DEVELOPER")
            .env("ABAPDBG_CLIENT", "001")
            .args(["status", "--json"])
            .output()
            .expect("abapdbg status");
        let status: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        if status["listener"]["armed"] == true {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the listener was not armed: {status}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(stdin);
    let _ = child.wait();
    sim.stop();
}

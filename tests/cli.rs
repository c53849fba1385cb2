//! The one-shot commands as a shell user runs them: every call a real `abapdbg` process that
//! reaches (or starts) the session daemon, against the embedded simulator or an `abapdbg sim`
//! process. Human and `--json` output, exit codes, the seed spec's forms, a bash script, Ctrl-C.
//! Each test has its own runtime and state directories and ends its session on drop.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use e2e::{Simulator, abapdbg_bin};
use serde_json::Value;

/// Variables of the caller that would choose another system or session; cleared for every call.
const INHERITED: &[&str] = &[
    "ABAPDBG_URL",
    "ABAPDBG_USER",
    "ABAPDBG_PASSWORD",
    "ABAPDBG_CLIENT",
    "ABAPDBG_LANGUAGE",
    "ABAPDBG_ALLOW_WRITES",
    "ABAPDBG_TERMINAL_ID",
    "ABAPDBG_PROFILE",
    "ABAPDBG_LOG",
    "NO_COLOR",
];

/// One shell user's environment: a session of its own (own runtime and state directories),
/// shut down on drop.
struct Shell {
    dir: PathBuf,
    env: Vec<(&'static str, String)>,
    /// Whether dropping this ends the session and deletes the directory (not for a copy).
    owns: bool,
}

/// What one call left: exit code, stdout, stderr.
struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl std::fmt::Display for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

impl From<Output> for Ran {
    fn from(o: Output) -> Ran {
        Ran {
            code: o.status.code(),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

impl Shell {
    /// The embedded simulator (no ABAPDBG_URL).
    fn embedded(name: &str) -> Shell {
        Shell::new(name, Vec::new())
    }

    /// A system by URL, with this password.
    fn system(name: &str, url: &str, password: &str) -> Shell {
        Shell::new(
            name,
            vec![
                ("ABAPDBG_URL", url.to_string()),
                ("ABAPDBG_USER", "DEVELOPER".into()),
                ("ABAPDBG_PASSWORD", password.into()),
                ("ABAPDBG_CLIENT", "001".into()),
            ],
        )
    }

    fn new(name: &str, mut env: Vec<(&'static str, String)>) -> Shell {
        let dir = std::env::temp_dir().join(format!("abapdbg-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        env.push(("ABAPDBG_RUNTIME_DIR", dir.join("run").display().to_string()));
        env.push(("ABAPDBG_STATE_DIR", dir.join("state").display().to_string()));
        env.push(("XDG_CONFIG_HOME", dir.join("config").display().to_string()));
        env.push(("ABAPDBG_BIN", abapdbg_bin().display().to_string()));
        Shell {
            dir,
            env,
            owns: true,
        }
    }

    fn with(mut self, name: &'static str, value: &str) -> Shell {
        self.env.push((name, value.to_string()));
        self
    }

    /// `program` in this environment, run from the test's directory.
    fn program(&self, program: &str) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(&self.dir).stdin(Stdio::null());
        for k in INHERITED {
            cmd.env_remove(k);
        }
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }

    /// `abapdbg <args>` in this environment.
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = self.program(&abapdbg_bin().display().to_string());
        cmd.args(args);
        cmd
    }

    fn run(&self, args: &[&str]) -> Ran {
        self.command(args).output().expect("run abapdbg").into()
    }

    /// A call that must succeed with nothing on stderr; its stdout.
    fn ok(&self, args: &[&str]) -> String {
        let r = self.run(args);
        assert!(
            r.code == Some(0) && r.stderr.is_empty(),
            "abapdbg {}: {r}",
            args.join(" ")
        );
        r.stdout
    }

    /// A `--json` call that must succeed: exactly one JSON value on stdout.
    fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.push("--json");
        let out = self.ok(&all);
        one_value(&out, &all)
    }

    /// A call that must fail with `code`: the exit code and the one error line.
    fn fails(&self, args: &[&str], exit: i32, code: &str) -> Ran {
        let r = self.run(args);
        assert_eq!(r.code, Some(exit), "abapdbg {}: {r}", args.join(" "));
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "one error line: {r}");
        // A code ending in '.' names a family: `state.` is any state error.
        let prefix = if code.ends_with('.') {
            format!("abapdbg: {code}")
        } else {
            format!("abapdbg: {code}: ")
        };
        assert!(
            lines[0].starts_with(&prefix),
            "abapdbg {}: {r}",
            args.join(" ")
        );
        r
    }

    /// [`Shell::fails`] with one more variable set.
    fn fails_with_env(&self, args: &[&str], var: (&'static str, &str), exit: i32, code: &str) {
        let mut env = self.env.clone();
        env.push((var.0, var.1.to_string()));
        let with = Shell {
            dir: self.dir.clone(),
            env,
            owns: false,
        };
        with.fails(args, exit, code);
    }

    /// Starts `abapdbg <args>` in the background, stdout and stderr to `log`.
    fn spawn(&self, args: &[&str], log: &Path) -> Child {
        let file = std::fs::File::create(log).expect("log file");
        let err = file.try_clone().expect("log file");
        self.command(args)
            .stdout(file)
            .stderr(err)
            .spawn()
            .expect("start abapdbg")
    }

    fn socket(&self) -> PathBuf {
        let key = if self.env.iter().any(|(k, _)| *k == "ABAPDBG_URL") {
            None
        } else {
            Some("session-embedded.sock")
        };
        let run = self.dir.join("run").join("abapdbg");
        match key {
            Some(k) => run.join(k),
            None => std::fs::read_dir(&run)
                .ok()
                .and_then(|mut d| d.find_map(|e| e.ok().map(|e| e.path())))
                .filter(|p| p.extension().is_some_and(|x| x == "sock"))
                .unwrap_or_else(|| run.join("none.sock")),
        }
    }
}

impl Drop for Shell {
    fn drop(&mut self) {
        if !self.owns {
            return;
        }
        // The session is a daemon: end it, whatever the test did.
        let _ = self.command(&["shutdown"]).output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn one_value(out: &str, args: &[&str]) -> Value {
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "abapdbg {}: one line: {out}",
        args.join(" ")
    );
    serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// Sends SIGINT (Ctrl-C) to a child.
fn ctrl_c(child: &Child) {
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill")
        .success();
    assert!(ok, "SIGINT sent");
}

/// Waits until a child catches SIGINT (its Ctrl-C handler is installed) and holds a socket
/// (it reached the session): from then on a Ctrl-C is the command's to handle.
fn listening(child: &Child) {
    let proc = PathBuf::from(format!("/proc/{}", child.id()));
    eventually("the Ctrl-C handler and the session connection", || {
        let caught = std::fs::read_to_string(proc.join("status"))
            .ok()
            .and_then(|s| {
                let mask = s.lines().find_map(|l| l.strip_prefix("SigCgt:"))?;
                u64::from_str_radix(mask.trim(), 16).ok()
            })
            .is_some_and(|mask| mask & (1 << (2 - 1)) != 0);
        let socket = std::fs::read_dir(proc.join("fd")).is_ok_and(|fds| {
            fds.flatten().any(|fd| {
                std::fs::read_link(fd.path())
                    .is_ok_and(|l| l.to_string_lossy().starts_with("socket:"))
            })
        });
        caught && socket
    });
    // The subscription follows the connection at once; leave it that moment.
    std::thread::sleep(Duration::from_millis(200));
}

/// Waits until `f` holds (at most 60 s: a loaded machine is slow; ends as soon as it holds).
fn eventually(what: &str, f: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn wait_exit(child: &mut Child) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the process did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

const DEMO: &str = "ZCL_ABAPDBG_DEMO";

#[test]
fn a_whole_session_in_human_output() {
    let sh = Shell::embedded("human");
    let out = sh.ok(&["bp", "set", "ZCL_ABAPDBG_DEMO:48"]);
    assert!(out.starts_with("ID  STATUS    LOCATION"), "{out}");
    assert!(out.contains(" 1  verified  ZCL_ABAPDBG_DEMO:48"), "{out}");

    // A refused breakpoint: listed, and exit 1 with the system's reason.
    let r = sh.fails(
        &["bp", "set", "ZCL_ABAPDBG_DEMO:30"],
        1,
        "breakpoint.not_executable",
    );
    assert!(r.stdout.contains("rejected"), "{r}");
    assert!(
        r.stderr
            .contains("ZCL_ABAPDBG_DEMO:30: Cannot create a breakpoint at this position (hint: "),
        "{r}"
    );
    let list = sh.ok(&["bp", "list"]);
    assert!(
        list.contains("verified") && list.contains("rejected"),
        "{list}"
    );

    // The stop with its source window; nothing on stderr (no spinner on a pipe).
    let stop = sh.ok(&["run", DEMO]);
    assert!(
        stop.starts_with("stopped at ZCL_ABAPDBG_DEMO:48 in LINE_TOTAL (breakpoint 1; thread 1)\n"),
        "{stop}"
    );
    assert!(
        stop.contains("> 48      rv_total = iv_quantity * iv_price."),
        "{stop}"
    );
    assert!(stop.contains("  47    METHOD line_total."), "{stop}");

    let stack = sh.ok(&["stack"]);
    assert!(
        stack
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with(">  0  ZCL_ABAPDBG_DEMO:48  LINE_TOTAL")),
        "{stack}"
    );
    assert!(stack.contains("IF_OO_ADT_CLASSRUN~MAIN"), "{stack}");

    let vars = sh.ok(&["vars"]);
    assert!(vars.starts_with("NAME         SCOPE       TYPE"), "{vars}");
    assert!(
        vars.contains("IV_PRICE     Parameters  I                        10"),
        "{vars}"
    );
    let get = sh.ok(&["get", "iv_quantity"]);
    assert_eq!(get, "NAME         TYPE  VALUE\nIV_QUANTITY  I     1\n");
    let source = sh.ok(&["source", "--context", "2"]);
    assert!(source.contains("> 48"), "{source}");
    assert_eq!(source.lines().count(), 6, "{source}");
    let frame = sh.ok(&["frame", "1"]);
    assert!(
        frame.starts_with("frame 1 at ZCL_ABAPDBG_DEMO:36 in IF_OO_ADT_CLASSRUN~MAIN\n"),
        "{frame}"
    );
    let threads = sh.ok(&["threads"]);
    assert!(
        threads.contains(">       1  stopped  ZCL_ABAPDBG_DEMO:48 in LINE_TOTAL"),
        "{threads}"
    );
    let status = sh.ok(&["status"]);
    assert!(status.starts_with("state        stopped\n"), "{status}");
    assert!(status.contains("the embedded simulator"), "{status}");
    assert!(status.contains("listener     armed"), "{status}");

    let step = sh.ok(&["step"]);
    assert!(
        step.starts_with("stopped at ZCL_ABAPDBG_DEMO:49 in LINE_TOTAL (step; thread 1)"),
        "{step}"
    );
    let out_of = sh.ok(&["step", "out"]);
    assert!(
        out_of.starts_with("stopped at ZCL_ABAPDBG_DEMO:35 in IF_OO_ADT_CLASSRUN~MAIN"),
        "{out_of}"
    );
    // Past the loop without stopping in it again.
    sh.ok(&["bp", "disable", "1"]);
    let at = sh.ok(&["run-to", "43"]);
    assert!(at.starts_with("stopped at ZCL_ABAPDBG_DEMO:43"), "{at}");
    let enabled = sh.ok(&["bp", "enable", "1"]);
    assert!(enabled.contains(" 1  line  verified"), "{enabled}");

    // Writes are not allowed in this session.
    sh.fails(&["jump-to", "44"], 1, "permission.write_not_allowed");
    sh.fails(&["set", "lv_rate", "1"], 1, "permission.write_not_allowed");

    let end = sh.ok(&["continue"]);
    assert_eq!(
        end,
        "ended (finished; thread 1)\nOrder A001: total 60, rate 12.50\nDoubled rate: 25.00\n"
    );
    let deleted = sh.ok(&["bp", "delete", "1", "2"]);
    assert_eq!(deleted, "deleted 1, 2\n");
    let bye = sh.ok(&["shutdown"]);
    assert!(
        bye.starts_with("session ended: listener stopped, 0 breakpoint(s) deleted"),
        "{bye}"
    );
    assert!(!sh.socket().exists(), "the session is gone");
}

#[test]
fn every_command_prints_one_json_value() {
    let sh = Shell::embedded("json");
    let set = sh.json(&["bp", "set", "ZCL_ABAPDBG_DEMO:48"]);
    assert_eq!(set["breakpoints"][0]["status"], "verified", "{set}");
    let set = sh.json(&["bp", "set", "--kind", "exception", "cx_sy_zerodivide"]);
    assert_eq!(
        set["breakpoints"][0]["exception"], "CX_SY_ZERODIVIDE",
        "{set}"
    );
    let disabled = sh.json(&["bp", "disable", "2"]);
    assert_eq!(
        disabled["breakpoints"][0]["status"], "disabled",
        "{disabled}"
    );
    let list = sh.json(&["bp", "list"]);
    assert_eq!(
        list["breakpoints"].as_array().map(Vec::len),
        Some(2),
        "{list}"
    );

    // Export, delete, import from stdin: the same breakpoint again.
    let export = sh.json(&["bp", "export"]);
    assert_eq!(export["format"], "abapdbg-breakpoints/1", "{export}");
    let human_export = sh.ok(&["bp", "export"]);
    assert_eq!(
        serde_json::from_str::<Value>(&human_export).ok(),
        Some(export.clone())
    );
    assert_eq!(
        sh.json(&["bp", "delete", "--all"])["deleted"],
        serde_json::json!([1, 2])
    );
    let mut import = sh
        .command(&["bp", "import", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("bp import");
    import
        .stdin
        .take()
        .expect("stdin")
        .write_all(human_export.as_bytes())
        .expect("write the export");
    let imported: Ran = import.wait_with_output().expect("bp import").into();
    assert_eq!(imported.code, Some(0), "{imported}");
    let imported = one_value(&imported.stdout, &["bp", "import"]);
    assert_eq!(imported["imported"], 2, "{imported}");
    assert_eq!(
        imported["breakpoints"][0]["location"],
        "ZCL_ABAPDBG_DEMO:48"
    );

    let armed = sh.json(&["listen"]);
    assert_eq!(armed["armed"], true, "{armed}");
    assert_eq!(armed["user"], "DEVELOPER", "{armed}");
    assert_eq!(sh.json(&["unlisten"])["stopped"], true);

    let run = sh.json(&["run", DEMO]);
    assert_eq!(run["stop"]["frame"]["line"], 48, "{run}");
    assert_eq!(run["stop"]["reason"], "breakpoint", "{run}");
    let wait = sh.json(&["wait"]);
    assert_eq!(wait["reached"], true, "{wait}");
    assert_eq!(wait["frame"]["method"], "LINE_TOTAL", "{wait}");
    let stack = sh.json(&["stack"]);
    assert_eq!(stack["frames"][1]["method"], "IF_OO_ADT_CLASSRUN~MAIN");
    let vars = sh.json(&["vars"]);
    assert!(vars["epoch"].is_u64(), "{vars}");
    let names: Vec<&str> = vars["variables"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["name"].as_str())
        .collect();
    assert_eq!(names, ["ME", "IV_QUANTITY", "IV_PRICE", "RV_TOTAL"]);
    let params = sh.json(&["vars", "--scope", "parameters"]);
    assert_eq!(params["variables"].as_array().map(Vec::len), Some(3));
    let me = sh.json(&["vars", "me"]);
    assert_eq!(me["parent"], "ME", "{me}");
    assert_eq!(sh.json(&["get", "iv_price"])["variable"]["value"], "10");
    let source = sh.json(&["source"]);
    assert_eq!(source["line"], 48, "{source}");
    let frame = sh.json(&["frame", "1"]);
    assert_eq!(frame["frame"]["line"], 36, "{frame}");
    assert_eq!(sh.json(&["threads"])["current"], 1);
    assert_eq!(sh.json(&["thread", "1"])["current"], 1);
    let status = sh.json(&["status"]);
    assert_eq!(status["state"], "stopped", "{status}");
    let step = sh.json(&["step", "over"]);
    assert_eq!(step["stop"]["frame"]["line"], 49, "{step}");
    let to = sh.json(&["run-to", "ZCL_ABAPDBG_DEMO:35"]);
    assert_eq!(to["stop"]["frame"]["line"], 35, "{to}");
    let next = sh.json(&["continue"]);
    assert_eq!(next["stop"]["frame"]["line"], 48, "{next}");
    let ended = sh.json(&["terminate"]);
    assert_eq!(ended["ended"]["reason"], "terminated", "{ended}");
    assert_eq!(ended["ended"]["run"]["ok"], false, "{ended}");
    let until = sh.json(&["wait", "--until", "ended", "--timeout", "5s"]);
    assert_eq!(until["reached"], true, "{until}");

    // A run that ends without stopping answers the protocol's run result.
    sh.json(&["bp", "delete", "--all"]);
    let done = sh.json(&["run", DEMO]);
    assert_eq!(done["class"], DEMO, "{done}");
    assert!(
        done["output"]
            .as_str()
            .is_some_and(|o| o.contains("total 60")),
        "{done}"
    );
    let detach_state = sh.fails(&["detach"], 3, "state.");
    assert!(detach_state.stdout.is_empty());

    let config = sh.json(&["config"]);
    assert_eq!(config["running"], true, "{config}");
    let url = config["settings"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["name"] == "url");
    assert_eq!(
        url.map(|r| &r["value"]),
        Some(&Value::from("(none: the embedded simulator)")),
        "{config}"
    );
    let bye = sh.json(&["shutdown"]);
    assert_eq!(bye["receipt"]["listener_stopped"], true, "{bye}");
    assert_eq!(sh.json(&["shutdown"])["receipt"], Value::Null);
}

#[test]
fn tables_page_and_export() {
    let sh = Shell::embedded("table");
    sh.ok(&["bp", "set", "ZCL_ABAPDBG_ORDERS:67"]);
    sh.ok(&["run", "ZCL_ABAPDBG_ORDERS"]);

    let page = sh.ok(&["table", "lt_items", "--limit", "3"]);
    let lines: Vec<&str> = page.lines().collect();
    assert_eq!(lines.len(), 5, "{page}");
    assert!(
        lines[0].starts_with("#  ID  AMOUNT  CUSTOMER    DUE"),
        "{page}"
    );
    assert!(lines[1].starts_with("1   1    1.25  C1"), "{page}");
    assert_eq!(lines[4], "rows 1–3 of 300; more with --offset 3, or --all");

    let last = sh.json(&["table", "lt_items", "--offset", "299"]);
    assert_eq!(last["rows"].as_array().map(Vec::len), Some(1), "{last}");
    assert_eq!(last["rows"][0]["columns"]["ID"], "300", "{last}");
    assert_eq!(last["more"], false);
    let all = sh.json(&["table", "lt_items", "--all"]);
    assert_eq!(all["rows"].as_array().map(Vec::len), Some(300));
    assert_eq!(all["rows"][299]["index"], 300);
    assert_eq!(all["more"], false);
    assert_eq!(all["columns"][1]["name"], "AMOUNT", "{}", all["columns"]);

    let csv = sh.ok(&["table", "lt_items", "--format", "csv"]);
    assert_eq!(csv.lines().count(), 301);
    assert_eq!(
        csv.lines().next(),
        Some("ID,AMOUNT,CUSTOMER,DUE,AT,CODE,NOTE,FLAGS,BIG,RATIO")
    );
    let json: Value = serde_json::from_str(&sh.ok(&["table", "lt_items", "--format", "json"]))
        .expect("a JSON array");
    assert_eq!(json.as_array().map(Vec::len), Some(300));
    assert_eq!(json[0]["ID"], 1);
    let abap = sh.ok(&["table", "lt_items", "--format", "abap"]);
    assert!(abap.starts_with("VALUE #("), "{abap}");
    let wrote = sh.ok(&[
        "table",
        "lt_items",
        "--format",
        "csv",
        "--output",
        "items.csv",
    ]);
    assert!(wrote.starts_with("wrote 300 rows"), "{wrote}");
    let file = std::fs::read_to_string(sh.dir.join("items.csv")).expect("items.csv");
    assert_eq!(file, csv);
    // Issue 30: all rows as CSV is what `--all --format csv` says; --format exports them all.
    let all_csv = sh.ok(&["table", "lt_items", "--all", "--format", "csv"]);
    assert_eq!(all_csv, csv);
    let export = sh.json(&["table", "lt_items", "--format", "abap"]);
    assert_eq!(export["rows"], 300, "{export}");

    // The components of a structure, and the rows of a nested table.
    let order = sh.ok(&["vars", "ls_order"]);
    assert!(order.contains("NUMBER  N               0042"), "{order}");
    assert!(order.contains("WORDS   Standard Table  2 rows"), "{order}");
    let words = sh.json(&["vars", "--expand", "ls_order-words"]);
    assert_eq!(words["variables"][1]["value"], "beta", "{words}");
    let rows = sh.ok(&["vars", "lt_items", "--limit", "2"]);
    assert!(
        rows.ends_with("rows 1–2 of 300; more with --offset 2\n"),
        "{rows}"
    );

    sh.fails(&["table", "lv_count"], 2, "protocol.invalid_args");
    let conflict = sh.run(&["table", "lt_items", "--all", "--limit", "3"]);
    assert_eq!(conflict.code, Some(2), "{conflict}");
    sh.ok(&["terminate"]);
}

/// Issue 30: the version names the protocol; the help says how to register the Nushell plugin.
#[test]
fn version_and_help_name_the_protocol_and_the_plugin() {
    let sh = Shell::embedded("version");
    let expected = format!(
        "abapdbg {} (protocol {})\n",
        env!("CARGO_PKG_VERSION"),
        jsonl::PROTOCOL_VERSION
    );
    assert_eq!(sh.ok(&["--version"]), expected);
    assert_eq!(sh.ok(&["version"]), expected);
    let help = sh.ok(&["--help"]);
    for needed in ["plugin add", "plugin use abap", "Nushell 0.115.x"] {
        assert!(help.contains(needed), "--help names `{needed}`:\n{help}");
    }
}

#[test]
fn usage_and_state_errors() {
    let sh = Shell::embedded("errors");
    for args in [
        &["vars", "--bogus"][..],
        &["bp", "delete"],
        &["step", "sideways"],
        &["bp", "set", "--object", "ZCL_X"],
        &["wait", "--timeout", "soon"],
        &["nonsense"],
    ] {
        let r = sh.run(args);
        assert_eq!(r.code, Some(2), "abapdbg {}: {r}", args.join(" "));
        assert!(r.stdout.is_empty(), "{r}");
    }
    sh.fails(&["step", "over", "--type", "into"], 2, "usage");
    sh.fails(&["bp", "set", "--kind", "statement", "A", "B"], 2, "usage");

    // Nothing is stopped: state errors (exit 3), with the session's hint.
    let r = sh.fails(&["vars"], 3, "state.not_stopped");
    assert!(r.stderr.contains("(hint: "), "{r}");
    sh.fails(&["step"], 3, "state.not_stopped");
    sh.fails(&["terminate"], 3, "state.");
    let r = sh.fails(&["wait", "--timeout", "300ms"], 3, "state.timed_out");
    assert!(r.stdout.is_empty(), "{r}");
    let r = sh.fails(
        &["wait", "--timeout", "300ms", "--json"],
        3,
        "state.timed_out",
    );
    assert_eq!(
        one_value(&r.stdout, &["wait"]),
        serde_json::json!({"reached": false, "timed_out": true})
    );
    sh.fails(&["bp", "delete", "7"], 1, "breakpoint.not_found");
    sh.fails(
        &["bp", "set", "ZCL_X:abc"],
        2,
        "breakpoint.invalid_location",
    );

    // The session lives on after all that.
    assert_eq!(sh.json(&["status"])["state"], "idle");

    // config shows the password redacted, and shutdown never starts a session.
    let other = Shell::system("errors-cfg", "http://127.0.0.1:9", "pw-s3cret-cfg");
    let config = other.ok(&["config"]);
    assert!(config.starts_with("SETTING"), "{config}");
    assert!(
        config
            .lines()
            .any(|l| l.starts_with("password") && l.contains("<redacted>")),
        "{config}"
    );
    assert!(
        config
            .lines()
            .any(|l| l.starts_with("session") && l.contains("not running")),
        "{config}"
    );
    assert!(!config.contains("pw-s3cret-cfg"), "{config}");
    let as_json = other.json(&["config"]);
    assert!(!as_json.to_string().contains("pw-s3cret-cfg"), "{as_json}");
    assert_eq!(as_json["running"], false, "{as_json}");
    // A profile that the config file does not have: a configuration error (exit 2).
    other.fails_with_env(&["status"], ("ABAPDBG_PROFILE", "nope"), 2, "config.");
    let none = other.ok(&["shutdown"]);
    assert!(
        none.starts_with("no session runs for DEVELOPER@http://127.0.0.1:9"),
        "{none}"
    );
    assert!(!other.dir.join("run").exists(), "nothing was started");
}

#[test]
fn a_wrong_password_exits_5_and_never_shows_in_argv() {
    let sim = Simulator::start();
    let secret = "wr0ng-pw-on-argv-check";
    let sh = Shell::system("auth", &sim.url, secret);
    let r = sh.fails(
        &["bp", "set", "ZCL_ABAPDBG_DEMO:48"],
        5,
        "auth.unauthenticated",
    );
    assert!(
        r.stderr.contains("ABAPDBG_PASSWORD"),
        "the hint names it: {r}"
    );
    // The daemon got the password in its environment, never on a command line.
    let mut seen = 0;
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        if let Ok(argv) = std::fs::read(entry.path().join("cmdline")) {
            seen += 1;
            assert!(
                !String::from_utf8_lossy(&argv).contains(secret),
                "the password is on the command line of {}",
                entry.path().display()
            );
        }
    }
    assert!(seen > 2, "read the command lines");
    // `config check` is `doctor`: the logon step fails, and it exits like an auth error.
    let r = sh.run(&["config", "check"]);
    assert_eq!(r.code, Some(5), "{r}");
    assert!(r.stdout.contains("✘ logon"), "{r}");
    assert!(!r.stdout.contains(secret), "{r}");
    // With the right password it logs on and says what the system offers.
    let good = Shell::system("auth-good", &sim.url, "abap");
    let out = good.ok(&["config", "check"]);
    assert!(out.contains("✔ logon"), "{out}");
    assert!(out.contains("DEVELOPER in client 001"), "{out}");
    assert!(out.contains("✔ discovery"), "{out}");
    let report = good.json(&["config", "check"]);
    assert_eq!(report["ok"], true, "{report}");
    // No password at all: the session cannot start.
    let none = Shell::system("auth-none", &sim.url, "").with("ABAPDBG_PASSWORD", "");
    none.fails(&["status"], 4, "session.start_failed");
}

#[test]
fn an_unreachable_system_exits_4() {
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let sh = Shell::system("unreachable", &format!("http://127.0.0.1:{port}"), "abap");
    // Breakpoints wait for the system: pending, with a warning, not an error.
    let r = sh.run(&["bp", "set", "ZCL_ABAPDBG_DEMO:48"]);
    assert_eq!(r.code, Some(0), "{r}");
    assert!(r.stdout.contains("pending"), "{r}");
    assert!(r.stderr.starts_with("abapdbg: warning: "), "{r}");
    // A run needs the listener, which the system never confirms.
    sh.fails(&["run", DEMO], 4, "transport.");
}

#[test]
fn the_seed_spec_forms_work() {
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let samples = samples.display().to_string();
    let sim = Simulator::start_with(&["--programs", &samples]);
    let sh = Shell::system("seed", &sim.url, "abap");

    let set = sh.json(&[
        "bp",
        "set",
        "--objects",
        "ZCL_ABAPDBG_DEMO:48,ZCL_ABAPDBG_DEMO:35",
    ]);
    let status: Vec<&Value> = set["breakpoints"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|b| &b["status"])
        .collect();
    assert_eq!(status, ["verified", "verified"], "{set}");
    let set = sh.json(&["bp", "set", "--files", "src/zcl_abapdbg_demo.clas.abap:44"]);
    assert_eq!(set["breakpoints"][0]["line"], 44, "{set}");
    let set = sh.json(&["bp", "set", "--object", "ZCL_ABAPDBG_DEMO", "--line", "39"]);
    assert_eq!(set["breakpoints"][0]["status"], "verified", "{set}");
    let set = sh.json(&[
        "bp",
        "set",
        "--objects",
        "ZCL_SMP_CALCULATOR:22",
        "--include",
        "testclasses",
    ]);
    assert_eq!(set["breakpoints"][0]["status"], "verified", "{set}");
    assert_eq!(
        set["breakpoints"][0]["location"], "ZCL_SMP_CALCULATOR/testclasses:22",
        "{set}"
    );
    let list = sh.json(&["bp", "list"]);
    assert_eq!(list["breakpoints"].as_array().map(Vec::len), Some(5));
    assert_eq!(
        sh.json(&["bp", "delete", "--id", "3"])["deleted"],
        serde_json::json!([3])
    );
    assert_eq!(
        sh.json(&["bp", "delete", "--id", "4"])["deleted"],
        serde_json::json!([4])
    );
    sh.json(&["bp", "delete", "--id", "1"]);

    // A unit test stops in its test class.
    let stop = sh.json(&["test", "ZCL_SMP_CALCULATOR"]);
    assert_eq!(stop["stop"]["frame"]["line"], 22, "{stop}");
    let ended = sh.json(&["step", "--type", "continue"]);
    assert_eq!(ended["ended"]["test"]["ok"], true, "{ended}");
    sh.json(&["bp", "delete", "--id", "5"]);

    // The seed's scripted flow: attach --json in the background, wait for its marker, start
    // the program, read the session from the attach output, then step, inspect and continue.
    let log = sh.dir.join("attach.out");
    let mut attach = sh.spawn(&["attach", "--json", "--timeout", "60"], &log);
    eventually("Listener active", || {
        std::fs::read_to_string(&log).is_ok_and(|t| t.contains("Listener active"))
    });
    let mut trigger = sh.spawn(&["run", DEMO], &sh.dir.join("trigger.out"));
    assert_eq!(wait_exit(&mut attach), Some(0));
    let text = std::fs::read_to_string(&log).expect("attach output");
    let hit = text
        .lines()
        .find(|l| l.starts_with('{'))
        .expect("a JSON line");
    let hit: Value = serde_json::from_str(hit).expect("JSON");
    assert!(
        hit["session"]
            .as_str()
            .is_some_and(|s| s.ends_with(".sock")),
        "{hit}"
    );
    assert_eq!(hit["frame"]["line"], 35, "{hit}");
    assert_eq!(wait_exit(&mut trigger), Some(0));

    let stack = sh.json(&["stack"]);
    assert_eq!(stack["frames"][0]["line"], 35, "{stack}");
    assert!(sh.json(&["vars"])["variables"].is_array());
    let step = sh.json(&["step", "--type", "over"]);
    assert_eq!(step["stop"]["frame"]["line"], 36, "{step}");
    let count = sh.json(&["vars", "--name", "lv_count"]);
    assert_eq!(count["variables"][0]["value"], "1", "{count}");
    let me = sh.json(&["vars", "--expand", "me"]);
    assert_eq!(me["parent"], "ME", "{me}");
    let into = sh.json(&["step", "--type", "into"]);
    assert_eq!(into["stop"]["frame"]["method"], "LINE_TOTAL", "{into}");
    let out = sh.json(&["step", "--type", "out"]);
    assert_eq!(
        out["stop"]["frame"]["method"], "IF_OO_ADT_CLASSRUN~MAIN",
        "{out}"
    );
    let again = sh.json(&["step", "--type", "continue"]);
    assert_eq!(again["stop"]["frame"]["line"], 35, "{again}");
    let killed = sh.json(&["terminate"]);
    assert_eq!(killed["ended"]["reason"], "terminated", "{killed}");
}

#[test]
fn a_bash_script_debugs_with_one_shot_commands() {
    if Command::new("jq").arg("--version").output().is_err() {
        panic!("jq is needed (scripts/test-all.sh installs it)");
    }
    let sh = Shell::embedded("bash");
    let bin_dir = abapdbg_bin()
        .parent()
        .expect("the binary's directory")
        .display()
        .to_string();
    let script = r#"
set -euo pipefail
abapdbg bp set ZCL_ABAPDBG_DEMO:48 --json | jq -e '.breakpoints[0].status == "verified"' >/dev/null
abapdbg run ZCL_ABAPDBG_DEMO --json | jq -e '.stop.frame.line == 48' >/dev/null
price=$(abapdbg vars --name iv_price --json | jq -r '.variables[0].value')
test "$price" = 10
abapdbg step --json | jq -e '.stop.frame.line == 49' >/dev/null
rc=0; abapdbg jump-to 44 2>/dev/null || rc=$?
test "$rc" = 1
abapdbg continue --json | jq -e '.stop.frame.method == "LINE_TOTAL"' >/dev/null
abapdbg bp delete --all >/dev/null
out=$(abapdbg continue --json | jq -r '.ended.output')
case "$out" in *"total 60"*) ;; *) echo "unexpected output: $out"; exit 1 ;; esac
rc=0; abapdbg vars 2>/dev/null || rc=$?
test "$rc" = 3
echo "script done"
"#;
    let path = format!("{bin_dir}:{}", std::env::var("PATH").unwrap_or_default());
    let out: Ran = sh
        .program("bash")
        .args(["-c", script])
        .env("PATH", path)
        .output()
        .expect("bash")
        .into();
    assert_eq!(out.code, Some(0), "{out}");
    assert_eq!(out.stdout, "script done\n", "{out}");
}

#[test]
fn ctrl_c_ends_a_wait_and_events_never_the_session() {
    let sh = Shell::embedded("ctrlc");
    sh.ok(&["status"]);
    let log = sh.dir.join("wait.out");
    let mut wait = sh.spawn(&["wait", "--timeout", "60s"], &log);
    listening(&wait);
    ctrl_c(&wait);
    assert_eq!(wait_exit(&mut wait), Some(130));
    let text = std::fs::read_to_string(&log).expect("wait output");
    assert!(text.starts_with("abapdbg: request.interrupted: "), "{text}");
    assert_eq!(sh.json(&["status"])["state"], "idle", "the session goes on");

    let log = sh.dir.join("events.out");
    let mut events = sh.spawn(&["events", "--json"], &log);
    listening(&events);
    sh.ok(&["bp", "set", "ZCL_ABAPDBG_DEMO:48"]);
    sh.ok(&["run", DEMO]);
    eventually("the stopped event", || {
        std::fs::read_to_string(&log).is_ok_and(|t| t.contains("\"stopped\""))
    });
    ctrl_c(&events);
    assert_eq!(wait_exit(&mut events), Some(0));
    let text = std::fs::read_to_string(&log).expect("events output");
    let names: Vec<String> = text
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            v["event"].as_str().unwrap_or_default().to_string()
        })
        .collect();
    assert!(names.contains(&"listener.armed".to_string()), "{names:?}");
    assert!(names.contains(&"stopped".to_string()), "{names:?}");
    assert_eq!(sh.json(&["status"])["state"], "stopped");
    // Human lines; --count ends it.
    let log = sh.dir.join("events-human.out");
    let mut one = sh.spawn(&["events", "--count", "1"], &log);
    listening(&one);
    sh.ok(&["terminate"]);
    assert_eq!(wait_exit(&mut one), Some(0));
    let text = std::fs::read_to_string(&log).expect("events output");
    assert!(
        text.starts_with("debuggee.ended     thread 1 terminated"),
        "{text}"
    );
}

#[test]
fn the_spinner_and_colour_only_on_a_terminal() {
    // `script` gives the command a pseudo-terminal (util-linux, on every Debian).
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("no 'script' here: skipped");
        return;
    }
    let sh = Shell::embedded("tty");
    let bin = abapdbg_bin().display().to_string();
    let on_tty = |line: &str, no_color: bool| -> Ran {
        let mut cmd = sh.program("script");
        cmd.args(["-qec", &format!("{bin} {line}"), "/dev/null"]);
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        cmd.output().expect("script").into()
    };
    let r = on_tty("wait --timeout 1s", false);
    assert_eq!(r.code, Some(3), "{r}");
    assert!(r.stdout.contains("waiting until stopped"), "{r}");
    assert!(r.stdout.contains("no listener"), "{r}");
    let r = on_tty("status", false);
    assert!(r.stdout.contains("\x1b[1m"), "colour on a terminal: {r}");
    let r = on_tty("status", true);
    assert!(!r.stdout.contains("\x1b["), "NO_COLOR: {r}");
    // On a pipe: neither.
    let r = sh.run(&["wait", "--timeout", "1s"]);
    assert!(!r.stderr.contains("waiting"), "{r}");
    assert!(!sh.ok(&["status"]).contains('\x1b'));

    // A system without a password anywhere: on a terminal the password is asked for (not
    // echoed), and the session it starts logs on with it.
    let sim = Simulator::start();
    let asked = Shell::system("tty-pw", &sim.url, "").with("ABAPDBG_PASSWORD", "");
    let mut cmd = asked.program("script");
    cmd.args(["-qec", &format!("{bin} status"), "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("script");
    if let Some(mut stdin) = child.stdin.take() {
        // The terminal keeps what is typed until the prompt reads it.
        stdin.write_all(b"abap\n").expect("type the password");
    }
    let r: Ran = child.wait_with_output().expect("script").into();
    assert!(r.stdout.contains("Password for DEVELOPER@"), "{r}");
    // The session logged on with it: a breakpoint is set on the system.
    asked.ok(&["bp", "set", "ZCL_ABAPDBG_DEMO:48"]);
}

/// Issue 24: a stop outside a class's main source is printed in the form `bp set` takes (its
/// part named, from the frame's abapGit file), and `stack` lists that file and line.
#[test]
fn a_stop_in_a_test_class_names_its_part_as_bp_set_takes_it() {
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let samples = samples.display().to_string();
    let sim = Simulator::start_with(&["--programs", &samples]);
    let sh = Shell::system("part", &sim.url, "abap");
    sh.ok(&["bp", "set", "ZCL_SMP_CALCULATOR/testclasses:22"]);
    let stop = sh.ok(&["test", "ZCL_SMP_CALCULATOR"]);
    let first = stop.lines().next().unwrap_or_default();
    assert_eq!(
        first, "stopped at CLAS:ZCL_SMP_CALCULATOR/testclasses:22 in ADDS (breakpoint 1; thread 1)",
        "{stop}"
    );
    let stack = sh.ok(&["stack"]);
    let top = stack.lines().nth(1).unwrap_or_default();
    assert!(
        top.starts_with(">  0  CLAS:ZCL_SMP_CALCULATOR/testclasses:22  ADDS")
            && top.ends_with("  zcl_smp_calculator.clas.testclasses.abap:22"),
        "{stack}"
    );
    // What the stop names is a location the session takes, at the same include and line.
    let again = sh.json(&["bp", "set", "CLAS:ZCL_SMP_CALCULATOR/testclasses:22"]);
    let first_bp = sh.json(&["bp", "list"]);
    assert_eq!(again["breakpoints"][0]["status"], "verified", "{again}");
    assert_eq!(
        again["breakpoints"][0]["include"], first_bp["breakpoints"][0]["include"],
        "{again} {first_bp}"
    );
    assert_eq!(
        again["breakpoints"][0]["include_line"], first_bp["breakpoints"][0]["include_line"],
        "{again} {first_bp}"
    );
    sh.ok(&["terminate"]);
}

/// Issue 31: a script of the original debug command, its program name changed to `abapdbg`
/// and nothing else, debugs a class from set to terminate (tests/scripts/debug_spec_session.sh).
#[test]
fn a_script_of_the_original_debug_command_runs_unchanged() {
    if Command::new("jq").arg("--version").output().is_err() {
        panic!("jq is needed (scripts/test-all.sh installs it)");
    }
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let sim = Simulator::start_with(&["--programs", &samples.display().to_string()]);
    let sh = Shell::system("spec-script", &sim.url, "abap");
    let bin_dir = abapdbg_bin()
        .parent()
        .expect("the binary's directory")
        .display()
        .to_string();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/debug_spec_session.sh");
    let path = format!("{bin_dir}:{}", std::env::var("PATH").unwrap_or_default());
    let out: Ran = sh
        .program("bash")
        .arg(&script)
        .env("PATH", path)
        .env("WORK", &sh.dir)
        .output()
        .expect("bash")
        .into();
    assert_eq!(out.code, Some(0), "{out}");
    assert!(out.stdout.ends_with("spec script done\n"), "{out}");
}

/// Issue 31: what the command line says names what the user would type next, and tells the
/// truth about what happened.
#[test]
fn messages_name_the_command_and_tell_the_truth() {
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let sim = Simulator::start_with(&["--programs", &samples.display().to_string()]);
    let sh = Shell::system("truth", &sim.url, "abap");

    // A breakpoint in an object the system does not have: no "executable statement" hint.
    let r = sh.fails(
        &[
            "debug",
            "set",
            "--object",
            "ZCL_NO_SUCH_CLASS",
            "--line",
            "5",
        ],
        1,
        "breakpoint.object_not_found",
    );
    assert!(!r.stderr.contains("executable"), "{r}");
    assert!(r.stderr.contains("'abapdbg bp set ZCL_<Tab>'"), "{r}");
    // A line it has but cannot stop at: that hint.
    let r = sh.fails(
        &["bp", "set", "ZCL_SMP_ORDER_STATS:31"],
        1,
        "breakpoint.not_executable",
    );
    assert!(r.stderr.contains("executable statement"), "{r}");
    // A hint of the session, said as a command: no protocol names or JSON.
    let r = sh.fails(
        &["debug", "delete", "--id", "99"],
        1,
        "breakpoint.not_found",
    );
    assert!(r.stderr.contains("'abapdbg bp list'"), "{r}");
    assert!(!r.stderr.contains("'bp.list'"), "{r}");
    let r = sh.fails(&["debug", "stack"], 3, "state.not_stopped");
    assert!(r.stderr.contains("'abapdbg run ZCL_X'"), "{r}");
    assert!(!r.stderr.contains('{'), "{r}");

    // Another debugger of the same user listens: the hint is the flag to type, not the
    // protocol's argument.
    sh.ok(&["listen"]);
    let other = Shell::system("truth-other", &sim.url, "abap").with("ABAPDBG_TERMINAL_ID", "OTHER");
    let r = other.fails(&["listen"], 4, "conflict.listener");
    assert!(r.stderr.contains("'abapdbg listen --take-over'"), "{r}");
    assert!(!r.stderr.contains("take_over"), "{r}");
    drop(other);

    // The original tool's attach flags: accepted, each with a note saying why it is ignored.
    // (The same breakpoint twice is the one breakpoint, with its id.)
    let first = sh.json(&["debug", "set", "--objects", "ZCL_SMP_ORDER_STATS:38"]);
    let again = sh.json(&[
        "debug",
        "set",
        "--object",
        "ZCL_SMP_ORDER_STATS",
        "--line",
        "38",
    ]);
    assert_eq!(
        first["breakpoints"][0]["id"], again["breakpoints"][0]["id"],
        "{again}"
    );
    let log = sh.dir.join("attach.out");
    let mut attach = sh.spawn(
        &[
            "debug",
            "attach",
            "--json",
            "--timeout",
            "60",
            "--max-listen",
            "3",
            "--session",
            "X",
        ],
        &log,
    );
    eventually("Listener active", || {
        std::fs::read_to_string(&log).is_ok_and(|t| t.contains("Listener active"))
    });
    let mut trigger = sh.spawn(&["run", "ZCL_SMP_ORDER_STATS"], &sh.dir.join("trigger.out"));
    assert_eq!(wait_exit(&mut attach), Some(0));
    let text = std::fs::read_to_string(&log).expect("attach output");
    assert!(text.contains("note: --max-listen is ignored"), "{text}");
    assert!(text.contains("note: --session is ignored"), "{text}");

    // terminate that succeeded says so, not that the run failed.
    let out = sh.ok(&["debug", "terminate"]);
    assert!(
        out.starts_with("terminated the program (thread 1)"),
        "{out}"
    );
    assert!(!out.contains("run failed"), "{out}");
    assert!(!out.contains("run.failed"), "{out}");
    let _ = wait_exit(&mut trigger);

    // Shutdown: a rejected breakpoint is not counted as deleted; the listener was armed (by
    // attach) and is stopped.
    let bye = sh.ok(&["shutdown"]);
    assert!(
        bye.starts_with("session ended: listener stopped, 1 breakpoint(s) deleted"),
        "{bye}"
    );
    // A session that never listened: no "listener not stopped".
    sh.ok(&["bp", "set", "ZCL_SMP_ORDER_STATS:38"]);
    let bye = sh.ok(&["shutdown"]);
    assert!(
        bye.starts_with("session ended: no listener was armed, 1 breakpoint(s) deleted"),
        "{bye}"
    );
}

/// Issue 31: with nothing configured, the embedded simulator is named: once on stderr when a
/// command starts the session at a terminal (with a profile made from `.abapGitAgent` when the
/// directory has one, never its password), and in `status` always.
#[test]
fn the_embedded_simulator_is_named_when_nothing_is_configured() {
    let sh = Shell::embedded("unconfigured");
    std::fs::write(
        sh.dir.join(".abapGitAgent"),
        r#"{"host":"sap.example.com","sapport":44300,"client":"100","user":"dev","password":"pw-agent-s3cret"}"#,
    )
    .expect("write .abapGitAgent");
    let note = "no system configured: using the embedded simulator; see `abapdbg config`";
    if Command::new("script").arg("--version").output().is_ok() {
        let bin = abapdbg_bin().display().to_string();
        let on_tty = |line: &str| -> Ran {
            let mut cmd = sh.program("script");
            cmd.args(["-qec", &format!("{bin} {line}"), "/dev/null"]);
            cmd.output().expect("script").into()
        };
        let first = on_tty("bp list");
        assert_eq!(first.stdout.matches(note).count(), 1, "{first}");
        assert!(
            first
                .stdout
                .contains("url = \"https://sap.example.com:44300\""),
            "{first}"
        );
        assert!(first.stdout.contains("user = \"DEV\""), "{first}");
        assert!(!first.stdout.contains("pw-agent-s3cret"), "{first}");
        // Once per session start: the session runs now.
        let second = on_tty("bp list");
        assert!(!second.stdout.contains(note), "{second}");
    } else {
        eprintln!("no 'script' here: the terminal part is skipped");
    }
    assert!(sh.ok(&["status"]).contains(note));
    // `abapdbg config`, which the note names, shows the profile to add.
    let config = sh.ok(&["config"]);
    assert!(config.contains("[profiles.agent]"), "{config}");
    assert!(config.contains("client = \"100\""), "{config}");
    assert!(!config.contains("pw-agent-s3cret"), "{config}");
    // A system chosen: no note.
    let sim = Simulator::start();
    let chosen = Shell::system("configured", &sim.url, "abap");
    assert!(!chosen.ok(&["status"]).contains(note));
}

/// Issue 25, item 12: `run` waits at most `--timeout` seconds (a system that answers slowly
/// here), then exits 3 with `state.timed_out` and says the program goes on.
#[test]
fn run_gives_up_waiting_after_its_timeout() {
    let sim = Simulator::start_with(&["--latency-ms", "1500"]);
    let sh = Shell::system("run-timeout", &sim.url, "abap");
    let started = Instant::now();
    let ran = sh.run(&["run", "ZCL_ABAPDBG_DEMO", "--timeout", "1"]);
    assert_eq!(ran.code, Some(3), "{ran}");
    assert!(ran.stderr.contains("state.timed_out"), "{ran}");
    assert!(ran.stderr.contains("the program goes on"), "{ran}");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
}

/// The samples of crates/sim that end in a short dump.
fn dump_fixtures() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/sim/tests/fixtures/dumps")
        .display()
        .to_string()
}

/// From "it dumped" to "stopped before it dumps": a class divides by zero, `dumps` lists it,
/// `dump show` has its line and exception, `dump catch` sets breakpoints, the next run stops
/// on the failing statement (naming the dump) with the variables that cause it, and a step
/// into it ends the run with a new dump.
#[test]
fn a_dump_listed_shown_and_caught_the_next_time() {
    let sim = Simulator::start_with(&["--programs", &dump_fixtures()]);
    let sh = Shell::system("dumps", &sim.url, "abap");
    const CLASS: &str = "ZCL_SMP_DUMP_ZERODIV";

    assert_eq!(sh.json(&["dumps"])["dumps"], serde_json::json!([]));
    assert_eq!(sh.ok(&["dumps"]), "no dumps\n");
    let died = sh.fails(&["run", CLASS], 1, "run.failed");
    assert!(died.stderr.contains("COMPUTE_INT_ZERODIVIDE"), "{died}");

    let listed = sh.json(&[
        "dumps",
        "--since",
        "1h",
        "--error",
        "COMPUTE_INT_ZERODIVIDE",
    ]);
    let dumps = listed["dumps"].as_array().expect("dumps");
    assert_eq!(dumps.len(), 1, "{listed}");
    let d = &dumps[0];
    assert_eq!(d["exception"], "CX_SY_ZERODIVIDE", "{d}");
    assert_eq!(d["line"], 31, "{d}");
    assert_eq!(d["file"], "zcl_smp_dump_zerodiv.clas.abap", "{d}");
    let id = d["id"].as_str().expect("id").to_string();
    // Another error's filter leaves it out.
    assert_eq!(
        sh.json(&["dumps", "--error", "STRING_SIZE_TOO_LARGE"])["dumps"],
        serde_json::json!([])
    );

    let table = sh.ok(&["dumps"]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 2, "{table}");
    assert!(lines[0].starts_with("TIME"), "{table}");
    assert!(
        lines[1].contains("COMPUTE_INT_ZERODIVIDE")
            && lines[1].contains("zcl_smp_dump_zerodiv.clas.abap:31")
            && lines[1].contains(&id),
        "{table}"
    );
    // The columns are aligned: each header starts where its cells do.
    let column = lines[0].find("RUNTIME ERROR").expect("column");
    assert_eq!(
        lines[1].find("COMPUTE_INT_ZERODIVIDE"),
        Some(column),
        "{table}"
    );

    let shown = sh.json(&["dump", "show", &id]);
    assert_eq!(shown["line"], 31, "{shown}");
    assert_eq!(shown["exception"], "CX_SY_ZERODIVIDE", "{shown}");
    assert_eq!(shown["stack"][0]["method"], "SHARE", "{shown}");
    let text = sh.ok(&["dump", "show", &id]);
    assert!(text.starts_with("COMPUTE_INT_ZERODIVIDE"), "{text}");
    assert!(text.contains("exception  CX_SY_ZERODIVIDE"), "{text}");
    assert!(
        text.contains("> 31      rv_share = lv_rest / iv_parts."),
        "the termination line marked: {text}"
    );
    assert!(text.contains("ZCL_SMP_DUMP_ZERODIV:31  SHARE"), "{text}");
    sh.fails(&["dump", "show", "NO_SUCH_DUMP"], 1, "dump.not_found");

    let caught = sh.json(&["dump", "catch", &id]);
    assert_eq!(caught["user"], "DEVELOPER", "{caught}");
    let kinds: Vec<&str> = caught["breakpoints"]
        .as_array()
        .expect("breakpoints")
        .iter()
        .filter_map(|b| b["kind"].as_str())
        .collect();
    assert_eq!(kinds, vec!["line", "exception"], "{caught}");

    let run = sh.json(&["run", CLASS]);
    let stop = &run["stop"];
    assert_eq!(stop["caught_for_dump"], id.as_str(), "{run}");
    assert_eq!(stop["frame"]["line"], 31, "{run}");
    assert_eq!(stop["frame"]["method"], "SHARE", "{run}");
    assert_eq!(sh.json(&["get", "IV_PARTS"])["variable"]["value"], "0");
    assert_eq!(sh.json(&["get", "LV_REST"])["variable"]["value"], "100");

    let step = sh.json(&["step", "into"]);
    assert_eq!(
        step["ended"]["run"]["error"]["code"], "run.failed",
        "{step}"
    );
    let again = sh.json(&["dumps"]);
    assert_eq!(again["dumps"].as_array().map(Vec::len), Some(2), "{again}");
    assert_ne!(
        again["dumps"][0]["id"],
        id.as_str(),
        "a new dump, newest first"
    );
    drop(sh);
    sim.stop();
}

/// A classrun of `class` by `user` on a connection of its own (not through our session).
fn classrun_as(url: &str, user: &str, class: &str) -> Result<String, adt::AdtError> {
    let config = adt::Config {
        base_url: url.to_string(),
        user: user.into(),
        password: "abap".into(),
        client: Some("001".into()),
        ..Default::default()
    };
    let client = adt::Client::new(&config, adt::SessionMode::Stateless).expect("client");
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(client.classrun(class))
}

/// `dump catch` of another user's dump: the breakpoints are that user's (`bp list` says so),
/// that user's next run stops for us naming the dump, and ours does not.
#[test]
fn another_users_dump_caught_in_that_users_next_run() {
    let sim = Simulator::start_with(&[
        "--programs",
        &dump_fixtures(),
        "--user",
        "DEVELOPER:abap",
        "--user",
        "TESTER:abap",
    ]);
    let sh = Shell::system("dumpuser", &sim.url, "abap");
    const CLASS: &str = "ZCL_SMP_DUMP_ZERODIV";
    assert!(
        classrun_as(&sim.url, "TESTER", CLASS).is_err(),
        "the run dies"
    );
    let listed = sh.json(&["dumps", "--user", "TESTER"]);
    let id = listed["dumps"][0]["id"].as_str().expect("id").to_string();
    let caught = sh.json(&["dump", "catch", &id]);
    assert_eq!(caught["user"], "TESTER", "{caught}");
    assert_eq!(caught["armed"], true, "{caught}");
    let table = sh.ok(&["bp", "list"]);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].contains("USER"), "{table}");
    assert!(
        lines.len() == 3 && lines[1..].iter().all(|l| l.contains("TESTER")),
        "{table}"
    );
    // Ours is not caught.
    sh.fails(&["run", CLASS], 1, "run.failed");
    // TESTER's is.
    let url = sim.url.clone();
    let theirs = std::thread::spawn(move || classrun_as(&url, "TESTER", CLASS).is_err());
    let wait = sh.json(&["wait"]);
    assert_eq!(wait["reached"], true, "{wait}");
    assert_eq!(wait["stop"]["caught_for_dump"], id.as_str(), "{wait}");
    assert_eq!(sh.json(&["get", "IV_PARTS"])["variable"]["value"], "0");
    sh.json(&["continue"]);
    assert!(theirs.join().expect("join"), "TESTER's run dies after it");
    drop(sh);
    sim.stop();
}

/// `abapdbg settings`: without flags it prints and changes nothing; a flag changes that one
/// setting, which the next call shows.
#[test]
fn debugger_settings_set_and_shown() {
    let sh = Shell::embedded("settings");
    assert_eq!(
        sh.ok(&["settings"]),
        "no debugger settings yet: the session applies the system's defaults\n"
    );
    let status = sh.ok(&["status"]);
    assert!(
        status
            .lines()
            .any(|l| l == "settings     the system's defaults"),
        "{status}"
    );
    assert_eq!(sh.json(&["status"])["settings"], serde_json::Value::Null);
    let set = sh.json(&["settings", "--system-debugging", "on"]);
    assert_eq!(set["settings"]["system_debugging"], true, "{set}");
    assert_eq!(set["settings"]["create_exception_object"], false, "{set}");
    let shown = sh.ok(&["settings"]);
    assert!(
        shown.lines().any(|l| l == "system-debugging         on"),
        "{shown}"
    );
    // status says which settings are on, by the flags' names.
    let status = sh.ok(&["status"]);
    assert!(
        status
            .lines()
            .any(|l| l == "settings     system-debugging on"),
        "{status}"
    );
    assert_eq!(sh.json(&["status"])["settings"]["system_debugging"], true);
    let off = sh.json(&["settings", "--system-debugging", "off"]);
    assert_eq!(off["settings"]["system_debugging"], false, "{off}");
    assert!(
        sh.ok(&["status"])
            .lines()
            .any(|l| l == "settings     all off"),
        "status after off"
    );
    let bad = sh.run(&["settings", "--system-debugging", "maybe"]);
    assert_eq!(bad.code, Some(2), "{bad}");
    assert!(bad.stdout.is_empty(), "{bad}");
}

/// A session the CLI starts says `hello` at once: `status`, the first command, already names
/// the system's release and capabilities (before, they stayed null until a `run`).
#[test]
fn status_names_the_system_from_the_first_command() {
    let sh = Shell::embedded("status-system");
    let status = sh.json(&["status"]);
    let release = status["system"]["release"].as_str().unwrap_or_default();
    assert!(!release.is_empty(), "{status}");
    assert!(status["system"]["capabilities"].is_object(), "{status}");
}

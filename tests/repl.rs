//! The interactive debugger (`abapdbg repl`) as a person uses it: in a pseudo-terminal (a
//! private tmux server), with a breakpoint set by the one-shot `bp set` and the program started
//! by `abapdbg run` in the background. Stop and source window, `v`, `n` with the changed
//! variable marked, `x lt_items`, `q` (after which nothing of ours is left on the system and
//! the program has finished), Tab completion of a variable and the history across two runs.
//!
//! Each test has its own runtime and state directories, so its own session daemon, which it
//! ends with `abapdbg shutdown` on drop. Waits poll the pane with a bound; nothing sleeps long.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use e2e::{Simulator, abapdbg_bin, sim_state};
use serde_json::Value;

/// Bounded waits for something that will happen (a screen line, a process end).
const SETTLE: Duration = Duration::from_secs(40);
/// What ZCL_ABAPDBG_ORDERS prints.
const ORDERS_OUTPUT: &str = "300 items for ACME\ndone 301";
const ORDERS: &str = "ZCL_ABAPDBG_ORDERS";
/// The prompt at the orders class's breakpoint line, and after the step over it.
const AT_67: &str = "abapdbg ZCL_ABAPDBG_ORDERS:67>";
const AT_68: &str = "abapdbg ZCL_ABAPDBG_ORDERS:68>";

/// Variables of the caller that would choose another system or session.
const INHERITED: &[&str] = &[
    "ABAPDBG_URL",
    "ABAPDBG_USER",
    "ABAPDBG_PASSWORD",
    "ABAPDBG_CLIENT",
    "ABAPDBG_ALLOW_WRITES",
    "ABAPDBG_TERMINAL_ID",
    "ABAPDBG_PROFILE",
    "ABAPDBG_LOG",
    "NO_COLOR",
];

/// One user's environment: its own runtime and state directories (so its own session), the
/// session shut down and the directory removed on drop.
struct Env {
    dir: PathBuf,
    vars: Vec<(String, String)>,
}

impl Env {
    fn new(name: &str, system: Option<&Simulator>) -> Env {
        let dir = std::env::temp_dir().join(format!("abapdbg-repl-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("home")).expect("temp dir");
        let path = |p: &str| dir.join(p).display().to_string();
        let mut vars = vec![
            (
                "PATH".to_string(),
                std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into()),
            ),
            ("HOME".into(), path("home")),
            ("LANG".into(), "C.UTF-8".into()),
            ("ABAPDBG_RUNTIME_DIR".into(), path("run")),
            ("ABAPDBG_STATE_DIR".into(), path("state")),
            ("XDG_CONFIG_HOME".into(), path("config")),
            ("ABAPDBG_BIN".into(), abapdbg_bin().display().to_string()),
        ];
        if let Some(sim) = system {
            vars.push(("ABAPDBG_URL".into(), sim.url.clone()));
            vars.push(("ABAPDBG_USER".into(), "DEVELOPER".into()));
            vars.push(("ABAPDBG_PASSWORD".into(), "abap".into()));
            vars.push(("ABAPDBG_CLIENT".into(), "001".into()));
        }
        Env { dir, vars }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(abapdbg_bin());
        cmd.args(args).current_dir(&self.dir).stdin(Stdio::null());
        for k in INHERITED {
            cmd.env_remove(k);
        }
        cmd.envs(self.vars.iter().map(|(k, v)| (k, v)));
        cmd
    }

    /// A call that must succeed; its stdout.
    fn ok(&self, args: &[&str]) -> String {
        let out: Output = self.command(args).output().expect("run abapdbg");
        assert!(
            out.status.success(),
            "abapdbg {}: {}\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn json(&self, args: &[&str]) -> Value {
        let out = self.ok(args);
        serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
    }

    /// `abapdbg <args>` in the background, its stdout and stderr to `log`.
    fn spawn(&self, args: &[&str], log: &Path) -> Child {
        let file = std::fs::File::create(log).expect("log file");
        let err = file.try_clone().expect("log file");
        self.command(args)
            .stdout(file)
            .stderr(err)
            .spawn()
            .expect("start abapdbg")
    }

    fn history(&self) -> String {
        std::fs::read_to_string(self.dir.join("state/abapdbg/repl_history")).unwrap_or_default()
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        // The session is a daemon: end it, whatever the test did.
        let _ = self.command(&["shutdown"]).output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

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

/// `abapdbg <args>` in a private tmux server; its exit status is printed after it as
/// `[exit N]`. The server is killed on drop.
struct Tmux {
    socket: PathBuf,
}

impl Tmux {
    fn start(env: &Env, name: &str, args: &str) -> Tmux {
        require_tmux();
        let socket = env.dir.join(format!("tmux-{name}.sock"));
        let line = format!(
            "'{}' {args}; echo \"[exit $?]\"; sleep 600",
            abapdbg_bin().display()
        );
        let status = Command::new("tmux")
            .env_clear()
            .envs(env.vars.iter().map(|(k, v)| (k, v)))
            .arg("-S")
            .arg(&socket)
            .args(["-f", "/dev/null", "new-session", "-d", "-s", "repl"])
            .args(["-x", "160", "-y", "50", "-c"])
            .arg(&env.dir)
            .args(["--", "sh", "-c", &line])
            .status()
            .expect("start tmux");
        assert!(status.success(), "tmux new-session failed");
        Tmux { socket }
    }

    fn tmux(&self) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.arg("-S").arg(&self.socket);
        cmd
    }

    fn type_text(&self, text: &str) {
        let ok = self
            .tmux()
            .args(["send-keys", "-t", "repl", "-l", text])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "tmux send-keys {text:?}");
    }

    fn key(&self, key: &str) {
        let ok = self
            .tmux()
            .args(["send-keys", "-t", "repl", key])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "tmux send-keys {key}");
    }

    /// Everything the pane showed, scrollback included.
    fn screen(&self) -> String {
        let out = self
            .tmux()
            .args(["capture-pane", "-t", "repl", "-p", "-J", "-S", "-"])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
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

    /// Types a command and Enter, and waits for the prompt after it, `next` (the stop's place
    /// may have changed); what the command printed.
    fn command(&self, line: &str, next: &str) -> String {
        let before = self.screen().trim_end().len();
        self.type_text(line);
        self.key("Enter");
        let screen = self.wait_for(&format!("'{line}' and the prompt after it"), |s| {
            s.get(before..)
                .and_then(|new| new.split_once('\n'))
                .is_some_and(|(_, out)| out.contains(next))
        });
        let new = screen.get(before..).unwrap_or_default();
        let out = new.split_once('\n').map_or("", |(_, out)| out);
        match out.rfind(next) {
            Some(end) => out[..end].to_string(),
            None => out.to_string(),
        }
    }
}

/// The text after the last `marker`.
fn after<'a>(screen: &'a str, marker: &str) -> &'a str {
    match screen.rfind(marker) {
        Some(at) => &screen[at + marker.len()..],
        None => "",
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

/// Waits (bounded) for a child to end; its exit code.
fn wait_exit(child: &mut Child) -> Option<i32> {
    let deadline = Instant::now() + SETTLE;
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

/// Starts the REPL, waits for its listener, runs the orders class in the background and waits
/// for the stop at line 67: the screen then, and the run's process (it returns at the stop).
fn stopped_at_67(env: &Env, name: &str, log: &Path) -> (Tmux, Child, String) {
    let tmux = Tmux::start(env, name, "repl");
    tmux.wait_for("the listener", |s| s.contains("listener armed"));
    let run = env.spawn(&["run", ORDERS], log);
    let screen = tmux.wait_for("the stop at line 67", |s| s.contains(AT_67));
    (tmux, run, screen)
}

/// Stop, source window, `v`, a hint in the REPL's words, `n` (the changed variable marked), `x lt_items`, `q`: after `q`
/// the program finished, with its output, and the session holds no listener, no stopped
/// program and no breakpoint on the system (it stays listed, disabled).
#[test]
fn stop_vars_next_expand_and_quit() {
    let env = Env::new("flow", None);
    env.ok(&["bp", "set", &format!("{ORDERS}:67")]);
    let log = env.dir.join("run.log");
    let (tmux, mut run, screen) = stopped_at_67(&env, "flow", &log);
    assert!(
        screen
            .contains("stopped at ZCL_ABAPDBG_ORDERS:67 in IF_OO_ADT_CLASSRUN~MAIN (breakpoint 1"),
        "{screen}"
    );
    assert!(
        screen.contains(">") && screen.contains("lv_count = lines( lt_items )."),
        "the source window: {screen}"
    );
    let current = screen
        .lines()
        .find(|l| l.starts_with("> "))
        .unwrap_or_default();
    assert!(
        current.contains("67") && current.contains("lines( lt_items )"),
        "{screen}"
    );
    // The run returns at the stop (the program goes on in the session).
    assert_eq!(wait_exit(&mut run), Some(0));

    let vars = tmux.command("v", AT_67);
    let count = vars
        .lines()
        .find(|l| l.contains("LV_COUNT"))
        .unwrap_or_default();
    assert!(count.trim_end().ends_with(" 0"), "{vars}");
    assert!(
        vars.lines()
            .any(|l| l.contains("LT_ITEMS") && l.contains("300 rows")),
        "{vars}"
    );
    // Nothing changed yet: no marks.
    assert!(!vars.lines().any(|l| l.starts_with('*')), "{vars}");
    // A hint names the REPL's command, not the one-shot command line's.
    let missing = tmux.command("p lv_nowhere", AT_67);
    assert!(
        missing.contains("variable.not_found")
            && missing.contains("(hint: 'v' lists the selected frame's variables)"),
        "{missing}"
    );

    let step = tmux.command("n", AT_68);
    assert!(step.contains("stopped at ZCL_ABAPDBG_ORDERS:68"), "{step}");
    assert!(step.contains("* LV_COUNT = 300 (was 0)"), "{step}");
    let vars = tmux.command("v", AT_68);
    let marked: Vec<&str> = vars.lines().filter(|l| l.starts_with('*')).collect();
    assert_eq!(marked.len(), 1, "{vars}");
    assert!(
        marked[0].contains("LV_COUNT") && marked[0].trim_end().ends_with("300"),
        "{vars}"
    );

    let rows = tmux.command("x lt_items", AT_68);
    assert!(rows.contains("rows 1–20 of 300"), "{rows}");
    assert!(
        rows.lines()
            .any(|l| l.contains("item 1") && l.contains("C1") && l.contains("1.25")),
        "{rows}"
    );

    tmux.type_text("q");
    tmux.key("Enter");
    let screen = tmux.wait_for("the exit", |s| s.contains("[exit "));
    let end = after(&screen, &format!("{AT_68} q"));
    assert!(end.contains("ended (detached"), "{screen}");
    assert!(end.contains(ORDERS_OUTPUT), "{screen}");
    assert!(end.contains("[exit 0]"), "{screen}");

    let status = env.json(&["status", "--json"]);
    assert_eq!(status["listener"]["wanted"], false, "{status}");
    assert_eq!(status["listener"]["armed"], false, "{status}");
    assert!(status["debuggee"].is_null(), "{status}");
    assert_eq!(status["last_end"]["reason"], "detached", "{status}");
    assert_eq!(status["last_end"]["output"], ORDERS_OUTPUT, "{status}");
    let bps = env.json(&["bp", "list", "--json"]);
    let list = bps["breakpoints"].as_array().expect("breakpoints");
    assert!(
        !list.is_empty() && list.iter().all(|b| b["status"] == "disabled"),
        "{bps}"
    );
    let history = env.history();
    assert!(history.contains("x lt_items"), "{history}");
}

/// Tab completes a variable name from the live session; the history of one REPL run is there
/// (Up) in the next. On `abapdbg sim`, whose state shows that `q` left nothing of ours.
#[test]
fn completion_and_history_across_runs() {
    let sim = Simulator::start();
    let env = Env::new("complete", Some(&sim));
    env.ok(&["bp", "set", &format!("{ORDERS}:67")]);

    let log = env.dir.join("run1.log");
    let (tmux, mut run, _) = stopped_at_67(&env, "first", &log);
    assert_eq!(wait_exit(&mut run), Some(0));
    tmux.type_text("p lt_it");
    tmux.key("Tab");
    tmux.wait_for("the completed name", |s| {
        s.contains(&format!("{AT_67} p LT_ITEMS"))
    });
    tmux.key("Enter");
    tmux.wait_for("the variable", |s| {
        s.lines()
            .any(|l| l.starts_with("LT_ITEMS") && l.contains("300 rows"))
    });
    // Components after LS_ORDER-: a menu of them, the common prefix filled in.
    tmux.type_text("p ls_order-num");
    tmux.key("Tab");
    tmux.wait_for("the completed component", |s| {
        s.contains(&format!("{AT_67} p LS_ORDER-NUMBER"))
    });
    tmux.key("Enter");
    tmux.wait_for("the component", |s| {
        s.lines()
            .any(|l| l.starts_with("NUMBER") && l.contains("0042"))
    });
    tmux.type_text("q");
    tmux.key("Enter");
    tmux.wait_for("the exit", |s| s.contains("[exit 0]"));
    drop(tmux);
    let history = env.history();
    assert!(history.contains("p LS_ORDER-NUMBER"), "{history}");

    // Nothing of ours is left on the system: no listener, no breakpoint, no stopped program.
    let state = sim_state(&sim.url);
    let ours = |v: &Value| v["user"] == "DEVELOPER";
    assert!(
        !state["listeners"]
            .as_array()
            .is_some_and(|l| l.iter().any(ours)),
        "{state}"
    );
    assert!(
        !state["debuggees"]
            .as_array()
            .is_some_and(|d| d.iter().any(ours)),
        "{state}"
    );
    assert!(
        state["breakpoints"]["DEVELOPER"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "{state}"
    );

    // The second run: the breakpoint on again, the history of the first one there.
    env.ok(&["bp", "enable", "--all"]);
    let log = env.dir.join("run2.log");
    let (tmux, mut run, _) = stopped_at_67(&env, "second", &log);
    assert_eq!(wait_exit(&mut run), Some(0));
    tmux.key("Up");
    tmux.wait_for("the last command of the first run", |s| {
        s.trim_end().ends_with(&format!("{AT_67} q"))
    });
    tmux.key("Up");
    tmux.wait_for("the one before it", |s| {
        s.trim_end()
            .ends_with(&format!("{AT_67} p LS_ORDER-NUMBER"))
    });
    tmux.key("C-u");
    // Ctrl-D quits like q.
    tmux.key("C-d");
    let screen = tmux.wait_for("the exit", |s| s.contains("[exit "));
    assert!(screen.contains("[exit 0]"), "{screen}");
    assert!(screen.contains("ended (detached"), "{screen}");
    let status = env.json(&["status", "--json"]);
    assert_eq!(status["listener"]["wanted"], false, "{status}");
    assert!(status["debuggee"].is_null(), "{status}");
}

/// Issue 25, item 4: a REPL whose terminal closes (SIGHUP, here the tmux server killed) at a
/// stop does what `q` does: our breakpoints come off, the program runs on to its end (the
/// `run` returns), nothing stays stopped — not after the session's grace period, at once.
#[test]
fn a_closed_terminal_lets_the_stopped_program_go() {
    let env = Env::new("hangup", None);
    env.ok(&["bp", "set", &format!("{ORDERS}:67")]);
    let log = env.dir.join("run.log");
    let (tmux, mut run, _) = stopped_at_67(&env, "hangup", &log);
    assert_eq!(wait_exit(&mut run), Some(0), "the run returns at the stop");
    drop(tmux); // kill-server: the terminal is gone, the REPL gets SIGHUP
    // Released within seconds (the session's grace period, 60 s, would be too late here).
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        let status = env.json(&["status", "--json"]);
        if status["threads"] == serde_json::json!([]) {
            break status;
        }
        assert!(Instant::now() < deadline, "still stopped: {status}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(status["last_end"]["reason"], "detached", "{status}");
    assert_eq!(status["listener"]["wanted"], false, "{status}");
    let listed = env.json(&["bp", "list", "--json"]);
    assert!(
        listed["breakpoints"]
            .as_array()
            .is_some_and(|b| b.iter().all(|b| b["enabled"] == false)),
        "our breakpoints are off the system: {listed}"
    );
}

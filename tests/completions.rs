//! Shell completion and the coproc recipe, as a shell user meets them: the checked-in bash, zsh
//! and fish scripts are what the binary generates; real bash, zsh and fish in a pseudo-terminal
//! (tmux), with the scripts sourced and (zsh, fish) installed where the shell looks for them
//! itself, complete live variable names in any case, components, breakpoint ids and object
//! names from a session stopped on the embedded simulator from the first Tab; with no session,
//! a completion is silent, quick and starts nothing; the coproc example under examples/ runs.
//! Each test has its own runtime and state directories and ends its session on drop.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use e2e::abapdbg_bin;

/// Variables of the caller that would choose another system or session; cleared for every call.
const INHERITED: &[&str] = &[
    "ABAPDBG_URL",
    "ABAPDBG_USER",
    "ABAPDBG_PASSWORD",
    "ABAPDBG_CLIENT",
    "ABAPDBG_LANGUAGE",
    "ABAPDBG_ALLOW_WRITES",
    "ABAPDBG_PROFILE",
    "ABAPDBG_LOG",
    "COMPLETE",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// `abapdbg` as the shell runs it from PATH (argv[0] = `abapdbg`, which the generated scripts
/// name), with only the variables given.
fn abapdbg(env: &[(&str, String)]) -> Command {
    let mut cmd = Command::new(abapdbg_bin());
    cmd.arg0("abapdbg").stdin(Stdio::null());
    for k in INHERITED {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

fn text(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The checked-in scripts are exactly what `COMPLETE=<shell> abapdbg` prints: they never go
/// stale. `ABAPDBG_BLESS=1` rewrites them.
#[test]
fn checked_in_scripts_are_what_the_binary_generates() {
    for (shell, file) in [
        ("bash", "abapdbg.bash"),
        ("zsh", "_abapdbg"),
        ("fish", "abapdbg.fish"),
    ] {
        let out = abapdbg(&[("COMPLETE", shell.to_string())])
            .output()
            .expect("run abapdbg");
        assert!(out.status.success(), "COMPLETE={shell}: {}", text(&out));
        let generated = String::from_utf8(out.stdout).expect("script is UTF-8");
        assert!(
            generated.contains("abapdbg"),
            "the {shell} script names the binary: {generated}"
        );
        let path = repo().join("completions").join(file);
        if std::env::var_os("ABAPDBG_BLESS").is_some() {
            std::fs::write(&path, &generated).expect("write script");
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == generated,
            "{} is stale: regenerate it with `COMPLETE={shell} abapdbg > completions/{file}` \
             (or ABAPDBG_BLESS=1 cargo test -p e2e --test tests completions::)",
            path.display()
        );
    }
}

/// One shell user's environment: its own runtime, state and config directories (so its own
/// session), `abapdbg` on PATH; the session is shut down and the directory removed on drop.
struct Env {
    dir: PathBuf,
    vars: Vec<(&'static str, String)>,
}

impl Env {
    fn new(name: &str) -> Env {
        let dir = std::env::temp_dir().join(format!("abapdbg-cmp-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let bin_dir = abapdbg_bin()
            .parent()
            .expect("binary directory")
            .to_path_buf();
        let path = format!(
            "{}:{}",
            bin_dir.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let vars = vec![
            ("PATH", path),
            ("HOME", dir.display().to_string()),
            ("ABAPDBG_RUNTIME_DIR", dir.join("run").display().to_string()),
            ("ABAPDBG_STATE_DIR", dir.join("state").display().to_string()),
            ("XDG_CONFIG_HOME", dir.join("config").display().to_string()),
            ("ABAPDBG_BIN", abapdbg_bin().display().to_string()),
        ];
        Env { dir, vars }
    }

    fn abapdbg(&self, args: &[&str]) -> Output {
        let mut cmd = abapdbg(&self.vars);
        cmd.current_dir(&self.dir).args(args);
        cmd.output().expect("run abapdbg")
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.abapdbg(args);
        assert!(
            out.status.success(),
            "abapdbg {}: {}",
            args.join(" "),
            text(&out)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Stops ZCL_ABAPDBG_ORDERS at line 67 (breakpoint 1) on the embedded simulator.
    fn stopped_in_orders(&self) {
        self.ok(&["bp", "set", "ZCL_ABAPDBG_ORDERS:67"]);
        let out = self.ok(&["run", "ZCL_ABAPDBG_ORDERS"]);
        assert!(out.contains("ZCL_ABAPDBG_ORDERS:67"), "stopped: {out}");
    }

    fn socket(&self) -> PathBuf {
        self.dir
            .join("run")
            .join("abapdbg")
            .join("session-embedded.sock")
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        if self.socket().exists() {
            let _ = self.abapdbg(&["shutdown"]);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A shell in a tmux pane of its own tmux server; the server is killed on drop.
struct Pane {
    server: String,
    /// Tabs that show a list of candidates (bash: two, zsh: one).
    list_tabs: usize,
}

impl Pane {
    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.server])
            .args(args)
            .output()
            .expect("run tmux (scripts/test-all.sh installs it)")
    }

    /// A shell with abapdbg's completion installed `how`: `bash`, `zsh` and `fish` source the
    /// checked-in script; `zsh-fpath` finds it on `fpath` (compinit autoloads it at the first
    /// Tab), `fish-dir` in fish's completions directory (loaded at the first Tab).
    fn start(env: &Env, how: &str) -> Pane {
        let script = |file: &str| repo().join("completions").join(file).display().to_string();
        let zsh = "zsh -f -i".to_string();
        // fish: a prompt ending in `$`, no greeting.
        let fish = "fish -i -C 'set -g fish_greeting; set -g fish_autosuggestion_enabled 0; function fish_prompt; echo -n \\$\\ ; end'"
            .to_string();
        let (program, setup, list_tabs) = match how {
            "bash" => (
                "bash --norc --noprofile -i".to_string(),
                format!("PS1='$ '; source {}", script("abapdbg.bash")),
                2,
            ),
            "zsh" => (
                zsh,
                format!(
                    "PS1='%% '; autoload -Uz compinit && compinit -u -D; source {}",
                    script("_abapdbg")
                ),
                1,
            ),
            "zsh-fpath" => (
                zsh,
                format!(
                    "PS1='%% '; fpath=({} $fpath); autoload -Uz compinit && compinit -u -D",
                    repo().join("completions").display()
                ),
                1,
            ),
            "fish" => (fish, format!("source {}", script("abapdbg.fish")), 1),
            "fish-dir" => {
                // XDG_CONFIG_HOME of this environment: ~/.config/fish/completions for fish.
                let dir = env.dir.join("config/fish/completions");
                std::fs::create_dir_all(&dir).expect("fish completions directory");
                std::fs::copy(script("abapdbg.fish"), dir.join("abapdbg.fish"))
                    .expect("install abapdbg.fish");
                (fish, "true".to_string(), 1)
            }
            other => panic!("no shell setup {other}"),
        };
        let shell = how;
        let server = format!("abapdbg-cmp-{shell}-{}", std::process::id());
        let pane = Pane { server, list_tabs };
        let vars: Vec<String> = env.vars.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let command = format!(
            "cd {} && env TERM=xterm {} {program}",
            env.dir.display(),
            vars.join(" ")
        );
        let out = pane.tmux(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            "220",
            "-y",
            "50",
            &command,
        ]);
        assert!(out.status.success(), "tmux new-session: {}", text(&out));
        pane.keys(&[&setup, "Enter"]);
        pane.wait_for("setup", |screen| screen.trim_end().ends_with(['$', '%']));
        pane
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        let out = self.tmux(&args);
        assert!(out.status.success(), "tmux send-keys: {}", text(&out));
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", "t"]).stdout).into_owned()
    }

    fn wait_for(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(Instant::now() < deadline, "{what}: the screen is\n{screen}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A clean prompt: Ctrl-C (whatever was typed or running), then `clear`, retried while
    /// a completion still in flight eats the keys.
    fn clean(&self) {
        for _ in 0..5 {
            self.keys(&["C-c"]);
            std::thread::sleep(Duration::from_millis(100));
            self.keys(&["clear", "Enter"]);
            let deadline = Instant::now() + Duration::from_secs(2);
            while Instant::now() < deadline {
                if self.screen().trim().len() <= 2 {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        panic!("no clean prompt: the screen is\n{}", self.screen());
    }

    /// Types `line` on a clean prompt and presses Tab (again, up to where a shell shows its
    /// list) until `expect` holds; the screen then.
    fn complete(&self, line: &str, expect: impl Fn(&str) -> bool) -> String {
        self.clean();
        self.keys(&["-l", line]);
        for _ in 1..self.list_tabs {
            self.keys(&["Tab"]);
            let deadline = Instant::now() + Duration::from_millis(400);
            while Instant::now() < deadline {
                let screen = self.screen();
                if expect(&screen) {
                    return screen;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        self.keys(&["Tab"]);
        self.wait_for(&format!("completing '{line}'"), expect)
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

/// Candidates at a stop, in real bash, zsh and fish, each way the script is installed, from
/// the first Tab of a new shell: a table's name (typed in either case), a structure's
/// components, breakpoint ids (zsh with their locations), the classes of the system, step
/// kinds, frames.
#[test]
fn bash_zsh_and_fish_complete_from_the_stopped_session() {
    let env = Env::new("live");
    env.stopped_in_orders();
    for how in ["bash", "zsh", "zsh-fpath", "fish", "fish-dir"] {
        let pane = Pane::start(&env, how);
        // The first Tab of the shell: one candidate, completed in place.
        pane.complete("abapdbg vars LT_", |s| s.contains("abapdbg vars LT_ITEMS"));
        // ABAP names in any case.
        pane.complete("abapdbg vars lt_", |s| s.contains("abapdbg vars LT_ITEMS"));
        pane.complete("abapdbg vars LS_ORDER-", |s| {
            s.contains("LS_ORDER-NUMBER")
                && s.contains("LS_ORDER-PLACED")
                && s.contains("LS_ORDER-WORDS")
        });
        if !how.starts_with("fish") {
            let ids = pane.complete("abapdbg bp delete ", |s| s.contains("--all"));
            let listed = ids.lines().any(|l| {
                l.split_whitespace().next() == Some("1")
                    && (how == "bash" || l.contains("-- ZCL_ABAPDBG_ORDERS:67"))
            });
            assert!(listed, "{how}: breakpoint 1 is offered:\n{ids}");
        }
        pane.complete("abapdbg bp set ZCL_ABAPDBG_", |s| {
            s.contains("ZCL_ABAPDBG_DEMO") && s.contains("ZCL_ABAPDBG_ORDERS")
        });
        pane.complete("abapdbg step ", |s| {
            ["into", "over", "out", "continue"]
                .iter()
                .all(|k| s.contains(k))
        });
        if !how.starts_with("fish") {
            pane.complete("abapdbg frame ", |s| {
                s.lines().any(|l| l.split_whitespace().next() == Some("0"))
            });
        }
        if how == "bash" {
            // No space after an object name completed as a location: `:line` follows.
            pane.complete("abapdbg bp set ZCL_ABAPDBG_ORD", |s| {
                s.contains("abapdbg bp set ZCL_ABAPDBG_ORDERS")
            });
            pane.keys(&["-l", ":67"]);
            pane.wait_for("typing :67 after the object name", |s| {
                s.contains("abapdbg bp set ZCL_ABAPDBG_ORDERS:67")
            });
        }
    }
}

/// `nu` 0.115.x: `NU_BIN`, else the one `npm ci --prefix tests/nu` installs (as tests/nu.rs).
fn nu_bin() -> PathBuf {
    let path = std::env::var_os("NU_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("tests/nu/node_modules/@nushell/linux-x64/bin/nu"));
    assert!(
        path.is_file(),
        "nu not found at {}: run `npm ci --prefix tests/nu` (scripts/test-all.sh does), or set \
         NU_BIN",
        path.display()
    );
    path
}

/// The Nushell recipe (completions/abapdbg.nu) as config.nu loads it: its external completer
/// offers the session's names for `abapdbg` lines (in any case) and leaves other commands to
/// Nushell (null).
#[test]
fn the_nushell_external_completer_offers_the_sessions_names() {
    let env = Env::new("nu");
    env.stopped_in_orders();
    let script = format!(
        "source {}; \
         let c = $env.config.completions.external.completer; \
         print (do $c [abapdbg vars lt_] | get value | to nuon); \
         print (do $c [abapdbg step ''] | get value | to nuon); \
         print (do $c [ls ''] | to nuon)",
        repo().join("completions/abapdbg.nu").display()
    );
    let mut cmd = Command::new(nu_bin());
    cmd.args(["--no-config-file", "-c", &script])
        .current_dir(&env.dir)
        .stdin(Stdio::null());
    for k in INHERITED {
        cmd.env_remove(k);
    }
    for (k, v) in &env.vars {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run nu");
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.first(), Some(&"[LT_ITEMS]"), "{}", text(&out));
    assert!(
        lines
            .get(1)
            .is_some_and(|l| l.starts_with("[into, over, out, continue")),
        "{}",
        text(&out)
    );
    assert_eq!(lines.get(2), Some(&"null"), "{}", text(&out));
}

/// With no session running a completion says nothing, quickly, and starts nothing.
#[test]
fn without_a_session_completion_is_silent_quick_and_starts_nothing() {
    let env = Env::new("none");
    let cases: &[&[&str]] = &[
        &["vars", "LT_"],
        &["get", "LS_ORDER-"],
        &["bp", "delete", "1"],
        &["bp", "set", "ZCL_"],
        &["thread", "1"],
        &["frame", "0"],
    ];
    let mut slowest = Duration::ZERO;
    for case in cases {
        let mut words = vec!["abapdbg"];
        words.extend_from_slice(case);
        let index = (words.len() - 1).to_string();
        let mut vars = env.vars.clone();
        vars.push(("COMPLETE", "bash".into()));
        let mut cmd = abapdbg(&vars);
        cmd.current_dir(&env.dir)
            .env("_CLAP_COMPLETE_INDEX", &index)
            .env("_CLAP_IFS", "\u{b}")
            .arg("--")
            .args(&words);
        let started = Instant::now();
        let out = cmd.output().expect("run abapdbg");
        let took = started.elapsed();
        slowest = slowest.max(took);
        assert!(out.status.success(), "{words:?}: {}", text(&out));
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{words:?} must print nothing: {}",
            text(&out)
        );
        assert!(took < Duration::from_secs(2), "{words:?} took {took:?}");
    }
    assert!(!env.socket().exists(), "a completion started a session");
    assert!(
        !env.dir.join("run").exists()
            || std::fs::read_dir(env.dir.join("run"))
                .map(|d| d.count())
                .unwrap_or(0)
                == 0,
        "a completion left something in the runtime directory"
    );
    eprintln!("slowest completion without a session: {slowest:?}");
}

/// The coproc example of README runs as a user would copy it.
#[test]
fn the_coproc_example_runs() {
    let env = Env::new("coproc");
    let mut cmd = Command::new("bash");
    cmd.arg(repo().join("examples/coproc-session.sh"))
        .current_dir(&env.dir)
        .stdin(Stdio::null());
    for k in INHERITED {
        cmd.env_remove(k);
    }
    for (k, v) in &env.vars {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run bash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", text(&out));
    for expected in [
        "breakpoint: 1 ZCL_ABAPDBG_ORDERS:67 verified",
        "stopped at ZCL_ABAPDBG_ORDERS:67",
        "LT_ITEMS = ",
        "after step over: line 68",
        "300 items for ACME",
        "done",
    ] {
        assert!(
            stdout.contains(expected),
            "missing '{expected}': {}",
            text(&out)
        );
    }
}

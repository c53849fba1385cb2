//! `abapdbg mcp` driven by the official MCP TypeScript SDK client (`@modelcontextprotocol/sdk`,
//! pinned in tests/mcp/package.json with the JSON Schema validator ajv; `npm ci --prefix
//! tests/mcp` installs them) against a simulator process: the node scripts in tests/mcp list
//! the tools and check every schema, run a whole debug session, refuse a write where writes
//! are not allowed, bound and cancel waits (with progress), serve over streamable HTTP with a
//! bearer token, and share one stop with a person at the REPL (in tmux). Every
//! structuredContent is validated against its tool's outputSchema there (lib.mjs).
//!
//! Each test has its own runtime and state directories, so its own session daemon; a guard
//! ends it with `abapdbg shutdown` should a failure leave it running. After each, the
//! simulator holds nothing of ours and no session runs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use e2e::{Simulator, abapdbg_bin, sim_state};

fn mcp_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mcp")
}

/// A test's private directories and the environment of every process it starts.
struct World {
    dir: PathBuf,
    url: String,
}

impl World {
    fn new(name: &str, url: &str) -> World {
        let dir = std::env::temp_dir().join(format!("abapdbg-mcp-{name}-{}", std::process::id()));
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
            .env("LANG", "C.UTF-8")
            .env("ABAPDBG_RUNTIME_DIR", path("run"))
            .env("ABAPDBG_STATE_DIR", path("state"))
            .env("ABAPDBG_BIN", abapdbg_bin())
            .env("MCP_SIM_URL", &self.url)
            .env("MCP_TEST_DIR", &self.dir);
        cmd
    }

    /// Whether a session socket is left in the runtime directory.
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
        for e in std::fs::read_dir(self.dir.join("state/abapdbg"))
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
            let _ = self
                .command(abapdbg_bin())
                .args(["shutdown", "--json"])
                .env("ABAPDBG_URL", &self.url)
                .env("ABAPDBG_USER", "DEVELOPER")
                .env("ABAPDBG_CLIENT", "001")
                .env("ABAPDBG_PASSWORD", "abap")
                .output();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn simulator() -> Simulator {
    let fixtures = mcp_dir().join("abap");
    let samples = mcp_dir()
        .join("../../samples")
        .canonicalize()
        .expect("samples/");
    // The samples that end in a short dump, for abap_dumps.
    let dumps = mcp_dir()
        .join("../../crates/sim/tests/fixtures/dumps")
        .canonicalize()
        .expect("crates/sim/tests/fixtures/dumps");
    Simulator::start_with(&[
        "--programs",
        &fixtures.display().to_string(),
        "--programs",
        &samples.display().to_string(),
        "--programs",
        &dumps.display().to_string(),
    ])
}

/// Runs one node test file against a fresh simulator; every one of its `tests` tests must
/// pass, and afterwards nothing of ours is left on the simulator and no session runs.
fn run_node_tests(name: &str, file: &str, tests: usize) {
    assert!(
        mcp_dir()
            .join("node_modules/@modelcontextprotocol/sdk")
            .exists(),
        "@modelcontextprotocol/sdk is not installed: run `npm ci --prefix tests/mcp` \
         (scripts/test-all.sh does)"
    );
    let sim = simulator();
    let world = World::new(name, &sim.url);
    let out = world
        .command("node")
        .args([
            "--test",
            "--test-reporter=tap",
            "--test-concurrency=1",
            file,
        ])
        .current_dir(mcp_dir())
        .output()
        .expect("run node (Node.js must be installed)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the MCP client's tests failed\nstdout:\n{stdout}\nstderr:\n{stderr}\nsession logs:\n{}",
        world.logs()
    );
    // Every test ran and passed (a filter or a skip must not pass silently).
    assert!(
        stdout.contains(&format!("# pass {tests}")) && stdout.contains("# fail 0"),
        "{stdout}"
    );

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
    let deadline = Instant::now() + Duration::from_secs(30);
    while world.socket_left() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(25));
    }
    assert!(
        !world.socket_left(),
        "a session still runs after abap_end shutdown"
    );
    assert!(sim.stop(), "the simulator exits cleanly");
}

/// tools/list and every schema; a whole session; writes refused where not allowed; bounded,
/// cancelled and progressing waits; unit tests; an exception breakpoint and a runtime error;
/// short dumps listed, read and caught.
#[test]
fn an_mcp_client_debugs_a_class_from_breakpoint_to_end() {
    run_node_tests("stdio", "mcp.test.mjs", 6);
}

/// Another debugger listens for the same user: abap_wait fails at once with a hint naming the
/// tool and argument to call (`abap_wait` with `take_over`), and that call takes it over.
#[test]
fn a_listener_conflict_hints_the_tool_to_call() {
    run_node_tests("conflict", "conflict.test.mjs", 1);
}

/// `--http 127.0.0.1:0`: streamable HTTP on loopback with a bearer token in a 0600 file;
/// without the token a request is refused, another address is refused at start.
#[test]
fn streamable_http_on_loopback_with_a_bearer_token() {
    run_node_tests("http", "http.test.mjs", 1);
}

/// A person at the REPL (in tmux) and the MCP client on the same stop of a program three calls
/// deep, each looking at its own frame: the agent's reads name their frame and never move the
/// REPL's.
#[test]
fn a_repl_and_an_mcp_client_look_at_different_frames_of_one_stop() {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "tmux not found: install it (`apt-get install tmux`; scripts/test-all.sh does)"
    );
    run_node_tests("repl", "repl.test.mjs", 1);
}

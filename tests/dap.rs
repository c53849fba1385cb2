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

use e2e::{Simulator, abapdbg_bin, sim_state};

fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The test's private directories and the environment of every process it starts.
struct World {
    dir: PathBuf,
    url: String,
}

impl World {
    fn new(url: &str) -> World {
        let dir = std::env::temp_dir().join(format!("abapdbg-dap-test-{}", std::process::id()));
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
            .env("ABAPDBG_URL", &self.url)
            .env("ABAPDBG_USER", "DEVELOPER")
            .env("ABAPDBG_CLIENT", "001")
            .env("ABAPDBG_PASSWORD", "abap");
        cmd
    }

    fn socket_left(&self) -> bool {
        std::fs::read_dir(self.dir.join("run"))
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .any(|e| e.file_name().to_string_lossy().ends_with(".sock"))
            })
            .unwrap_or(false)
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
    let world = World::new(&sim.url);
    let out = world
        .command("node")
        .args(["--test", "--test-reporter=tap", "dap.test.mjs"])
        .current_dir(&dap_dir)
        .env("DAP_SIM_URL", &sim.url)
        .env("DAP_FIXTURES", path_text(&fixtures))
        .env("DAP_DEMO_SOURCE", path_text(&demo))
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
        stdout.contains("# pass 4") && stdout.contains("# fail 0"),
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

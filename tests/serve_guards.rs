//! What `serve` must not do to its surroundings: change the mode of a directory it did not
//! make, take over another session's socket, report a session it did not start, or start one
//! behind `--relay`'s back.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use e2e::{Simulator, abapdbg_bin};
use serde_json::{Value, json};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("abapdbg-guards-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).expect("metadata").permissions().mode() & 0o7777
}

/// `abapdbg` with the simulator as system and the given runtime and state directories.
fn abapdbg(sim: &Simulator, run: &Path, state: &Path) -> Command {
    // An empty config file: no profile of the machine's user plays in.
    let config = run.with_extension("config.toml");
    let _ = std::fs::write(&config, "");
    let mut cmd = Command::new(abapdbg_bin());
    cmd.env("ABAPDBG_URL", &sim.url)
        .env("ABAPDBG_USER", "DEVELOPER")
        .env("ABAPDBG_PASSWORD", "abap")
        .env("ABAPDBG_CLIENT", "001")
        .env("ABAPDBG_RUNTIME_DIR", run)
        .env("ABAPDBG_STATE_DIR", state)
        .env_remove("ABAPDBG_PROFILE")
        .env("ABAPDBG_CONFIG", &config);
    cmd
}

/// A `serve` on stdin/stdout, read line by line.
struct Serve {
    child: Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

impl Serve {
    fn start(mut cmd: Command) -> Serve {
        let mut child = cmd
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start serve");
        let stdin = child.stdin.take();
        let lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut s = Serve {
            child,
            stdin,
            lines,
        };
        s.until(|v| v["event"] == "ready");
        s
    }

    fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        for line in self.lines.by_ref().map_while(Result::ok) {
            let v: Value = serde_json::from_str(&line).expect("JSON");
            if pred(&v) {
                return v;
            }
        }
        panic!("serve ended before the line the test waits for");
    }

    fn call(&mut self, id: u64, cmd: &str) -> Value {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{}", json!({"id": id, "cmd": cmd})).expect("write");
        self.until(|v| v["type"] == "response" && v["id"] == id)
    }

    /// Closes stdin; serve releases and ends. Its stderr.
    fn finish(mut self) -> String {
        drop(self.stdin.take());
        let out = self.child.wait_with_output().expect("serve ends");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    }
}

fn sockets_in(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "sock"))
                .collect()
        })
        .unwrap_or_default()
}

fn wait_for(what: &str, holds: impl Fn() -> bool) {
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1200 {
        if holds() {
            return;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    panic!("{what}");
}

#[test]
fn shared_directories_keep_their_mode_and_front_ends_find_the_socket() {
    let sim = Simulator::start();
    let dir = temp_dir("shared");
    // Shared directories, as /tmp is: whoever may write there, and sticky.
    let run = dir.join("shared-run");
    let state = dir.join("shared-state");
    for d in [&run, &state] {
        std::fs::create_dir_all(d).expect("dir");
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o1777)).expect("chmod");
    }
    let mut serve = Serve::start(abapdbg(&sim, &run, &state));
    let ours = run.join("abapdbg");
    wait_for("the socket is opened", || !sockets_in(&ours).is_empty());
    assert_eq!(mode(&run), 0o1777, "the runtime directory is as it was");
    assert_eq!(mode(&ours), 0o700, "ours is private");
    let set = serve.call(1, "bp.list");
    assert_eq!(set["ok"], true, "{set}");

    // A one-shot command (the session client's rule) finds this session's socket.
    let out = abapdbg(&sim, &run, &state)
        .args(["status", "--json"])
        .output()
        .expect("abapdbg status");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let status: Value = serde_json::from_slice(&out.stdout).expect("status JSON");
    assert_eq!(status["state"], "idle", "{status}");

    serve.finish();
    assert_eq!(mode(&run), 0o1777);
    assert_eq!(mode(&state), 0o1777, "the state directory is as it was");
    assert!(sockets_in(&ours).is_empty(), "the socket is gone");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_serve_with_another_state_dir_leaves_the_first_sessions_socket_alone() {
    let sim = Simulator::start();
    let dir = temp_dir("owner");
    let run = dir.join("run");
    let first = Serve::start(abapdbg(&sim, &run, &dir.join("state-a")));
    let ours = run.join("abapdbg");
    wait_for("the first socket is opened", || {
        !sockets_in(&ours).is_empty()
    });
    let socket = sockets_in(&ours).remove(0);
    let inode =
        |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).expect("socket"));
    let before = inode(&socket);

    // The second session (another state directory, so no state file stops it) serves on its
    // stdio only and says why; it neither replaces nor, on its way out, deletes the socket.
    let mut second = Serve::start(abapdbg(&sim, &run, &dir.join("state-b")));
    let st = second.call(1, "status");
    assert_eq!(st["ok"], true, "{st}");
    let said = second.finish();
    assert!(said.contains("cannot share"), "{said}");
    assert_eq!(
        inode(&socket),
        before,
        "the first session's socket is still its own"
    );

    // The first session is still reached through its socket.
    let stream = std::os::unix::net::UnixStream::connect(&socket).expect("connect");
    let mut ready = String::new();
    BufReader::new(stream).read_line(&mut ready).expect("ready");
    let ready: Value = serde_json::from_str(&ready).expect("JSON");
    assert_eq!(ready["body"]["pid"], first.child.id(), "{ready}");
    first.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn daemon_and_relay_say_what_is_true() {
    let sim = Simulator::start();
    let dir = temp_dir("daemon");
    let (run, state) = (dir.join("run"), dir.join("state"));

    // --relay with no session: refused, and nothing was started.
    let mut relay = abapdbg(&sim, &run, &state)
        .args(["serve", "--relay"])
        .stdin(Stdio::piped())
        .output()
        .expect("relay");
    assert!(!relay.status.success());
    let said = String::from_utf8_lossy(&relay.stderr);
    assert!(said.contains("no session runs"), "{said}");
    assert!(
        sockets_in(&run.join("abapdbg")).is_empty(),
        "nothing started"
    );

    let started = abapdbg(&sim, &run, &state)
        .args(["serve", "--daemon"])
        .output()
        .expect("serve --daemon");
    assert!(
        started.status.success(),
        "{}",
        String::from_utf8_lossy(&started.stderr)
    );
    let first: Value = serde_json::from_slice(&started.stdout).expect("one JSON line");
    let pid = first["pid"].as_u64().expect("pid");

    // A second --daemon starts nothing and names the session that runs.
    let again = abapdbg(&sim, &run, &state)
        .args(["serve", "--daemon"])
        .output()
        .expect("serve --daemon again");
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let second: Value = serde_json::from_slice(&again.stdout).expect("one JSON line");
    assert_eq!(second["already_running"], true, "{second}");
    assert_eq!(second["pid"], pid, "{second}");
    assert!(
        Path::new(&format!("/proc/{pid}")).exists(),
        "that session lives"
    );
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(said.contains("already serves"), "{said}");

    // A relay whose request fails exits non-zero; one whose requests succeed exits 0.
    let relay_lines = |lines: &[Value]| {
        let mut child = abapdbg(&sim, &run, &state)
            .args(["serve", "--relay"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("relay");
        let mut stdin = child.stdin.take().expect("stdin");
        for l in lines {
            writeln!(stdin, "{l}").expect("write");
        }
        drop(stdin);
        child.wait_with_output().expect("relay ends")
    };
    relay = relay_lines(&[json!({"id": 1, "cmd": "bp.delete", "args": {"id": 99}})]);
    assert!(!relay.status.success(), "a failed answer is a failed relay");
    let out = String::from_utf8_lossy(&relay.stdout);
    assert!(out.contains("breakpoint.not_found"), "{out}");
    relay = relay_lines(&[
        json!({"id": 1, "cmd": "status"}),
        json!({"id": 2, "cmd": "bp.list"}),
    ]);
    assert!(
        relay.status.success(),
        "{}",
        String::from_utf8_lossy(&relay.stderr)
    );
    let answers = String::from_utf8_lossy(&relay.stdout)
        .lines()
        .filter(|l| l.contains("\"type\":\"response\""))
        .count();
    assert_eq!(answers, 2);

    relay = relay_lines(&[json!({"id": "bye", "cmd": "shutdown"})]);
    assert!(
        relay.status.success(),
        "{}",
        String::from_utf8_lossy(&relay.stderr)
    );
    wait_for("the daemon ends", || {
        !Path::new(&format!("/proc/{pid}")).exists() || sockets_in(&run.join("abapdbg")).is_empty()
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// The most memory the process ever held (`VmHWM`), in bytes.
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .expect("VmHWM in /proc/<pid>/status")
}

#[test]
fn a_client_that_never_reads_cannot_grow_the_session() {
    let sim = Simulator::start();
    let dir = temp_dir("unread");
    let run = dir.join("run");
    let mut serve = Serve::start(abapdbg(&sim, &run, &dir.join("state")));
    let ours = run.join("abapdbg");
    wait_for("the socket is opened", || !sockets_in(&ours).is_empty());
    let socket = sockets_in(&ours).remove(0);
    // 6,000 `schema` answers of about 50 kB each: some 300 MB if the session kept them all.
    const REQUESTS: usize = 6000;
    let stream = std::os::unix::net::UnixStream::connect(&socket).expect("connect");
    let mut writes = stream.try_clone().expect("clone");
    let flood = std::thread::spawn(move || {
        for i in 0..REQUESTS {
            if writeln!(writes, "{}", json!({"id": i, "cmd": "schema"})).is_err() {
                return;
            }
        }
    });
    // The stdio client is answered all the while.
    for id in 0..5 {
        let st = serve.call(id, "status");
        assert_eq!(st["ok"], true, "{st}");
    }
    let _ = flood.join();
    // What the session wrote before it gave up on us, then the end of the connection.
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("timeout");
    let answers = BufReader::new(&stream)
        .lines()
        .map_while(Result::ok)
        .filter(|l| l.contains("\"type\":\"response\""))
        .count();
    assert!(
        answers < REQUESTS,
        "the session stopped writing to a client that did not read ({answers} answers)"
    );
    let peak = peak_memory(serve.child.id());
    eprintln!("peak memory of serve: {} MB", peak / (1024 * 1024));
    assert!(
        peak < 200 * 1024 * 1024,
        "the session's memory stayed bounded: peak {} MB",
        peak / (1024 * 1024)
    );
    let st = serve.call(99, "status");
    assert_eq!(st["ok"], true, "{st}");
    serve.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

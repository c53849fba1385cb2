//! `serve --daemon` runs the session in the background on its socket; `serve --relay` shares
//! it from another process; a second plain `serve` for the same system and user refuses.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use e2e::{Simulator, abapdbg_bin};
use serde_json::{Value, json};

fn serve_cmd(sim: &Simulator, dir: &std::path::Path) -> Command {
    let mut cmd = Command::new(abapdbg_bin());
    cmd.arg("serve")
        .env("ABAPDBG_URL", &sim.url)
        .env("ABAPDBG_USER", "DEVELOPER")
        .env("ABAPDBG_PASSWORD", "abap")
        .env("ABAPDBG_CLIENT", "001")
        .env("ABAPDBG_STATE_DIR", dir.join("state"))
        .env("ABAPDBG_RUNTIME_DIR", dir.join("run"));
    cmd
}

#[test]
fn a_daemon_session_is_shared_through_relays_and_ends_on_shutdown() {
    let sim = Simulator::start();
    let dir = std::env::temp_dir().join(format!("abapdbg-daemon-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = serve_cmd(&sim, &dir)
        .arg("--daemon")
        .output()
        .expect("run serve --daemon");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let started: Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    let socket = std::path::PathBuf::from(started["socket"].as_str().expect("socket path"));
    assert!(socket.exists(), "{started}");
    let pid = started["pid"].as_u64().expect("pid");

    // A second plain serve refuses and says how to share.
    let second = serve_cmd(&sim, &dir)
        .stdin(Stdio::null())
        .output()
        .expect("second serve");
    assert!(!second.status.success());
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(err.contains("--relay"), "{err}");

    // A relay: the first client sets a breakpoint, then leaves; the session keeps it.
    let mut relay = serve_cmd(&sim, &dir)
        .arg("--relay")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("relay");
    let mut stdin = relay.stdin.take().expect("stdin");
    writeln!(
        stdin,
        "{}",
        json!({"id": 1, "cmd": "bp.set", "args": {"location": "ZCL_ABAPDBG_DEMO:48"}})
    )
    .expect("write");
    drop(stdin);
    let lines: Vec<Value> = BufReader::new(relay.stdout.take().expect("stdout"))
        .lines()
        .map_while(Result::ok)
        .map(|l| serde_json::from_str(&l).expect("JSON"))
        .collect();
    assert!(relay.wait().expect("wait").success());
    assert_eq!(lines[0]["event"], "ready", "{lines:?}");
    let set = lines
        .iter()
        .find(|v| v["id"] == 1)
        .expect("bp.set answered");
    assert_eq!(
        set["result"]["breakpoints"][0]["status"], "verified",
        "{set}"
    );

    // Another relay sees the breakpoint and shuts the session down.
    let mut relay = serve_cmd(&sim, &dir)
        .arg("--relay")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("relay");
    let mut stdin = relay.stdin.take().expect("stdin");
    writeln!(stdin, "{}", json!({"id": "l", "cmd": "bp.list"})).expect("write");
    writeln!(stdin, "{}", json!({"id": "s", "cmd": "shutdown"})).expect("write");
    drop(stdin);
    let lines: Vec<Value> = BufReader::new(relay.stdout.take().expect("stdout"))
        .lines()
        .map_while(Result::ok)
        .map(|l| serde_json::from_str(&l).expect("JSON"))
        .collect();
    assert!(relay.wait().expect("wait").success());
    let list = lines
        .iter()
        .find(|v| v["id"] == "l")
        .expect("bp.list answered");
    assert_eq!(
        list["result"]["breakpoints"].as_array().map(Vec::len),
        Some(1),
        "{list}"
    );
    let bye = lines
        .iter()
        .find(|v| v["id"] == "s")
        .expect("shutdown answered");
    assert_eq!(bye["result"]["receipt"]["breakpoints_deleted"], 1, "{bye}");

    // The daemon is gone, and so is its socket.
    let mut gone = false;
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1200 {
        if !std::path::Path::new(&format!("/proc/{pid}")).exists() || !socket.exists() {
            gone = !socket.exists();
            if gone {
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    assert!(gone, "the daemon ended and removed its socket");
    let _ = std::fs::remove_dir_all(&dir);
}

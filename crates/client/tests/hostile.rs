//! Issue 25's guarantees on the client's side: files the configuration names are read only
//! when they are regular files, and only so much; a socket directory or a peer that is not
//! ours is refused; a reply line has a size limit; the system's words reach a terminal with
//! their escape codes escaped.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use client::{ClientError, Session, Target};

/// The abapdbg binary of this build (`ABAPDBG_BIN` overrides): target/<profile>/abapdbg.
fn abapdbg_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("ABAPDBG_BIN") {
        return PathBuf::from(bin);
    }
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent()
        .and_then(|deps| deps.parent())
        .expect("target directory")
        .join("abapdbg")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("abapdbg-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A target in `dir` with the variables `extra`.
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

/// The target of `vars` (which reads the config file) and its `connect_or_start`, on a thread
/// of their own: a hang is a failure, not a hung test.
fn connect_within(
    dir: &Path,
    vars: &[(&str, &str)],
    limit: Duration,
) -> Result<Session, ClientError> {
    let (tx, rx) = std::sync::mpsc::channel();
    let dir = dir.to_path_buf();
    let vars: Vec<(String, String)> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    std::thread::spawn(move || {
        let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let _ = tx.send(Session::connect_or_start(&target(&dir, &vars)));
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("no answer within {limit:?}: the client hangs"))
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

#[test]
fn a_fifo_as_the_config_file_fails_at_once_with_a_config_error() {
    let dir = temp_dir("fifo-config");
    let fifo = dir.join("config.toml");
    mkfifo(&fifo);
    let started = Instant::now();
    let fifo_text = fifo.display().to_string();
    let vars = [("ABAPDBG_CONFIG", fifo_text.as_str())];
    let e = match connect_within(&dir, &vars, Duration::from_secs(10)) {
        Err(e) => e,
        Ok(_) => panic!("a session was reached with a FIFO as the config file"),
    };
    assert!(started.elapsed() < Duration::from_secs(5), "{e}");
    assert_eq!(e.code(), "config.invalid", "{e}");
    assert!(e.to_string().contains("a FIFO, not a regular file"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_device_or_fifo_as_ca_bundle_or_certificate_fails_the_start_at_once() {
    let dir = temp_dir("fifo-ca");
    let fifo = dir.join("ca.pem");
    mkfifo(&fifo);
    let fifo_text = fifo.display().to_string();
    for (variable, value, says) in [
        ("ABAPDBG_CA_BUNDLE", "/dev/zero", "a character device"),
        ("ABAPDBG_CA_BUNDLE", fifo_text.as_str(), "a FIFO"),
        ("ABAPDBG_CLIENT_CERT", "/dev/zero", "a character device"),
        ("ABAPDBG_CLIENT_CERT", fifo_text.as_str(), "a FIFO"),
    ] {
        let started = Instant::now();
        let vars = [
            ("ABAPDBG_URL", "https://127.0.0.1:9"),
            ("ABAPDBG_USER", "DEVELOPER"),
            ("ABAPDBG_PASSWORD", "x"),
            (variable, value),
        ];
        match connect_within(&dir, &vars, Duration::from_secs(10)) {
            Err(ClientError::Start(reason)) => {
                assert!(
                    reason.contains(says) && reason.contains("not a regular file"),
                    "{variable}={value}: {reason}"
                );
            }
            Err(other) => panic!("{variable}={value}: expected a start error, got {other}"),
            Ok(_) => panic!("{variable}={value}: started"),
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{variable}={value}: took {:?}",
            started.elapsed()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether this test runs as root (what CI runs as): then a second local user can be made.
fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// A second local user (made once, with `useradd`); its uid.
fn other_user() -> u32 {
    static MADE: std::sync::Mutex<Option<u32>> = std::sync::Mutex::new(None);
    let mut made = MADE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(uid) = *made {
        return uid;
    }
    let uid = || {
        std::process::Command::new("id")
            .args(["-u", OTHER])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| {
                String::from_utf8_lossy(&o.stdout)
                    .trim()
                    .parse::<u32>()
                    .ok()
            })
    };
    if uid().is_none() {
        let status = std::process::Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                OTHER,
            ])
            .status()
            .expect("run useradd");
        // Another test binary may have made it at the same moment.
        assert!(status.success() || uid().is_some(), "useradd {OTHER}");
    }
    let found = uid().expect("the other user's uid");
    *made = Some(found);
    found
}

const OTHER: &str = "abapdbgpeer";

/// The runtime directory of a target in `dir`, made as `serve` makes it (0700, ours).
fn own_socket_dir(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let own = dir.join("run").join(client::OWN_DIR);
    std::fs::create_dir_all(&own).expect("socket dir");
    std::fs::set_permissions(&own, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    own
}

/// A peer of our own user at `socket` that answers every line with `reply(line)` (or, when
/// that is `None`, writes `flood` bytes of one endless line).
fn fake_session(socket: &Path, reply: impl Fn(&str) -> Vec<u8> + Send + 'static) {
    let listener = std::os::unix::net::UnixListener::bind(socket).expect("bind");
    std::thread::spawn(move || {
        use std::io::{BufRead, Write};
        while let Ok((stream, _)) = listener.accept() {
            let mut writer = stream.try_clone().expect("clone");
            let mut lines = std::io::BufReader::new(stream).lines();
            while let Some(Ok(line)) = lines.next() {
                if writer.write_all(&reply(&line)).is_err() {
                    break;
                }
            }
        }
    });
}

fn socket_of(dir: &Path) -> PathBuf {
    target(dir, &[]).socket_path().expect("socket path")
}

#[test]
fn a_socket_directory_others_can_write_or_own_is_refused_and_says_why() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("shared-dir");
    let own = own_socket_dir(&dir);
    let socket = socket_of(&dir);
    fake_session(&socket, |_| b"{}\n".to_vec());
    // Writable by others: anyone could have put the socket there.
    std::fs::set_permissions(&own, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let e = Session::connect_path(&socket).err().expect("refused");
    assert_eq!(e.code(), "session.untrusted", "{e}");
    assert!(
        e.to_string().contains("can be written by other users"),
        "{e}"
    );
    assert!(e.hint().is_some_and(|h| h.contains("ABAPDBG_RUNTIME_DIR")));
    // The same through the target, as every front end connects.
    let e = Session::connect(&target(&dir, &[])).err().expect("refused");
    assert_eq!(e.code(), "session.untrusted", "{e}");
    std::fs::set_permissions(&own, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    assert!(Session::connect_path(&socket).is_ok());

    if !is_root() {
        eprintln!("skipped the part with a second local user: it needs root (useradd, chown)");
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    // Owned by another user.
    let uid = other_user();
    std::os::unix::fs::chown(&own, Some(uid), None).expect("chown");
    let e = Session::connect_path(&socket).err().expect("refused");
    assert_eq!(e.code(), "session.untrusted", "{e}");
    assert!(
        e.to_string()
            .contains(&format!("belongs to another user (uid {uid}")),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// As the other user, listens at `socket` and answers any request with a forged stop.
/// Runs this test binary again (`ABAPDBG_IMPOSTOR` names the socket).
#[test]
#[ignore = "a helper that another test runs as a second local user"]
fn impostor_helper() {
    let Some(socket) = std::env::var_os("ABAPDBG_IMPOSTOR") else {
        return;
    };
    let listener = std::os::unix::net::UnixListener::bind(&socket).expect("bind");
    println!("listening");
    if let Ok((stream, _)) = listener.accept() {
        use std::io::Write;
        let mut s = &stream;
        let forged = "{\"type\":\"event\",\"seq\":1,\"event\":\"stopped\",\"body\":{\"reason\":\"breakpoint\",\"frame\":{\"program\":\"\\u001b[2JPWNED\"}}}\n";
        let _ = s.write_all(forged.as_bytes());
        std::thread::sleep(Duration::from_secs(5));
    }
}

#[test]
fn a_session_socket_served_by_another_user_is_refused() {
    if !is_root() {
        eprintln!("skipped: needs root to make a second local user and run a process as it");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let uid = other_user();
    let dir = temp_dir("impostor");
    own_socket_dir(&dir);
    let socket = socket_of(&dir);
    // The other user binds in a directory of its own; the socket is then moved into ours, as
    // if it had been there (a shared runtime directory, an earlier session of theirs).
    let theirs = dir.join("theirs");
    std::fs::create_dir_all(&theirs).expect("their dir");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::os::unix::fs::chown(&theirs, Some(uid), None).expect("chown");
    let bound = theirs.join("s.sock");
    let exe = std::env::current_exe().expect("test binary");
    let mut helper = std::process::Command::new("runuser")
        .args(["-u", OTHER, "--", "env"])
        .arg(format!("ABAPDBG_IMPOSTOR={}", bound.display()))
        .arg(&exe)
        .args([
            "--exact",
            "hostile::impostor_helper",
            "--ignored",
            "--nocapture",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("runuser");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !bound.exists() {
        assert!(
            Instant::now() < deadline,
            "the other user's process did not listen"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::rename(&bound, &socket).expect("move the socket into our directory");
    let e = Session::connect_path(&socket).err().expect("refused");
    assert_eq!(e.code(), "session.untrusted", "{e}");
    assert!(
        e.to_string()
            .contains(&format!("runs as another user (uid {uid}")),
        "{e}"
    );
    let _ = helper.kill();
    let _ = helper.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reply_line_over_the_limit_ends_the_connection_instead_of_growing() {
    let dir = temp_dir("flood");
    own_socket_dir(&dir);
    let socket = socket_of(&dir);
    // One line a little over the limit, and no newline: without a limit the client would wait
    // for its end, holding all of it.
    let limit = client::MAX_REPLY_BYTES;
    fake_session(&socket, move |_| vec![b'x'; limit + (1 << 20)]);
    let session = Session::connect_path(&socket).expect("connect");
    let started = Instant::now();
    let e = session
        .request(
            "status",
            serde_json::json!({}),
            Duration::from_secs(60),
            &|| false,
        )
        .expect_err("no answer");
    assert!(matches!(e, ClientError::Disconnected), "{e}");
    assert!(started.elapsed() < Duration::from_secs(50));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn escape_codes_in_the_sessions_errors_are_escaped() {
    let dir = temp_dir("escapes");
    own_socket_dir(&dir);
    let socket = socket_of(&dir);
    fake_session(&socket, |line| {
        let request: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
        let answer = serde_json::json!({
            "type": "response", "id": request["id"], "seq": 1, "cmd": "status", "ok": false, "state": "idle",
            "error": {"code": "adt.backend_exception", "retryable": false,
                      "message": "\u{1b}[2J\u{1b}]0;owned\u{7}Dump \u{1b}[31mRABAX\rX",
                      "hint": "\u{1b}[8mhidden"}
        });
        format!("{answer}\n").into_bytes()
    });
    let session = Session::connect_path(&socket).expect("connect");
    let e = session
        .request(
            "status",
            serde_json::json!({}),
            Duration::from_secs(10),
            &|| false,
        )
        .expect_err("an error");
    let p = e.protocol().expect("a protocol error").clone();
    for text in [
        p.message.as_str(),
        p.hint.as_deref().unwrap_or_default(),
        &e.to_string(),
    ] {
        assert!(
            !text
                .chars()
                .any(|c| c.is_control() && c != '\n' && c != '\t'),
            "{text:?}"
        );
    }
    assert_eq!(
        p.message,
        "\\u{1b}[2J\\u{1b}]0;owned\\u{7}Dump \\u{1b}[31mRABAX\\rX"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The status line of a raw HTTP/1.1 request to `base` (`http://host:port`).
fn http_status(base: &str, request_head: &str, body: &str) -> String {
    use std::io::{Read, Write};
    let host = base.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(host).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    write!(
        stream,
        "{request_head}\r\nHost: {host}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut raw = String::new();
    let _ = stream.read_to_string(&mut raw);
    raw.lines().next().unwrap_or_default().to_string()
}

#[test]
fn the_embedded_simulator_is_closed_to_other_local_users() {
    let dir = temp_dir("embedded");
    let t = target(&dir, &[]);
    let session = Session::connect_or_start(&t).expect("the embedded session");
    let never = || false;
    let hello = session
        .request(
            "hello",
            serde_json::json!({}),
            Duration::from_secs(60),
            &never,
        )
        .expect("hello");
    let url = hello["system"]["url"]
        .as_str()
        .expect("system url")
        .to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    // Whoever reaches the port: the sample user's documented password is refused…
    let logon = http_status(
        &url,
        "GET /sap/bc/adt/compatibility/graph HTTP/1.1\r\nAuthorization: Basic REVWRUxPUEVSOmFiYXA=\r\nx-csrf-token: fetch\r\nsap-client: 001",
        "",
    );
    assert!(logon.contains(" 401"), "{logon}");
    // …and so is the admin API, faults included.
    let faults = http_status(
        &url,
        "PUT /sim/faults HTTP/1.1\r\nContent-Type: application/json",
        r#"{"latencyMs":600000}"#,
    );
    assert!(faults.contains(" 403"), "{faults}");
    let state = http_status(&url, "GET /sim/state HTTP/1.1", "");
    assert!(state.contains(" 403"), "{state}");
    // The owner's session logs on and works as before.
    assert_eq!(
        hello["system"]["logon"]["ok"],
        serde_json::json!(true),
        "{hello}"
    );
    let started = Instant::now();
    let set = session
        .request(
            "bp.set",
            serde_json::json!({"location": "ZCL_ABAPDBG_DEMO:48"}),
            Duration::from_secs(60),
            &never,
        )
        .expect("bp.set");
    assert_eq!(set["breakpoints"][0]["status"], "verified", "{set}");
    assert!(started.elapsed() < Duration::from_secs(10));
    let _ = session.request(
        "shutdown",
        serde_json::json!({}),
        Duration::from_secs(60),
        &never,
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_standalone_simulator_keeps_its_defaults_and_says_it_is_open() {
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(abapdbg_bin())
        .arg("sim")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("abapdbg sim");
    let stdout = child.stdout.take().expect("stdout");
    let stderr = child.stderr.take().expect("stderr");
    let mut url = String::new();
    let _ = BufReader::new(stdout).read_line(&mut url);
    let url = url.trim().to_string();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut warned = None;
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(10)) {
        if line.contains("open to every local user") {
            warned = Some(line);
            break;
        }
    }
    // The documented logon and the open admin API stay.
    let logon = http_status(
        &url,
        "GET /sap/bc/adt/compatibility/graph HTTP/1.1\r\nAuthorization: Basic REVWRUxPUEVSOmFiYXA=\r\nx-csrf-token: fetch\r\nsap-client: 001",
        "",
    );
    let state = http_status(&url, "GET /sim/state HTTP/1.1", "");
    let _ = child.kill();
    let _ = child.wait();
    let warned = warned.expect("a warning on stderr");
    assert!(warned.contains("/sim/"), "{warned}");
    assert!(logon.contains(" 200"), "{logon}");
    assert!(state.contains(" 200"), "{state}");
}

#[test]
fn serve_relay_refuses_a_socket_directory_others_can_write() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("relay");
    let own = own_socket_dir(&dir);
    let socket = socket_of(&dir);
    fake_session(&socket, |_| b"{}\n".to_vec());
    std::fs::set_permissions(&own, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let out = std::process::Command::new(abapdbg_bin())
        .args(["serve", "--relay"])
        .env_clear()
        .env("ABAPDBG_RUNTIME_DIR", dir.join("run"))
        .env("ABAPDBG_STATE_DIR", dir.join("state"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("abapdbg serve --relay");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("can be written by other users"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_relay_reads_a_reply_line_with_a_limit() {
    use std::io::{Read, Write};
    let dir = temp_dir("relay-flood");
    own_socket_dir(&dir);
    let socket = socket_of(&dir);
    let limit = client::MAX_REPLY_BYTES;
    fake_session(&socket, move |_| vec![b'x'; limit + (1 << 20)]);
    let mut child = std::process::Command::new(abapdbg_bin())
        .args(["serve", "--relay"])
        .env_clear()
        .env("ABAPDBG_RUNTIME_DIR", dir.join("run"))
        .env("ABAPDBG_STATE_DIR", dir.join("state"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("abapdbg serve --relay");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"{\"id\":1,\"cmd\":\"status\"}\n");
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut stderr);
    }
    let status = status.expect("the relay ends instead of waiting for the end of the line");
    assert!(!status.success(), "{stderr}");
    assert!(stderr.contains("longer than"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

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

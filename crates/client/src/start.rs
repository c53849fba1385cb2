//! Starting a session in the background when none runs: `abapdbg serve --daemon`.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::error::ClientError;
use crate::target::Target;

/// The `abapdbg` binary that starts sessions: the caller's `ABAPDBG_BIN`, else the one next
/// to the running binary (the plugin and the CLI are built into the same directory), else
/// `abapdbg` from `PATH`.
pub fn daemon_binary(target: &Target) -> PathBuf {
    if let Some(bin) = &target.bin {
        return bin.clone();
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join("abapdbg")))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("abapdbg"))
}

/// Runs `abapdbg serve --daemon` for `target` and waits until it says where it listens.
/// The daemon sees exactly the target's settings as variables (profile fields included, so it
/// serves what the caller resolved) and the secrets obtained now (a profile's
/// `password_command` runs here, once per start), in its environment: never on a command line.
pub(crate) fn start_daemon(target: &Target) -> Result<(), ClientError> {
    let credentials = target.credentials()?;
    if target.insecure() {
        eprintln!(
            "abapdbg: warning: server certificates of {} are not checked (insecure): anyone on \
             the network path can read and change the session",
            target.describe()
        );
    }
    let bin = daemon_binary(target);
    let mut cmd = Command::new(&bin);
    cmd.args(["serve", "--daemon"]);
    for (name, value) in target.daemon_env(&credentials) {
        match value {
            Some(v) => cmd.env(name, v),
            None => cmd.env_remove(name),
        };
    }
    // The daemon runs on its own; its launcher ends once the socket accepts.
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| ClientError::Start(format!("{}: {e}", bin.display())))?;
    let mut out = String::new();
    let mut err = String::new();
    if let Some(mut s) = child.stdout.take() {
        let _ = s.read_to_string(&mut out);
    }
    if let Some(mut s) = child.stderr.take() {
        let _ = s.read_to_string(&mut err);
    }
    let status = child
        .wait()
        .map_err(|e| ClientError::Start(format!("{}: {e}", bin.display())))?;
    if status.success() {
        return Ok(());
    }
    let said = err
        .trim()
        .lines()
        .last()
        .unwrap_or("")
        .trim_start_matches("abapdbg: ");
    Err(ClientError::Start(if said.is_empty() {
        format!("{} serve --daemon failed ({status})", bin.display())
    } else {
        // The daemon's words may quote the system's.
        crate::guard::printable(said)
    }))
}

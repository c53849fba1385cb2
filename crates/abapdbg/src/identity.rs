//! Who we are to the system: a terminal id stable per machine and an id per process.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// 32 upper-case hex characters derived from the machine (ABAPDBG_TERMINAL_ID overrides), so
/// listeners and breakpoints of earlier sessions on this machine can be found again.
pub(crate) fn terminal_id() -> String {
    if let Ok(id) = std::env::var("ABAPDBG_TERMINAL_ID")
        && !id.trim().is_empty()
    {
        return id.trim().to_string();
    }
    let machine = std::fs::read_to_string("/etc/machine-id")
        .or_else(|_| std::fs::read_to_string("/proc/sys/kernel/hostname"))
        .unwrap_or_else(|_| "abapdbg".into());
    hex32(&["terminal", machine.trim()])
}

/// 32 upper-case hex characters unique to this process.
pub(crate) fn ide_id() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    hex32(&["ide", &std::process::id().to_string(), &now.to_string()])
}

/// Where this system and user's session records what it holds (see the engine's state file):
/// in [`client::state_dir`] (`$ABAPDBG_STATE_DIR/abapdbg`, `$XDG_STATE_HOME/abapdbg` or
/// `~/.local/state/abapdbg`). One file per system URL, client and user, so one `serve` owns a
/// profile at a time.
pub(crate) fn state_file(system: Option<&adt::Config>) -> Option<std::path::PathBuf> {
    Some(state_dir()?.join(jsonl::paths::state_file(&profile(system))))
}

fn env(k: &str) -> Option<String> {
    std::env::var(k).ok()
}

/// The state directory (`$ABAPDBG_STATE_DIR/abapdbg`, …): state files, logs, and the cache of
/// what each system offers.
pub(crate) fn state_dir() -> Option<std::path::PathBuf> {
    client::state_dir(env)
}

/// The session's Unix socket, by the session client's rule ([`client::socket_dir`]), so front
/// ends find it.
pub(crate) fn socket_path(system: Option<&adt::Config>) -> Option<std::path::PathBuf> {
    let dir = client::socket_dir(env)?;
    Some(dir.join(jsonl::paths::socket_file(&profile(system))))
}

/// Where a background session writes its log.
pub(crate) fn daemon_log(system: Option<&adt::Config>) -> Option<std::path::PathBuf> {
    Some(state_dir()?.join(jsonl::paths::log_file(&profile(system))))
}

/// One name per system URL, client and user; `embedded` for the embedded simulator. The rule
/// lives in the session client so front ends find the socket `serve` opens.
/// `system` is `None` for the embedded simulator.
fn profile(system: Option<&adt::Config>) -> String {
    match system {
        None => client::profile_key(None, None, ""),
        Some(adt) => client::profile_key(Some(&adt.base_url), adt.client.as_deref(), &adt.user),
    }
}

fn hex32(parts: &[&str]) -> String {
    let mut out = String::with_capacity(32);
    for salt in 0u8..2 {
        let mut h = DefaultHasher::new();
        salt.hash(&mut h);
        parts.hash(&mut h);
        out.push_str(&format!("{:016X}", h.finish()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_32_hex() {
        for id in [terminal_id(), ide_id()] {
            assert_eq!(id.len(), 32, "{id}");
            assert!(id.chars().all(|c| c.is_ascii_hexdigit()), "{id}");
        }
        assert_eq!(hex32(&["a"]), hex32(&["a"]));
        assert_ne!(hex32(&["a"]), hex32(&["b"]));
    }
}

//! Which system a front end means, and where that system's session listens.
//!
//! Everything comes from the *caller's* environment through a lookup function: in Nushell
//! that is `$env` as the engine reports it, not the plugin process's own environment.

use std::path::PathBuf;

/// Variables that choose the system, its credentials and where sessions keep their files.
/// A daemon started for a target gets exactly these from the caller's environment.
pub(crate) const VARIABLES: &[&str] = &[
    "ABAPDBG_URL",
    "ABAPDBG_USER",
    "ABAPDBG_PASSWORD",
    "ABAPDBG_CLIENT",
    "ABAPDBG_LANGUAGE",
    "ABAPDBG_ALLOW_WRITES",
    "ABAPDBG_RUNTIME_DIR",
    "ABAPDBG_STATE_DIR",
    "ABAPDBG_TERMINAL_ID",
    "ABAPDBG_LOG",
    "XDG_RUNTIME_DIR",
    "XDG_STATE_HOME",
    "HOME",
];

/// The system a front end talks to, read from the caller's environment.
#[derive(Clone, PartialEq, Eq)]
pub struct Target {
    /// The caller's values of [`VARIABLES`] that are set and not blank.
    vars: Vec<(&'static str, String)>,
    /// `ABAPDBG_BIN` of the caller, if set: the binary that starts sessions.
    pub(crate) bin: Option<PathBuf>,
}

// The password must never reach a log or an error message.
impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("system", &self.describe())
            .finish_non_exhaustive()
    }
}

impl Target {
    /// Reads the target from the process environment.
    pub fn from_process_env() -> Target {
        Target::from_lookup(|k| std::env::var(k).ok())
    }

    /// Reads the target through `lookup` (a variable's value in the caller's environment).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Target {
        let get = |k: &str| lookup(k).filter(|v| !v.trim().is_empty());
        Target {
            vars: VARIABLES
                .iter()
                .filter_map(|k| get(k).map(|v| (*k, v)))
                .collect(),
            bin: get("ABAPDBG_BIN").map(PathBuf::from),
        }
    }

    pub(crate) fn var(&self, name: &str) -> Option<&str> {
        self.vars
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The system's URL; `None` means the embedded simulator.
    pub fn url(&self) -> Option<&str> {
        self.var("ABAPDBG_URL")
    }

    /// `user@url` (client), or "the embedded simulator": for messages.
    pub fn describe(&self) -> String {
        match self.url() {
            None => "the embedded simulator".into(),
            Some(url) => {
                let user = self.var("ABAPDBG_USER").unwrap_or("?");
                match self.var("ABAPDBG_CLIENT") {
                    Some(c) => format!("{user}@{url} (client {c})"),
                    None => format!("{user}@{url}"),
                }
            }
        }
    }

    /// The session's Unix socket: `$ABAPDBG_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/abapdbg`,
    /// else the state directory; one file per system URL, client and user.
    pub fn socket_path(&self) -> Option<PathBuf> {
        let dir = self
            .var("ABAPDBG_RUNTIME_DIR")
            .map(PathBuf::from)
            .or_else(|| {
                self.var("XDG_RUNTIME_DIR")
                    .map(|d| PathBuf::from(d).join("abapdbg"))
            })
            .or_else(|| self.state_dir())?;
        let key = profile_key(
            self.url(),
            self.var("ABAPDBG_CLIENT"),
            self.var("ABAPDBG_USER").unwrap_or_default(),
        );
        Some(dir.join(format!("session-{key}.sock")))
    }

    /// `$ABAPDBG_STATE_DIR`, else `$XDG_STATE_HOME/abapdbg`, else `~/.local/state/abapdbg`.
    pub fn state_dir(&self) -> Option<PathBuf> {
        self.var("ABAPDBG_STATE_DIR")
            .map(PathBuf::from)
            .or_else(|| {
                self.var("XDG_STATE_HOME")
                    .map(|d| PathBuf::from(d).join("abapdbg"))
            })
            .or_else(|| {
                self.var("HOME")
                    .map(|d| PathBuf::from(d).join(".local/state/abapdbg"))
            })
    }
}

/// The name that tells one session's files from another's: a hash of the system URL, client
/// and user, or `embedded` for the embedded simulator (there is one per user and machine).
/// `serve` names its socket and state file with this too, so both sides always agree.
pub fn profile_key(url: Option<&str>, client: Option<&str>, user: &str) -> String {
    match url {
        None => "embedded".into(),
        Some(url) => {
            let key = format!(
                "{}|{}|{}",
                url.trim().trim_end_matches('/').to_lowercase(),
                client.map(str::trim).unwrap_or(""),
                user.trim().to_uppercase()
            );
            format!("{:016x}", fnv1a(key.as_bytes()))
        }
    }
}

/// FNV-1a, 64 bit: a hash whose value never changes between builds (file names depend on it).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(pairs: &[(&str, &str)]) -> Target {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Target::from_lookup(move |k| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
    }

    #[test]
    fn the_hash_is_stable() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn one_socket_per_system_client_and_user() {
        let a = target(&[
            ("ABAPDBG_URL", "http://h:1/"),
            ("ABAPDBG_USER", "dev"),
            ("HOME", "/home/x"),
        ]);
        let b = target(&[
            ("ABAPDBG_URL", "http://H:1"),
            ("ABAPDBG_USER", "DEV"),
            ("HOME", "/home/x"),
        ]);
        let other = target(&[
            ("ABAPDBG_URL", "http://h:2"),
            ("ABAPDBG_USER", "DEV"),
            ("HOME", "/home/x"),
        ]);
        assert_eq!(a.socket_path(), b.socket_path());
        assert_ne!(a.socket_path(), other.socket_path());
    }

    #[test]
    fn runtime_directories_in_order() {
        let t = target(&[
            ("ABAPDBG_RUNTIME_DIR", "/r"),
            ("XDG_RUNTIME_DIR", "/x"),
            ("HOME", "/h"),
        ]);
        assert_eq!(
            t.socket_path(),
            Some(PathBuf::from("/r/session-embedded.sock"))
        );
        let t = target(&[("XDG_RUNTIME_DIR", "/x"), ("HOME", "/h")]);
        assert_eq!(
            t.socket_path(),
            Some(PathBuf::from("/x/abapdbg/session-embedded.sock"))
        );
        let t = target(&[("HOME", "/h"), ("ABAPDBG_URL", "   ")]);
        assert_eq!(
            t.socket_path(),
            Some(PathBuf::from(
                "/h/.local/state/abapdbg/session-embedded.sock"
            ))
        );
        assert_eq!(target(&[]).socket_path(), None);
    }

    #[test]
    fn debug_output_never_shows_the_password() {
        let t = target(&[("ABAPDBG_URL", "http://h"), ("ABAPDBG_PASSWORD", "s3cret!")]);
        assert!(!format!("{t:?}").contains("s3cret!"));
    }
}

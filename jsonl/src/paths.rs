//! The names of one session's files, the rule `serve` names them by and every front end finds
//! them by (PROTOCOL.md, "Transports and sharing"). Which directory they live in and the
//! session's key (`client::profile_key`: a hash of URL, client and user, or `embedded`) are
//! the caller's; this module only joins them, so the names are written once for the engine,
//! the binary and the session client alike (none of them links another for it).

use std::path::{Path, PathBuf};

/// The session's Unix socket, `session-<key>.sock`.
pub fn socket_file(key: &str) -> String {
    format!("session-{key}.sock")
}

/// The session's state file (what it holds, for crash recovery), `session-<key>.json`.
pub fn state_file(key: &str) -> String {
    format!("session-{key}.json")
}

/// The log of a background session (`serve --daemon`), `serve-<key>.log`.
pub fn log_file(key: &str) -> String {
    format!("serve-{key}.log")
}

/// The lock file beside a socket, `<socket>.lock` (`session-<key>.lock`): held by the one
/// session that owns the socket.
pub fn lock_path(socket: &Path) -> PathBuf {
    socket.with_extension("lock")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_key_names_the_files_of_one_session() {
        assert_eq!(socket_file("embedded"), "session-embedded.sock");
        assert_eq!(
            state_file("0123456789abcdef"),
            "session-0123456789abcdef.json"
        );
        assert_eq!(log_file("embedded"), "serve-embedded.log");
        assert_eq!(
            lock_path(Path::new("/r/abapdbg/session-embedded.sock")),
            Path::new("/r/abapdbg/session-embedded.lock")
        );
    }
}

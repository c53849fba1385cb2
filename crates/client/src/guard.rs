//! What the client checks before it trusts the other end of a session socket, and how much it
//! takes from it (issue 25).
//!
//! The runtime directory a variable names may be shared (`/tmp`), so whoever listens at the
//! socket path may be another local user posing as our session: they would receive our
//! requests and could send forged stops back. A socket is used only in a directory of ours
//! that nobody else can write to, and only when the process at the other end runs as us
//! (`SO_PEERCRED`). A reply line is read up to [`MAX_REPLY_BYTES`]; text of the session's
//! errors reaches a terminal with its control characters escaped.

use std::io::{self, BufRead};
use std::os::unix::fs::MetadataExt;
#[cfg(target_os = "linux")]
use std::os::unix::io::AsRawFd;
use std::os::unix::net::UnixStream;
use std::path::Path;

use crate::error::ClientError;

/// The longest reply line read from a session: far above any answer the session writes (a
/// table page is a few MiB), far below what would exhaust memory. A longer line ends the
/// connection.
pub const MAX_REPLY_BYTES: usize = 256 * 1024 * 1024;

/// The user this process runs as.
fn own_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

fn untrusted(socket: &Path, reason: String) -> ClientError {
    ClientError::Untrusted {
        socket: socket.display().to_string(),
        reason,
    }
}

/// Refuses a socket whose directory is not ours or can be written by others (who could put
/// their own socket there). A directory that is not there is left to the connect to report.
pub fn check_socket_dir(socket: &Path) -> Result<(), ClientError> {
    let Some(dir) = socket.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(());
    };
    let meta = match std::fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(untrusted(
                socket,
                format!("cannot check {}: {e}", dir.display()),
            ));
        }
    };
    if !meta.file_type().is_dir() {
        return Err(untrusted(
            socket,
            format!("{} is not a directory (a link or a file)", dir.display()),
        ));
    }
    if meta.uid() != own_uid() {
        return Err(untrusted(
            socket,
            format!(
                "its directory {} belongs to another user (uid {}, we are uid {})",
                dir.display(),
                meta.uid(),
                own_uid()
            ),
        ));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(untrusted(
            socket,
            format!(
                "its directory {} can be written by other users (mode {:o})",
                dir.display(),
                meta.mode() & 0o7777
            ),
        ));
    }
    Ok(())
}

/// Refuses a connection whose other end is a process of another user. (Linux: `SO_PEERCRED`;
/// elsewhere only the directory is checked.)
#[cfg(not(target_os = "linux"))]
pub(crate) fn check_peer(_socket: &Path, _stream: &UnixStream) -> Result<(), ClientError> {
    Ok(())
}

/// Refuses a connection whose other end is a process of another user.
#[cfg(target_os = "linux")]
pub(crate) fn check_peer(socket: &Path, stream: &UnixStream) -> Result<(), ClientError> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: `cred` and `len` are valid for writes of the sizes given; the descriptor is the
    // stream's, open for the duration of the call.
    let rc = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&raw mut cred).cast(),
            &raw mut len,
        )
    };
    if rc != 0 {
        return Err(untrusted(
            socket,
            format!(
                "cannot tell who listens there: {}",
                io::Error::last_os_error()
            ),
        ));
    }
    check_peer_uid(socket, cred.pid, cred.uid)
}

/// Refuses a peer (its pid and uid as `SO_PEERCRED` gives them) that runs as another user.
pub fn check_peer_uid(socket: &Path, pid: i32, uid: u32) -> Result<(), ClientError> {
    if uid != own_uid() {
        return Err(untrusted(
            socket,
            format!(
                "the process listening there (pid {pid}) runs as another user (uid {uid}, we \
                 are uid {})",
                own_uid()
            ),
        ));
    }
    Ok(())
}

/// What [`read_line`] found.
pub(crate) enum Line {
    /// A line (its newline included when there was one) is in the buffer.
    Read,
    /// The stream ended.
    End,
    /// The line is longer than the limit: nothing of it is kept.
    TooLong,
}

/// Reads one line into `line` (cleared first), at most `max` bytes of it.
pub(crate) fn read_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Line> {
    line.clear();
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(if line.is_empty() {
                Line::End
            } else {
                Line::Read
            });
        }
        let (take, done) = match memchr(available) {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        if line.len() + take > max {
            line.clear();
            return Ok(Line::TooLong);
        }
        line.extend_from_slice(&available[..take]);
        reader.consume(take);
        if done {
            return Ok(Line::Read);
        }
    }
}

fn memchr(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|b| *b == b'\n')
}

/// `text` with its control characters (escape codes, carriage returns, bells) escaped, so what
/// a session or a system wrote cannot drive the terminal it is printed on. Line breaks and
/// tabs stay.
pub(crate) fn printable(text: &str) -> String {
    if !text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_up_to_the_limit() {
        let mut input = io::BufReader::with_capacity(4, &b"abc\ndefghijk\nl"[..]);
        let mut line = Vec::new();
        assert!(matches!(
            read_line(&mut input, &mut line, 8),
            Ok(Line::Read)
        ));
        assert_eq!(line, b"abc\n");
        assert!(matches!(
            read_line(&mut input, &mut line, 8),
            Ok(Line::TooLong)
        ));
        assert!(line.is_empty());
    }

    #[test]
    fn control_characters_are_escaped_but_line_breaks_stay() {
        assert_eq!(printable("plain\ttext\n"), "plain\ttext\n");
        assert_eq!(
            printable("\u{1b}[2J\u{1b}]0;title\u{7}\rX"),
            "\\u{1b}[2J\\u{1b}]0;title\\u{7}\\rX"
        );
        assert_eq!(printable("\u{9b}31m"), "\\u{9b}31m");
    }
}

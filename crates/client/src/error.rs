//! What can go wrong between a front end and the session.

use std::time::Duration;

/// A failed response: the protocol's error body, with its stable `code`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ProtocolError {
    /// Stable code such as `state.not_stopped` or `variable.not_found`.
    pub code: String,
    pub message: String,
    /// One sentence naming the next step, when the session gave one.
    pub hint: Option<String>,
    pub retryable: bool,
    /// The system's raw detail (HTTP status, exception type, T100), when there is one.
    pub adt: Option<serde_json::Value>,
}

impl From<jsonl::ErrorBody> for ProtocolError {
    fn from(e: jsonl::ErrorBody) -> Self {
        // What the session says may carry the system's text: printed on a terminal, it must
        // not drive it (escape codes), whoever wrote it.
        use crate::guard::printable;
        ProtocolError {
            code: printable(&e.code),
            message: printable(&e.message),
            hint: e.hint.as_deref().map(printable),
            retryable: e.retryable,
            adt: e.adt,
        }
    }
}

impl ProtocolError {
    /// The code's family (`state`, `variable`, `auth`, …).
    pub fn family(&self) -> &str {
        self.code.split('.').next().unwrap_or_default()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The session answered with an error.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// No session runs for this system and none may be started here.
    #[error("no abapdbg session runs for {target} (socket {socket})")]
    NoSession { target: String, socket: String },
    /// No runtime or state directory to put the socket in.
    #[error("no place for the session's socket: set XDG_RUNTIME_DIR, ABAPDBG_RUNTIME_DIR or HOME")]
    NoSocketDir,
    /// The socket is not trusted: its directory is not ours or others can write to it, or
    /// the process listening there runs as another user.
    #[error("refusing the session socket {socket}: {reason}")]
    Untrusted { socket: String, reason: String },
    /// `abapdbg serve --daemon` could not be started or did not come up.
    #[error("cannot start the abapdbg session: {0}")]
    Start(String),
    /// Connecting, reading or writing the socket failed.
    #[error("session socket: {0}")]
    Io(#[from] std::io::Error),
    /// The session closed the connection (it shut down or crashed).
    #[error("the session closed the connection")]
    Disconnected,
    /// No answer within the time given.
    #[error("no answer to '{cmd}' within {}", humanize(*.after))]
    Timeout { cmd: String, after: Duration },
    /// The user interrupted the wait (Ctrl-C); the session goes on.
    #[error("interrupted")]
    Interrupted,
    /// The configuration is wrong (config file, profile, a variable), or a secret could not
    /// be had to start the session.
    #[error(transparent)]
    Profile(#[from] crate::profile::ProfileError),
    /// The session wrote something that is not a line of the protocol.
    #[error("the session sent a line that is not protocol: {0}")]
    Malformed(String),
}

impl ClientError {
    /// The protocol error, when the session answered with one.
    pub fn protocol(&self) -> Option<&ProtocolError> {
        match self {
            ClientError::Protocol(p) => Some(p),
            _ => None,
        }
    }

    /// A stable code for every failure, in the protocol's families: the session's own code,
    /// or `transport.*` / `session.*` for what happened before an answer.
    pub fn code(&self) -> &str {
        match self {
            ClientError::Protocol(p) => &p.code,
            ClientError::NoSession { .. } => "session.not_running",
            ClientError::NoSocketDir => "session.no_socket_dir",
            ClientError::Start(_) => "session.start_failed",
            ClientError::Untrusted { .. } => "session.untrusted",
            ClientError::Io(_) | ClientError::Disconnected => "transport.disconnected",
            ClientError::Timeout { .. } => "transport.timeout",
            ClientError::Interrupted => "request.interrupted",
            ClientError::Malformed(_) => "internal.bug",
            ClientError::Profile(p) => p.code(),
        }
    }

    /// What to do next, in one sentence.
    pub fn hint(&self) -> Option<String> {
        match self {
            ClientError::Protocol(p) => p.hint.clone(),
            ClientError::NoSession { .. } => {
                Some("start one with 'abapdbg serve --daemon' or run any command that may start it".into())
            }
            ClientError::Start(_) => Some(
                "check the profile ('abapdbg config') or ABAPDBG_URL, ABAPDBG_USER and ABAPDBG_PASSWORD, or set ABAPDBG_BIN to the abapdbg binary".into(),
            ),
            ClientError::Untrusted { .. } => Some(
                "another local user may be posing as the session: set ABAPDBG_RUNTIME_DIR (or \
                 XDG_RUNTIME_DIR) to a directory only you can write to"
                    .into(),
            ),
            ClientError::Io(_) | ClientError::Disconnected => {
                Some("the session may have ended; the next command starts a new one".into())
            }
            ClientError::Timeout { .. } => Some("the session is busy or the system is slow; try again".into()),
            ClientError::Profile(p) => p.hint(),
            _ => None,
        }
    }
}

fn humanize(d: Duration) -> String {
    if d.as_millis() < 1000 {
        format!("{} ms", d.as_millis())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

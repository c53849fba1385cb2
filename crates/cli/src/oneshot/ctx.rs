//! What every one-shot command shares: the connection to the session, the output mode, the
//! Ctrl-C flag, and failures with their exit codes.

use std::cell::OnceCell;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use client::{ClientError, Session, Target};
use jsonl::CommandSpec;
use serde::Serialize;

/// How long a request that does not wait for the program may take.
pub(crate) const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);
/// The longest wait for the `hello` that starts a session: a logon and the discovery document.
const HELLO_WAIT: Duration = Duration::from_secs(30);

/// One invocation: the target from the environment, the session once connected.
pub(crate) struct Ctx {
    /// `--json`: one JSON value on stdout instead of text.
    pub(crate) json: bool,
    /// ANSI colour on stdout: a terminal, and `NO_COLOR` unset or empty.
    pub(crate) color: bool,
    pub(crate) target: Target,
    interrupted: Arc<AtomicBool>,
    session: OnceCell<Session>,
}

impl Ctx {
    pub(crate) fn new(json: bool, interrupted: Arc<AtomicBool>) -> Ctx {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Ctx {
            json,
            color: !no_color && std::io::stdout().is_terminal(),
            target: Target::from_process_env(),
            interrupted,
            session: OnceCell::new(),
        }
    }

    /// Whether the user pressed Ctrl-C.
    pub(crate) fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::Relaxed)
    }

    /// The flag the waits look at, for another signal to set (a closed terminal).
    pub(crate) fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.interrupted.clone()
    }

    /// Forgets a Ctrl-C once it has been dealt with (the interactive debugger goes on).
    pub(crate) fn clear_interrupt(&self) {
        self.interrupted.store(false, Ordering::Relaxed);
    }

    /// The session of the target system, started (`serve --daemon`) when none runs.
    pub(crate) fn session(&self) -> Result<&Session, Failure> {
        if let Some(s) = self.session.get() {
            return Ok(s);
        }
        let s = match Session::connect(&self.target) {
            Ok(s) => s,
            Err(ClientError::NoSession { .. }) => self.start()?,
            Err(e) => return Err(e.into()),
        };
        Ok(self.session.get_or_init(|| s))
    }

    /// Starts the session (another front end may be starting it at the same moment); with
    /// nothing configured, says once that it is the embedded simulator.
    fn start(&self) -> Result<Session, Failure> {
        // On a terminal: a script's successful commands keep stderr empty; `abapdbg status`
        // says it to everyone.
        if super::unconfigured::nothing_configured(&self.target) && std::io::stderr().is_terminal()
        {
            let here = std::env::current_dir().unwrap_or_default();
            eprint!("{}", super::unconfigured::note(&here));
        }
        let s = match Session::connect_or_start(&self.target) {
            Ok(s) => s,
            // No password anywhere and a person at the terminal: ask, never echoing it.
            Err(ClientError::Start(reason)) if reason.contains("no password") => {
                match self.with_prompted_password()? {
                    Some(target) => Session::connect_or_start(&target)?,
                    None => return Err(ClientError::Start(reason).into()),
                }
            }
            Err(e) => return Err(e.into()),
        };
        // `hello` once per session, here where it starts: the session logs on and learns the
        // system's release and capabilities, so `status` shows them from the first command on.
        // `status` itself never asks the system (it answers at once, also when the system is
        // unreachable), and the start is a wait already. Best effort: the command that follows
        // reports a failure in its own words.
        let _ = s.call_within::<jsonl::cmd::Hello>(&jsonl::args::HelloArgs::default(), HELLO_WAIT);
        Ok(s)
    }

    /// The target with a password typed at the terminal, when stdin and stderr are one.
    fn with_prompted_password(&self) -> Result<Option<Target>, Failure> {
        if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
            return Ok(None);
        }
        let prompt = format!("Password for {}: ", self.target.describe());
        let password = rpassword::prompt_password(prompt).map_err(|e| {
            Failure::new(
                "auth.credentials_unavailable",
                format!("reading the password: {e}"),
            )
        })?;
        let profile = self.target.profile().map(str::to_string);
        let target = Target::resolve(
            move |k| match k {
                "ABAPDBG_PASSWORD" => Some(password.clone()),
                _ => std::env::var(k).ok(),
            },
            profile.as_deref(),
        )
        .map_err(ClientError::Profile)?;
        Ok(Some(target))
    }

    /// One request of command `C` with its typed arguments, answering its typed result;
    /// Ctrl-C cancels it on the session.
    pub(crate) fn call<C: CommandSpec>(&self, args: &C::Args) -> Result<C::Result, Failure> {
        let session = self.session()?;
        Ok(session.call::<C>(args, REQUEST_TIMEOUT, &|| self.interrupted())?)
    }

    /// Prints one JSON value as one line: a protocol result, or one of ours. Written through a
    /// `Value`, so members come sorted by name, as they always have.
    pub(crate) fn print_json(&self, value: &impl Serialize) -> Result<(), Failure> {
        let value = serde_json::to_value(value).map_err(|e| {
            Failure::new("internal.bug", format!("the answer cannot be printed: {e}"))
        })?;
        out(&format!("{value}\n"));
        Ok(())
    }
}

/// Writes to stdout; a closed pipe (`| head`) is not an error worth a panic.
pub fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}

/// A command that did not do what was asked: `abapdbg: <code>: <message> (hint: <hint>)`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Failure {
    /// The protocol's code, or one of ours (`usage`, `state.timed_out`, `test.failed`, …).
    pub(crate) code: String,
    pub(crate) message: String,
    pub(crate) hint: Option<String>,
}

impl Failure {
    pub(crate) fn new(code: &str, message: impl Into<String>) -> Failure {
        Failure {
            code: code.to_string(),
            message: message.into(),
            hint: None,
        }
    }

    /// A command line clap accepted but that does not make sense (exit 2).
    pub(crate) fn usage(message: impl Into<String>) -> Failure {
        Failure::new("usage", message)
    }

    pub(crate) fn with_hint(mut self, hint: impl Into<String>) -> Failure {
        self.hint = Some(hint.into());
        self
    }

    /// The one line for stderr.
    pub(crate) fn line(&self) -> String {
        // One line, whatever the session put into its message.
        let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        match &self.hint {
            Some(h) => format!(
                "abapdbg: {}: {} (hint: {})",
                self.code,
                flat(&self.message),
                flat(h)
            ),
            None => format!("abapdbg: {}: {}", self.code, flat(&self.message)),
        }
    }

    pub(crate) fn exit_code(&self) -> u8 {
        exit_code(&self.code)
    }
}

impl From<ClientError> for Failure {
    fn from(e: ClientError) -> Failure {
        let message = match &e {
            ClientError::Protocol(p) => p.message.clone(),
            other => other.to_string(),
        };
        let hint = match &e {
            ClientError::Interrupted => Some(
                "the session and the program go on; 'abapdbg status' shows where things stand"
                    .to_string(),
            ),
            // The session's hints are written for the protocol; said here as commands.
            ClientError::Protocol(p) => p
                .hint
                .as_deref()
                .and_then(|h| super::hints::for_cli(e.code(), h)),
            other => other.hint(),
        };
        Failure {
            code: e.code().to_string(),
            message,
            hint,
        }
    }
}

/// Exit status of a failure, by its code (documented in `abapdbg --help` and README):
/// 2 usage, 3 state, 4 system or transport, 5 auth, 130 interrupted, 1 anything else.
pub(crate) fn exit_code(code: &str) -> u8 {
    match code {
        // The command line names something the session cannot read.
        "usage" | "protocol.invalid_args" | "breakpoint.invalid_location" => 2,
        // The configuration chose nothing usable (a malformed config.toml, an unknown profile).
        c if c.starts_with("config.") => 2,
        "request.interrupted" | "request.cancelled" => 130,
        _ => match code.split('.').next().unwrap_or_default() {
            "state" => 3,
            "transport" | "adt" | "conflict" | "session" | "listener" => 4,
            "auth" => 5,
            _ => 1,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_by_family() {
        assert_eq!(exit_code("usage"), 2);
        assert_eq!(exit_code("protocol.invalid_args"), 2);
        assert_eq!(exit_code("breakpoint.invalid_location"), 2);
        assert_eq!(exit_code("config.unknown_profile"), 2);
        assert_eq!(exit_code("auth.credentials_unavailable"), 5);
        assert_eq!(exit_code("state.not_stopped"), 3);
        assert_eq!(exit_code("state.no_debuggee"), 3);
        assert_eq!(exit_code("state.timed_out"), 3);
        assert_eq!(exit_code("transport.unreachable"), 4);
        assert_eq!(exit_code("transport.disconnected"), 4);
        assert_eq!(exit_code("adt.backend_exception"), 4);
        assert_eq!(exit_code("adt.not_supported"), 4);
        assert_eq!(exit_code("conflict.listener"), 4);
        assert_eq!(exit_code("session.start_failed"), 4);
        assert_eq!(exit_code("listener.failed"), 4);
        assert_eq!(exit_code("auth.unauthenticated"), 5);
        assert_eq!(exit_code("auth.csrf_failed"), 5);
        assert_eq!(exit_code("request.interrupted"), 130);
        assert_eq!(exit_code("run.failed"), 1);
        assert_eq!(exit_code("variable.not_found"), 1);
        assert_eq!(exit_code("breakpoint.not_found"), 1);
        assert_eq!(exit_code("permission.write_not_allowed"), 1);
        assert_eq!(exit_code("internal.bug"), 1);
    }

    #[test]
    fn the_error_line_is_one_line() {
        let f =
            Failure::new("state.not_stopped", "no debuggee\nis stopped").with_hint("run a class");
        assert_eq!(
            f.line(),
            "abapdbg: state.not_stopped: no debuggee is stopped (hint: run a class)"
        );
        assert_eq!(Failure::new("usage", "x").line(), "abapdbg: usage: x");
    }
}

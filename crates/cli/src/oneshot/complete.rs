//! Tab completion of the one-shot commands' arguments (bash and zsh, through clap_complete's
//! `COMPLETE=<shell> abapdbg -- …`): live candidates from the running session, the same
//! source the Nushell plugin uses (`client::candidates`).
//!
//! A completion never starts a session (`Session::connect`, not `connect_or_start`), waits at
//! most `client::candidates::TIMEOUT` per request, and prints nothing on any failure: no
//! session, no candidates.

use std::ffi::OsStr;

use clap_complete::engine::{ArgValueCompleter, CompletionCandidate};
use client::candidates::{self, Candidate};
use client::{Session, Target};

/// The profile named on the command line being completed (`--profile NAME` or
/// `--profile=NAME`), else none (then `ABAPDBG_PROFILE` and the config file choose).
fn profile_in(args: impl Iterator<Item = String>) -> Option<String> {
    let mut args = args.peekable();
    let mut found = None;
    while let Some(arg) = args.next() {
        if arg == "--profile" {
            if let Some(next) = args.peek().filter(|v| !v.is_empty() && !v.starts_with('-')) {
                found = Some(next.clone());
            }
        } else if let Some(value) = arg.strip_prefix("--profile=") {
            found = Some(value.to_string());
        }
    }
    found
}

/// The running session of the target the command line names; `None` when none runs (or the
/// configuration is wrong). Never starts one.
fn running() -> Option<Session> {
    let args = std::env::args_os().map(|a| a.to_string_lossy().into_owned());
    let target = match profile_in(args) {
        Some(profile) => Target::resolve_process_env(Some(&profile)).ok()?,
        None => Target::from_process_env(),
    };
    Session::connect(&target).ok()
}

/// Candidates starting with `typed` (in any case: ABAP names are upper case).
fn offer(found: Vec<Candidate>, typed: &str) -> Vec<CompletionCandidate> {
    let typed = typed.to_uppercase();
    found
        .into_iter()
        .filter(|c| c.value.to_uppercase().starts_with(&typed))
        .map(|c| CompletionCandidate::new(c.value).help(c.description.map(Into::into)))
        .collect()
}

/// A completer asking the running session with `source`.
fn live(source: fn(&Session, &str) -> Vec<Candidate>) -> ArgValueCompleter {
    ArgValueCompleter::new(move |current: &OsStr| {
        let typed = current.to_string_lossy();
        match running() {
            Some(session) => offer(source(&session, &typed), &typed),
            None => Vec::new(),
        }
    })
}

/// Variable paths of the selected frame; after `LS_X-` the components.
pub(crate) fn variables() -> ArgValueCompleter {
    live(candidates::variables)
}

/// Breakpoint ids, with their locations as help.
pub(crate) fn breakpoints() -> ArgValueCompleter {
    live(|s, _| candidates::breakpoints(s))
}

/// Short dump ids (ours), with their runtime errors and short texts as help.
pub(crate) fn dumps() -> ArgValueCompleter {
    live(|s, _| candidates::dumps(s))
}

/// Thread numbers.
pub(crate) fn threads() -> ArgValueCompleter {
    live(|s, _| candidates::threads(s))
}

/// Frame indexes.
pub(crate) fn frames() -> ArgValueCompleter {
    live(|s, _| candidates::frames(s))
}

/// Object names from the system's repository quick search.
pub(crate) fn objects() -> ArgValueCompleter {
    live(candidates::objects)
}

/// Profile names of the config file (no session needed).
pub(crate) fn profiles() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| {
        let found = Target::profiles(|k| std::env::var(k).ok())
            .into_iter()
            .map(|value| Candidate {
                value,
                description: None,
            })
            .collect();
        offer(found, &current.to_string_lossy())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> impl Iterator<Item = String> {
        line.split(' ')
            .map(String::from)
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn the_profile_of_the_command_line() {
        assert_eq!(profile_in(args("abapdbg -- abapdbg vars LT_")), None);
        assert_eq!(
            profile_in(args("abapdbg -- abapdbg --profile dev vars LT_")),
            Some("dev".into())
        );
        assert_eq!(
            profile_in(args("abapdbg -- abapdbg vars --profile=qa LT_")),
            Some("qa".into())
        );
        assert_eq!(profile_in(args("abapdbg -- abapdbg --profile")), None);
        assert_eq!(
            profile_in(args("abapdbg -- abapdbg --profile --json")),
            None
        );
    }

    #[test]
    fn offers_by_prefix_in_any_case() {
        let found = vec![
            Candidate {
                value: "LT_ITEMS".into(),
                description: Some("table".into()),
            },
            Candidate {
                value: "LS_ORDER".into(),
                description: None,
            },
        ];
        let got = offer(found, "lt_");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].get_value(), "LT_ITEMS");
    }
}

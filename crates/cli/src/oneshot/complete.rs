//! Tab completion of the one-shot commands' arguments (bash, zsh and fish, through
//! clap_complete's `COMPLETE=<shell> abapdbg -- …`): live candidates from the running session,
//! the same source the Nushell plugin uses (`client::candidates`), and the shell scripts that
//! ask for them (clap_complete's, with the changes [`SHELLS`] describes).
//!
//! A completion never starts a session (`Session::connect`, not `connect_or_start`), waits at
//! most `client::candidates::TIMEOUT` per request, and prints nothing on any failure: no
//! session, no candidates.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::Path;

use clap_complete::engine::{ArgValueCompleter, CompletionCandidate};
use clap_complete::env::{EnvCompleter, Shells};
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

/// A completer asking the running session with `source`, its candidates tagged `tag` (which
/// the shell scripts read, e.g. [`LOCATION`]).
fn live(
    source: fn(&Session, &str) -> Vec<Candidate>,
    tag: Option<&'static str>,
) -> ArgValueCompleter {
    ArgValueCompleter::new(move |current: &OsStr| {
        let typed = current.to_string_lossy();
        let Some(session) = running() else {
            return Vec::new();
        };
        offer(source(&session, &typed), &typed)
            .into_iter()
            .map(|c| c.tag(tag.map(Into::into)))
            .collect()
    })
}

/// Variable paths of the selected frame; after `LS_X-` the components.
pub(crate) fn variables() -> ArgValueCompleter {
    live(candidates::variables, None)
}

/// Breakpoint ids, with their locations as help.
pub(crate) fn breakpoints() -> ArgValueCompleter {
    live(|s, _| candidates::breakpoints(s), None)
}

/// Short dump ids (ours), with their runtime errors and short texts as help.
pub(crate) fn dumps() -> ArgValueCompleter {
    live(|s, _| candidates::dumps(s), None)
}

/// Thread numbers.
pub(crate) fn threads() -> ArgValueCompleter {
    live(|s, _| candidates::threads(s), None)
}

/// Frame indexes.
pub(crate) fn frames() -> ArgValueCompleter {
    live(|s, _| candidates::frames(s), None)
}

/// Object names from the system's repository quick search.
pub(crate) fn objects() -> ArgValueCompleter {
    live(candidates::objects, None)
}

/// The tag of an object name that starts a location (`ZCL_ORDER` of `ZCL_ORDER:42`): bash
/// adds no space after it, the user goes on typing `:line`.
const LOCATION: &str = "location";

/// Object names where a location is asked for (tagged [`LOCATION`]).
pub(crate) fn locations() -> ArgValueCompleter {
    live(candidates::objects, Some(LOCATION))
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

/// The shells `COMPLETE=<shell>` serves: clap_complete's scripts, changed where they fall
/// short for abapdbg (issue 30):
/// - zsh: the script works autoloaded from `fpath` as well as sourced (upstream's only
///   registers a function when run, so the first Tab of every shell did nothing), and matches
///   in any case, as ABAP names are (`lt_` offers `LT_ITEMS`);
/// - bash: no space after an object name completed as a location (`:line` follows);
/// - fish as upstream writes it.
pub(crate) const SHELLS: Shells<'static> = Shells(&[&Bash, &Zsh, &clap_complete::env::Fish]);

/// The word bash's script takes out of the candidates, turning the space after them off.
const BASH_NOSPACE: &str = "@nospace";

/// `script` with each `(from, to)` replaced. A `from` that is not there (clap_complete wrote
/// another script) leaves the script as it is there; the tests below notice.
fn patched(script: &[u8], patches: &[(&str, &str)]) -> String {
    let mut script = String::from_utf8_lossy(script).into_owned();
    for (from, to) in patches {
        script = script.replace(from, to);
    }
    script
}

/// bash, with [`BASH_NOSPACE`].
struct Bash;

impl EnvCompleter for Bash {
    fn name(&self) -> &'static str {
        clap_complete::env::Bash.name()
    }
    fn is(&self, name: &str) -> bool {
        clap_complete::env::Bash.is(name)
    }
    fn write_registration(
        &self,
        var: &str,
        name: &str,
        bin: &str,
        completer: &str,
        buf: &mut dyn Write,
    ) -> std::io::Result<()> {
        let mut script = Vec::new();
        clap_complete::env::Bash.write_registration(var, name, bin, completer, &mut script)?;
        let nospace = format!(
            "elif [[ ${{COMPREPLY[0]-}} == {BASH_NOSPACE} ]]; then
        # abapdbg: an object name where `:line` follows: no space after it.
        COMPREPLY=(\"${{COMPREPLY[@]:1}}\")
        compopt -o nospace 2> /dev/null
    elif [[ $_CLAP_COMPLETE_SPACE == false ]]"
        );
        let script = patched(
            &script,
            &[("elif [[ $_CLAP_COMPLETE_SPACE == false ]]", &nospace)],
        );
        buf.write_all(script.as_bytes())
    }
    /// As upstream's (the values, separated by `_CLAP_IFS`), with [`BASH_NOSPACE`] first when
    /// every candidate is a [`LOCATION`].
    fn write_complete(
        &self,
        cmd: &mut clap::Command,
        args: Vec<OsString>,
        current_dir: Option<&Path>,
        buf: &mut dyn Write,
    ) -> std::io::Result<()> {
        let index: usize = std::env::var("_CLAP_COMPLETE_INDEX")
            .ok()
            .and_then(|i| i.parse().ok())
            .unwrap_or_default();
        let ifs = std::env::var("_CLAP_IFS").unwrap_or_else(|_| "\n".into());
        let found = clap_complete::engine::complete(cmd, args, index, current_dir)?;
        let location = !found.is_empty()
            && found
                .iter()
                .all(|c| c.get_tag().is_some_and(|t| t.to_string() == LOCATION));
        let values = found.iter().map(|c| c.get_value().to_string_lossy());
        let words: Vec<_> = location
            .then(|| BASH_NOSPACE.into())
            .into_iter()
            .chain(values)
            .collect();
        write!(buf, "{}", words.join(&ifs))
    }
}

/// zsh, autoloaded or sourced, matching in any case.
struct Zsh;

impl EnvCompleter for Zsh {
    fn name(&self) -> &'static str {
        clap_complete::env::Zsh.name()
    }
    fn is(&self, name: &str) -> bool {
        clap_complete::env::Zsh.is(name)
    }
    fn write_registration(
        &self,
        var: &str,
        name: &str,
        bin: &str,
        completer: &str,
        buf: &mut dyn Write,
    ) -> std::io::Result<()> {
        let mut script = Vec::new();
        clap_complete::env::Zsh.write_registration(var, name, bin, completer, &mut script)?;
        let function = format!("_clap_dynamic_completer_{}", name.replace('-', "_"));
        let register = format!("compdef {function} {bin}");
        // compinit autoloads the file (`#compdef`) as the body of `_<bin>` and calls it on the
        // first Tab: then it completes at once, besides registering the function for the
        // Tabs after. Sourced, it only registers.
        let either = format!(
            "if [[ ${{funcstack[1]-}} == _{bin} ]]; then
    # autoloaded from fpath: this is the first Tab
    {register}
    {function} \"$@\"
else
    {register}
fi"
        );
        // `m:{a-zA-Z}={A-Za-z}`: either case typed matches either case offered.
        let any_case = "-M 'm:{a-zA-Z}={A-Za-z}'";
        let script = patched(
            &script,
            &[
                (
                    "_describe -V 'values' dirs -S '/' -r '/'",
                    &format!("_describe -V 'values' dirs -S '/' -r '/' {any_case}"),
                ),
                (
                    "_describe -V 'values' other\n",
                    &format!("_describe -V 'values' other {any_case}\n"),
                ),
                (&format!("\n{register}"), &format!("\n{either}")),
            ],
        );
        buf.write_all(script.as_bytes())
    }
    fn write_complete(
        &self,
        cmd: &mut clap::Command,
        args: Vec<OsString>,
        current_dir: Option<&Path>,
        buf: &mut dyn Write,
    ) -> std::io::Result<()> {
        clap_complete::env::Zsh.write_complete(cmd, args, current_dir, buf)
    }
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

    fn registration(shell: &dyn EnvCompleter) -> String {
        let mut buf = Vec::new();
        shell
            .write_registration("COMPLETE", "abapdbg", "abapdbg", "abapdbg", &mut buf)
            .expect("write");
        String::from_utf8(buf).expect("UTF-8")
    }

    #[test]
    fn the_scripts_carry_abapdbgs_changes() {
        let zsh = registration(&Zsh);
        assert!(
            zsh.contains("if [[ ${funcstack[1]-} == _abapdbg ]]"),
            "{zsh}"
        );
        assert!(
            zsh.contains("_clap_dynamic_completer_abapdbg \"$@\""),
            "{zsh}"
        );
        assert_eq!(zsh.matches("m:{a-zA-Z}={A-Za-z}").count(), 2, "{zsh}");
        let bash = registration(&Bash);
        assert!(bash.contains("== @nospace ]]"), "{bash}");
    }
}

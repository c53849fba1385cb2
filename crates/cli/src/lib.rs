//! The abapdbg command line as a person or a script meets it: the one-shot commands
//! (`abapdbg bp set …`, `abapdbg vars`, `abapdbg step`, …), the interactive debugger
//! (`abapdbg repl`, `attach` on a terminal) and the argument completers of bash, zsh and fish.
//! The `abapdbg` binary parses its command line with [`Command`] flattened into it and hands
//! a one-shot command to [`run`].
//!
//! # Layout
//! - `oneshot/`: one file per command (`bp/` for the breakpoint group, `debug/` for the
//!   original debug command's forms on the same commands), what they share
//!   (`ctx.rs` connection, output mode and exit codes; `render.rs` tables and the source
//!   window; `movement.rs` and `wait.rs` the waits, `spinner.rs`; `hints.rs` the session's
//!   hints as command lines; `unconfigured.rs` the embedded simulator named when nothing is
//!   configured), `complete.rs` the completers.
//! - `repl/`: the interactive debugger: the loop, what a typed line means, Tab at the prompt.
//!
//! Never here: the engine, the ADT client or the simulator. This crate depends on the session
//! client, the protocol (`jsonl`, typed arguments and results) and the abapGit names only, so
//! a call costs a process start and a socket round trip, never a logon.

mod oneshot;
mod repl;

pub use oneshot::ctx::out;
pub use oneshot::{Command, config_check, run};

/// Answers a shell's completion request (`COMPLETE=bash|zsh|fish abapdbg -- …`, on every Tab) and
/// exits; returns at once when `COMPLETE` is not set. `command` builds the whole command line
/// (the binary's, with [`Command`] flattened into it).
pub fn complete_shell(command: fn() -> clap::Command) {
    clap_complete::CompleteEnv::with_factory(command)
        .shells(oneshot::complete::SHELLS)
        .complete();
}

/// The completer of `--profile`: the profile names of the config file.
pub fn profile_completer() -> clap_complete::engine::ArgValueCompleter {
    oneshot::complete::profiles()
}

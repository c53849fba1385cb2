//! The session's hints, said as the command line says them (`abapdbg listen --take-over`,
//! `abapdbg bp list`), or in the interactive debugger as it does (`bp list`, `w`): the wording
//! of every front end is kept in one table, `client::hints`.

use std::sync::atomic::{AtomicBool, Ordering};

use client::hints::{FrontEnd, for_front_end};

/// Whether this process is the interactive debugger. Process-wide because failures are made
/// from client errors (`From<ClientError>`) where no context is at hand, and a process that
/// becomes the REPL stays it until it exits.
static REPL: AtomicBool = AtomicBool::new(false);

/// From now on hints are said as the interactive debugger says them.
pub(crate) fn speak_as_repl() {
    REPL.store(true, Ordering::Relaxed);
}

/// The hint to show for an error of `code` whose protocol hint is `hint`.
pub(crate) fn for_cli(code: &str, hint: &str) -> Option<String> {
    let front = if REPL.load(Ordering::Relaxed) {
        FrontEnd::Repl
    } else {
        FrontEnd::Cli
    };
    for_front_end(front, code, hint)
}

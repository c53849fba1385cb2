//! The session's hints, said as the command line says them (`abapdbg listen --take-over`,
//! `abapdbg bp list`): the wording of every front end is kept in one table, `client::hints`.

use client::hints::{FrontEnd, for_front_end};

/// The hint to show for an error of `code` whose protocol hint is `hint`.
pub(crate) fn for_cli(code: &str, hint: &str) -> Option<String> {
    for_front_end(FrontEnd::Cli, code, hint)
}

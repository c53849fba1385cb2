//! The string processing statements: `CONCATENATE`, `SPLIT`, `CONDENSE`, `REPLACE`, `FIND`,
//! `TRANSLATE`, `SHIFT` and `OVERLAY` (character mode), parsed from a statement's tokens and
//! executed with ABAP's rules for fixed-length fields: trailing blanks of `c`, `n`, `d`, `t`
//! operands do not count unless a statement says so (`RESPECTING BLANKS`, separators), and a
//! result too long for a `c` target is cut off (`sy-subrc` tells).
//!
//! Regular expressions (`REGEX`, `PCRE`) run on [`crate::interp::abap_regex`], `RESULTS` on
//! `match_results.rs`; byte mode (`IN BYTE MODE`) and the line bounds of `FIND`/`REPLACE …
//! IN TABLE` (`FROM … TO …`) end the run as "not supported by the simulator".
//!
//! The syntax tree is `ast/text.rs`, `parser/text.rs` builds it from tokens; here `exec.rs`
//! runs it, and `find_replace.rs` runs `FIND`/`REPLACE`.

mod exec;
mod find_replace;

pub(crate) use find_replace::{Hit, MATCH_BYTES};

use abap_syntax::ast::{Out, Search, TextStmt};

//! Constructor expressions beyond the basic `VALUE`/`COND`/`SWITCH`/`CONV`: `VALUE` with
//! `BASE`, `LET`, `FOR` iterations and `LINES OF`, `REDUCE`, `CORRESPONDING` (structures and
//! tables, `BASE`, `MAPPING`, `EXCEPT`) and `CAST` (with the down-cast check, also behind the
//! `?=` assignment).
//!
//! Helper variables of `LET`, `FOR` and `INIT` live in the current frame while the expression
//! is evaluated and are removed afterwards (a variable of the same name is restored).
//! `FOR … UNTIL` checks its condition from the second pass on (at least one pass), `FOR …
//! WHILE` before every pass.
//!
//! The syntax tree is `ast/constructors.rs`, `parser/constructors.rs` builds it from the
//! tokens; here `eval.rs` evaluates it (with `scope.rs` for the helper variables, `corresponding.rs` for
//! `CORRESPONDING`/`MOVE-CORRESPONDING` and `cast.rs` for `CAST`/`?=`).

mod cast;
mod corresponding;
mod eval;
pub(crate) use eval::typeless;
mod scope;

pub use scope::is_internal_name;

use abap_syntax::ast::{Ctor, For, ForKind, Init, Row};

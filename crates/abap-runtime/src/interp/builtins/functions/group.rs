//! What a group of built-in functions is (`mod.rs` keeps the registry of them) and the
//! argument helper the groups share.

use crate::interp::{Exec, Interp};
use abap_data::value::Value;
use abap_syntax::ast::{CallExpr, Expr};

/// Runs a call of one of the group's functions; `None` when the call is not the group's after
/// all (a string function without a pattern is not the regex group's).
pub(crate) type Run = for<'r, 'h> fn(&mut Interp<'r, 'h>, &CallExpr) -> Exec<Option<Value>>;

/// A group of built-in functions.
pub(crate) struct Group {
    /// The group's name, as its file is named (the registry's tests read it).
    #[cfg_attr(not(test), allow(dead_code))]
    pub name: &'static str,
    /// Whether the group has a function of this (upper-case) name.
    pub knows: fn(&str) -> bool,
    pub run: Run,
}

/// The one argument of a function that takes one (`lines( itab )`, `sqrt( val = x )`).
pub(crate) fn single_arg<'c>(interp: &Interp<'_, '_>, call: &'c CallExpr) -> Exec<&'c Expr> {
    match (&call.args.positional, call.args.exporting.as_slice()) {
        (Some(e), []) => Ok(e),
        (None, [(n, e)]) if n == "VAL" => Ok(e),
        _ => Err(interp.not_supported(&format!("built-in function {}( )", call.method))),
    }
}

//! `abap_breakpoints`: deletions, then the breakpoints set, then the whole list.

use jsonl::args::{BpIdsArgs, BpSetArgs};
use jsonl::cmd;
use jsonl::commands::NoArgs;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Answered, Call, answered};
use crate::error::ToolError;
use crate::view;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BreakpointsArgs {
    #[serde(default)]
    set: Vec<Value>,
    #[serde(default)]
    delete: Vec<u32>,
    #[serde(default)]
    all: bool,
}

pub(super) fn breakpoints(call: &Call, a: BreakpointsArgs) -> Result<Answered, ToolError> {
    // Every entry is read before anything changes.
    let mut sets = Vec::new();
    for (i, entry) in a.set.iter().enumerate() {
        let bp: BpSetArgs = serde_json::from_value(entry.clone()).map_err(|e| {
            ToolError::invalid_args(format!("set[{i}]: {e}")).with_hint(
                "each entry is {location, condition?}, {statement}, {exception} or {message: {id, number, type}}",
            )
        })?;
        let kinds = usize::from(bp.location.is_some())
            + usize::from(bp.statement.is_some())
            + usize::from(bp.exception.is_some())
            + usize::from(bp.message.is_some());
        if kinds != 1 {
            return Err(ToolError::invalid_args(format!(
                "set[{i}] names {kinds} kinds of breakpoint; name exactly one of location, statement, exception, message"
            )));
        }
        sets.push(bp);
    }
    let mut deleted = Vec::new();
    if a.all || !a.delete.is_empty() {
        let ids = BpIdsArgs {
            id: None,
            ids: if a.all { Vec::new() } else { a.delete.clone() },
            all: a.all,
        };
        deleted = call
            .link
            .call::<cmd::BpDelete>(&ids, call.cancelled)?
            .deleted;
    }
    let mut warning = None;
    for bp in &sets {
        let r = call.link.call::<cmd::BpSet>(bp, call.cancelled)?;
        warning = warning.or(r.warning);
    }
    let list = call.link.call::<cmd::BpList>(&NoArgs {}, call.cancelled)?;
    let records: Vec<Value> = list.breakpoints.iter().map(view::breakpoint).collect();
    let summary = list
        .breakpoints
        .iter()
        .map(|b| {
            let what = b
                .reason
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            format!("#{} {} {}{what}", b.id, b.location, b.status)
        })
        .collect::<Vec<_>>()
        .join("; ");
    let mut out = json!({"breakpoints": records, "deleted": deleted});
    if let Some(w) = warning {
        out["warning"] = json!(w);
    }
    answered(
        out,
        if summary.is_empty() {
            "no breakpoints".to_string()
        } else {
            summary
        },
    )
}

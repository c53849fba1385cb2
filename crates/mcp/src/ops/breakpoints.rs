//! `abap_breakpoints`: deletions, then the breakpoints set, then a dump caught, then the whole
//! list.

use jsonl::args::{BpIdsArgs, BpSetArgs, DumpCatchArgs};
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
    catch: Option<CatchArgs>,
}

/// `catch`: stop the next occurrence of a short dump (`abap_dumps` lists them) before it dies.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CatchArgs {
    dump: String,
    user: Option<String>,
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
    let caught = match &a.catch {
        Some(c) => {
            let r = call.link.call::<cmd::DumpCatch>(
                &DumpCatchArgs {
                    id: c.dump.clone(),
                    user: c.user.clone(),
                },
                call.cancelled,
            )?;
            warning = warning.or(r.warning);
            Some(json!({
                "dump": r.id,
                "user": r.user,
                "armed": r.armed,
                "breakpoints": r.breakpoints.iter().map(|b| b.id).collect::<Vec<_>>(),
            }))
        }
        None => None,
    };
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
    let mut summary = if summary.is_empty() {
        "no breakpoints".to_string()
    } else {
        summary
    };
    if let Some(c) = caught {
        summary = format!(
            "catching the next occurrence of dump {} for {} with {}; {summary}",
            c["dump"].as_str().unwrap_or_default(),
            c["user"].as_str().unwrap_or_default(),
            c["breakpoints"]
                .as_array()
                .map(|ids| ids
                    .iter()
                    .map(|i| format!("#{i}"))
                    .collect::<Vec<_>>()
                    .join(", "))
                .unwrap_or_default()
        );
        out["caught"] = c;
    }
    answered(out, summary)
}

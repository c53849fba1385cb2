//! `abap_dumps`: the system's short dumps, newest first, or one of them whole (chapters,
//! stack, chosen variables, source around the termination line).

use jsonl::args::{DumpArgs, DumpsArgs};
use jsonl::cmd;
use jsonl::results::DumpSummary;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Answered, Call, answered};
use crate::error::ToolError;
use crate::view;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DumpsToolArgs {
    id: Option<String>,
    since: Option<String>,
    until: Option<String>,
    user: Option<String>,
    program: Option<String>,
    error: Option<String>,
    limit: Option<u32>,
}

impl DumpsToolArgs {
    fn filters_given(&self) -> bool {
        self.since.is_some()
            || self.until.is_some()
            || self.user.is_some()
            || self.program.is_some()
            || self.error.is_some()
            || self.limit.is_some()
    }
}

pub(super) fn dumps(call: &Call, a: DumpsToolArgs) -> Result<Answered, ToolError> {
    if let Some(id) = &a.id {
        if a.filters_given() {
            return Err(ToolError::invalid_args(
                "abap_dumps takes either id (one dump) or the list's filters, not both",
            ));
        }
        return one(call, id);
    }
    let args = DumpsArgs {
        since: a.since,
        until: a.until,
        user: a.user,
        program: a.program,
        error: a.error,
        limit: a.limit.unwrap_or(DumpsArgs::default().limit),
    };
    let list = call.link.call::<cmd::Dumps>(&args, call.cancelled)?;
    let summary = if list.dumps.is_empty() {
        "no short dumps".to_string()
    } else {
        list.dumps
            .iter()
            .map(line_of)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let records: Vec<Value> = list.dumps.iter().map(summary_record).collect();
    answered(json!({"dumps": records}), summary)
}

fn one(call: &Call, id: &str) -> Result<Answered, ToolError> {
    let d = call
        .link
        .call::<cmd::Dump>(&DumpArgs { id: id.to_string() }, call.cancelled)?;
    let mut out = summary_record(&d.summary);
    if let Some(map) = out.as_object_mut() {
        map.insert(
            "chapters".into(),
            json!(
                d.chapters
                    .iter()
                    .map(|c| json!({"title": c.title, "text": c.text}))
                    .collect::<Vec<_>>()
            ),
        );
        map.insert(
            "stack".into(),
            json!(d.stack.iter().map(view::location).collect::<Vec<_>>()),
        );
        map.insert(
            "variables".into(),
            json!(
                d.variables
                    .iter()
                    .map(|v| json!({"frame": v.frame, "name": v.name, "type": v.ty, "value": v.value}))
                    .collect::<Vec<_>>()
            ),
        );
        map.insert("source".into(), view::source_lines(&d.source));
    }
    let mut text = line_of(&d.summary);
    if !d.source.is_empty() {
        text.push('\n');
        text.push_str(&view::numbered(&d.source));
    }
    answered(out, text)
}

/// The protocol's record with `file` and `exception` always present (null when unknown).
fn summary_record(d: &DumpSummary) -> Value {
    json!({
        "id": d.id,
        "time": d.time,
        "user": d.user,
        "runtime_error": d.runtime_error,
        "exception": d.exception,
        "program": d.program,
        "include": d.include,
        "line": d.line,
        "file": d.file,
        "short_text": d.short_text,
    })
}

/// `2026-11-28T10:15:00Z DEVELOPER COMPUTE_INT_ZERODIVIDE zcl_order.clas.abap:41 Division by zero (id …)`.
fn line_of(d: &DumpSummary) -> String {
    let place = match &d.file {
        Some(f) => format!("{f}:{}", d.line),
        None => d.program.clone(),
    };
    format!(
        "{} {} {} {place} {} (id {})",
        d.time, d.user, d.runtime_error, d.short_text, d.id
    )
}

//! `abap_stack`, `abap_variables`, `abap_set_variable`, `abap_source` and the source resource:
//! each names its thread and frame.

use jsonl::args::{AtArgs, SetArgs, SourceArgs, VarsArgs};
use jsonl::cmd;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Answered, Call, answered, max_chars, thread_or_current};
use crate::error::ToolError;
use crate::view;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StackArgs {
    thread: Option<u32>,
}

pub(super) fn stack(call: &Call, a: StackArgs) -> Result<Answered, ToolError> {
    let thread = thread_or_current(call, a.thread)?;
    let s = call.link.call::<cmd::Stack>(
        &AtArgs {
            thread: Some(thread),
            frame: None,
        },
        call.cancelled,
    )?;
    let summary = s
        .frames
        .iter()
        .map(|f| {
            format!(
                "#{} {}->{} line {}{}",
                f.index,
                f.object,
                f.method,
                f.line,
                f.file
                    .as_deref()
                    .map(|x| format!(" ({x})"))
                    .unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    answered(
        json!({
            "thread": s.thread,
            "epoch": s.epoch,
            "frames": s.frames.iter().map(view::location).collect::<Vec<_>>(),
        }),
        summary,
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct VariablesArgs {
    thread: Option<u32>,
    frame: Option<usize>,
    path: Option<String>,
    offset: Option<u32>,
    limit: Option<u32>,
    max_chars: Option<usize>,
}

/// The key `changed` remembers a frame's variables under.
fn frame_key_of(call: &Call, thread: u32, frame: usize) -> String {
    call.link
        .call::<cmd::Stack>(
            &AtArgs {
                thread: Some(thread),
                frame: None,
            },
            call.cancelled,
        )
        .ok()
        .and_then(|s| s.frames.into_iter().find(|f| f.index == frame))
        .map(|f| view::frame_key(&f))
        .unwrap_or_default()
}

pub(super) fn variables(call: &Call, a: VariablesArgs) -> Result<Answered, ToolError> {
    let thread = thread_or_current(call, a.thread)?;
    let frame = a.frame.unwrap_or(0);
    let max = max_chars(a.max_chars);
    let limit = a.limit.unwrap_or(100).clamp(1, 1000);
    let offset = a.offset.unwrap_or(0);
    let args = VarsArgs {
        id: a.path.clone(),
        epoch: None,
        offset,
        limit,
        thread: Some(thread),
        frame: Some(frame),
    };
    let r = call.link.call::<cmd::Vars>(&args, call.cancelled)?;
    let key = frame_key_of(call, thread, frame);
    let shape =
        |v: &jsonl::results::Variable| view::variable(call.link, v, thread, &key, r.epoch, max);
    let mut out = json!({"thread": thread, "frame": frame, "epoch": r.epoch});
    let summary;
    match &a.path {
        None => {
            let mut scopes: Vec<Value> = Vec::new();
            let scope_list = r.scopes.clone().unwrap_or_default();
            let root: Vec<Value> = r
                .variables
                .iter()
                .filter(|v| v.scope.is_empty())
                .map(shape)
                .collect();
            if !root.is_empty() {
                scopes.push(json!({"id": "", "name": "", "variables": root}));
            }
            for s in &scope_list {
                let vars: Vec<Value> = r
                    .variables
                    .iter()
                    .filter(|v| v.scope == s.name)
                    .map(shape)
                    .collect();
                scopes.push(json!({"id": s.id, "name": s.name, "variables": vars}));
            }
            summary = scopes
                .iter()
                .map(|s| {
                    let vars = s["variables"]
                        .as_array()
                        .map(|vs| {
                            vs.iter()
                                .map(|v| {
                                    format!(
                                        "{} = {}",
                                        v["name"].as_str().unwrap_or(""),
                                        v["value"].as_str().unwrap_or("")
                                    )
                                })
                                .collect::<Vec<_>>()
                                .join(", ")
                        })
                        .unwrap_or_default();
                    format!(
                        "{}: {vars}",
                        s["name"]
                            .as_str()
                            .filter(|n| !n.is_empty())
                            .unwrap_or("(root)")
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            out["scopes"] = Value::Array(scopes);
        }
        Some(path) => {
            let vars: Vec<Value> = r.variables.iter().map(shape).collect();
            summary = vars
                .iter()
                .map(|v| {
                    format!(
                        "{} = {}",
                        v["name"].as_str().unwrap_or(""),
                        v["value"].as_str().unwrap_or("")
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            let start = r.offset.unwrap_or(offset);
            let next = match r.more {
                Some(true) => Some(start + u32::try_from(vars.len()).unwrap_or(u32::MAX)),
                _ => None,
            };
            out["path"] = json!(path);
            out["variables"] = Value::Array(vars);
            out["total"] = json!(
                r.total
                    .unwrap_or(u32::try_from(r.variables.len()).unwrap_or(u32::MAX))
            );
            out["offset"] = json!(start);
            out["next_offset"] = json!(next);
        }
    }
    answered(out, summary)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SetToolArgs {
    path: String,
    value: String,
    thread: Option<u32>,
    frame: Option<usize>,
    max_chars: Option<usize>,
}

pub(super) fn set_variable(call: &Call, a: SetToolArgs) -> Result<Answered, ToolError> {
    let thread = thread_or_current(call, a.thread)?;
    let frame = a.frame.unwrap_or(0);
    let r = call.link.call::<cmd::Set>(
        &SetArgs {
            path: a.path.clone(),
            value: a.value,
            epoch: None,
            thread: Some(thread),
            frame: Some(frame),
        },
        call.cancelled,
    )?;
    let key = frame_key_of(call, thread, frame);
    let variable = r
        .variable
        .as_ref()
        .map(|v| view::variable(call.link, v, thread, &key, r.epoch, max_chars(a.max_chars)));
    let value = variable
        .as_ref()
        .and_then(|v| v["value"].as_str().map(str::to_string))
        .unwrap_or_else(|| r.echo.clone());
    answered(
        json!({"path": r.path, "value": value, "echo": r.echo, "variable": variable}),
        format!("{} = {value}", r.path),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SourceToolArgs {
    location: Option<String>,
    object: Option<String>,
    line: Option<u32>,
    around: Option<u32>,
    thread: Option<u32>,
    frame: Option<usize>,
}

/// `OBJ:line` for an object name or an abapGit file name.
pub fn object_location(object: &str, line: u32) -> Result<String, ToolError> {
    if object.to_ascii_lowercase().ends_with(".abap") {
        let unit = abapgit::SourceUnit::from_path(object)
            .map_err(|e| ToolError::invalid_args(e.to_string()))?;
        Ok(unit.location(line))
    } else {
        Ok(format!("{}:{line}", object.to_uppercase()))
    }
}

pub(super) fn source(call: &Call, a: SourceToolArgs) -> Result<Answered, ToolError> {
    let around = a.around.unwrap_or(5).min(500);
    let location = match (a.location, a.object) {
        (Some(l), _) => Some(l),
        (None, Some(o)) => Some(object_location(&o, a.line.unwrap_or(1))?),
        (None, None) => None,
    };
    let (thread, frame) = if location.is_none() {
        (
            Some(thread_or_current(call, a.thread)?),
            Some(a.frame.unwrap_or(0)),
        )
    } else {
        (None, None)
    };
    let r = call.link.call::<cmd::Source>(
        &SourceArgs {
            location,
            before: around,
            after: around,
            thread,
            frame,
        },
        call.cancelled,
    )?;
    let file = abapgit::SourceUnit::from_uri(&r.uri).map(|u| u.file_name());
    answered(
        json!({"uri": r.uri, "file": file, "line": r.line, "lines": view::source_lines(&r.lines)}),
        view::numbered(&r.lines),
    )
}

/// The resource `abapdbg://source/{object}`: the whole source of an object (a name or an
/// abapGit file name).
pub fn source_resource(call: &Call, object: &str) -> Result<String, ToolError> {
    let r = call.link.call::<cmd::Source>(
        &SourceArgs {
            location: Some(object_location(object, 1)?),
            before: 0,
            after: 10_000,
            thread: None,
            frame: None,
        },
        call.cancelled,
    )?;
    Ok(r.lines
        .iter()
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n"))
}

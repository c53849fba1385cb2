//! Looking at a stopped program: `stack`, `frame`, `vars`, `get`, `set`, `source`.

use std::sync::Arc;

use jsonl::args::{FrameArgs, GetArgs, SetArgs, SourceArgs, VarsArgs, decode};
use jsonl::{ErrorBody, ErrorCode};
use serde_json::{Value, json};

use super::{Outcome, stopped_client};
use crate::debuggee::frame_json;
use crate::engine::Engine;
use crate::errors::from_adt;
use crate::reads::Reader;

/// Fails with `state.stale_reference` when the caller's epoch is not the current one.
pub(crate) fn check_epoch(engine: &Engine, epoch: Option<u64>) -> Result<u64, ErrorBody> {
    let current = engine.lock().epoch;
    match epoch {
        Some(e) if e != current => Err(ErrorBody::new(
            ErrorCode::StaleReference,
            format!(
                "the reference is from stop {e}, but the program has moved on to stop {current}"
            ),
        )
        .with_hint("read the variables again ('vars') and use the new ids")),
        _ => Ok(current),
    }
}

pub(crate) async fn stack(engine: &Arc<Engine>) -> Outcome {
    let (thread, client) = stopped_client(engine)?;
    // The stop read the stack: answer it for as long as the program stays there.
    let known = {
        let inner = engine.lock();
        inner
            .threads
            .get(&thread)
            .filter(|d| d.stack_epoch == inner.epoch && !d.stack.is_empty())
            .map(|d| (inner.epoch, d.stack.clone(), d.selected))
    };
    let (epoch, entries, current) = match known {
        Some(known) => known,
        None => {
            let stack = client
                .stack()
                .await
                .map_err(|e| from_adt("reading the stack", &e))?;
            engine.update(|inner| {
                let epoch = inner.epoch;
                let selected = inner.thread_mut(thread).map(|d| {
                    d.stack = stack.entries.clone();
                    d.stack_epoch = epoch;
                    d.selected
                });
                (epoch, stack.entries, selected.unwrap_or(stack.cursor_index))
            })
        }
    };
    let frames: Vec<Value> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| frame_json(i, e))
        .collect();
    Ok(json!({
        "epoch": epoch,
        "thread": thread,
        "current": current,
        "frames": frames,
    }))
}

pub(crate) async fn frame(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: FrameArgs = decode("frame", args)?;
    let epoch = check_epoch(engine, args.epoch)?;
    let (thread, client) = stopped_client(engine)?;
    let entry = {
        let inner = engine.lock();
        let stack = inner
            .threads
            .get(&thread)
            .map(|d| d.stack.clone())
            .unwrap_or_default();
        match stack.get(args.index) {
            Some(e) => e.clone(),
            None => {
                return Err(ErrorBody::new(
                    ErrorCode::InvalidArgs,
                    format!(
                        "no frame {} (the stack has {} frames)",
                        args.index,
                        stack.len()
                    ),
                )
                .with_hint("list the frames with 'stack'"));
            }
        }
    };
    client
        .set_stack_position(&entry)
        .await
        .map_err(|e| from_adt("selecting the frame", &e))?;
    engine.update(|inner| {
        if let Some(d) = inner.thread_mut(thread) {
            d.selected = args.index;
            d.reads.forget();
        }
    });
    let mut frame = frame_json(args.index, &entry);
    let context = engine.lock().limits.source_context;
    frame["source"] = Value::Array(
        engine
            .sources
            .context(&engine.main, &entry.uri, entry.line, context, context)
            .await,
    );
    Ok(json!({"epoch": epoch, "thread": thread, "frame": frame}))
}

pub(crate) async fn vars(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: VarsArgs = decode("vars", args)?;
    let epoch = check_epoch(engine, args.epoch)?;
    let (thread, client) = stopped_client(engine)?;
    let max = engine.lock().limits.max_value_chars;
    let reader = Reader {
        engine,
        thread,
        client: &client,
    };
    match args.id {
        None => scopes(&reader, epoch, max).await,
        Some(id) => {
            let page = (args.offset, args.limit.min(10_000));
            children(&reader, epoch, &id.to_uppercase(), max, page).await
        }
    }
}

pub(crate) async fn get(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: GetArgs = decode("get", args)?;
    let epoch = check_epoch(engine, args.epoch)?;
    let (thread, client) = stopped_client(engine)?;
    let path = args.path.trim().to_uppercase();
    let reader = Reader {
        engine,
        thread,
        client: &client,
    };
    let found = reader
        .variables(std::slice::from_ref(&path))
        .await
        .map_err(|e| from_adt("reading the variable", &e))?;
    let Some(v) = found.first() else {
        return Err(not_found(&path));
    };
    let mut out = variable_json_limited(
        v,
        "",
        if args.full {
            usize::MAX
        } else {
            engine.lock().limits.max_value_chars
        },
    );
    // getVariables names records by their full id; show the last component as the name.
    out["name"] = short_name(&path).into();
    Ok(json!({"epoch": epoch, "variable": out}))
}

pub(crate) async fn set(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: SetArgs = decode("set", args)?;
    if !engine.config.allow_writes {
        return Err(ErrorBody::new(
            ErrorCode::WriteNotAllowed,
            "changing variables is a write action and writes are not allowed in this session",
        )
        .with_hint("start the session with 'abapdbg serve --allow-writes' to permit 'set'"));
    }
    let epoch = check_epoch(engine, args.epoch)?;
    let (_, client) = stopped_client(engine)?;
    let path = args.path.trim().to_uppercase();
    let echo = client
        .set_variable_value(&path, &args.value)
        .await
        .map_err(|e| from_adt(&format!("setting {path}"), &e))?;
    engine.update(|inner| {
        if let Some(d) = inner.current.and_then(|t| inner.threads.get_mut(&t)) {
            d.reads.forget();
        }
    });
    let now = client
        .variables(std::slice::from_ref(&path))
        .await
        .map_err(|e| from_adt("reading the variable back", &e))?;
    let max = engine.lock().limits.max_value_chars;
    let variable = now.first().map(|v| {
        let mut out = variable_json_limited(v, "", max);
        out["name"] = short_name(&path).into();
        out
    });
    engine.emit(
        "variable.changed",
        json!({"epoch": epoch, "path": path, "value": echo}),
        None,
    );
    Ok(json!({"epoch": epoch, "path": path, "echo": echo, "variable": variable}))
}

pub(crate) async fn source(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: SourceArgs = decode("source", args)?;
    let (uri, line) = match &args.location {
        Some(text) => {
            let loc = adt::address::parse_location(text).map_err(|e| {
                ErrorBody::new(ErrorCode::InvalidLocation, format!("'{text}': {e}"))
            })?;
            (loc.uri, loc.line)
        }
        None => {
            let inner = engine.lock();
            let entry = inner
                .current()
                .and_then(|d| d.stack.get(d.selected).cloned())
                .ok_or_else(|| {
                    ErrorBody::new(ErrorCode::NotStopped, "no stopped frame to show")
                        .with_hint("give a \"location\" such as ZCL_X:42")
                })?;
            (entry.uri, entry.line)
        }
    };
    let lines = engine
        .sources
        .context(
            &engine.main,
            &uri,
            line,
            args.before.min(10_000),
            args.after.min(10_000),
        )
        .await;
    if lines.is_empty() {
        return Err(ErrorBody::new(
            ErrorCode::BackendException,
            format!("no source at {uri} line {line}"),
        )
        .with_hint("check the object name and that the line exists"));
    }
    Ok(json!({"uri": uri.split('#').next().unwrap_or_default(), "line": line, "lines": lines}))
}

pub(crate) fn not_found(id: &str) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::VariableNotFound,
        format!("no variable '{id}' in the selected frame"),
    )
    .with_hint("list the frame's variables with 'vars' and no arguments")
}

/// `LT[3]-PRICE` → `PRICE`, `ME->MV_A` → `MV_A`, `LV_X` → `LV_X`.
pub(crate) fn short_name(path: &str) -> String {
    let cut = [
        path.rfind("->").map(|i| i + 2),
        path.rfind('-').map(|i| i + 1),
    ]
    .into_iter()
    .flatten()
    .max()
    .unwrap_or(0);
    let tail = &path[cut..];
    if tail.is_empty() || tail == "*" {
        path.to_string()
    } else {
        tail.to_string()
    }
}

/// The current frame's scopes (discovered from `@ROOT`, never assumed) with their variables.
async fn scopes(reader: &Reader<'_>, epoch: u64, max: usize) -> Outcome {
    let root_id = ["@ROOT".to_string()];
    if !reader.knows_children(&root_id) {
        // Nothing read in this frame yet: the root and the likely scopes in one request (the
        // system skips scopes the frame does not have); what comes back is kept.
        let seen = reader
            .engine
            .lock()
            .threads
            .get(&reader.thread)
            .map(|d| d.scopes.clone())
            .unwrap_or_default();
        reader
            .child_variables(&crate::debuggee::stop_parents(&seen))
            .await
            .map_err(|e| from_adt("reading the scopes", &e))?;
    }
    let root = reader
        .child_variables(&root_id)
        .await
        .map_err(|e| from_adt("reading the scopes", &e))?;
    let mut scopes = Vec::new();
    let mut variables = Vec::new();
    for h in root
        .hierarchies
        .iter()
        .filter(|h| h.parent_id == "@ROOT" && !h.child_id.is_empty())
    {
        if h.child_id.starts_with('@') {
            scopes.push((h.child_id.clone(), h.child_name.clone()));
        } else if let Some(v) = root.variables.iter().find(|v| v.id == h.child_id) {
            // A variable shown right under the root, such as ME.
            variables.push(variable_json_limited(v, "", max));
        }
    }
    let ids: Vec<String> = scopes.iter().map(|(id, _)| id.clone()).collect();
    if let Some(d) = reader.engine.lock().threads.get_mut(&reader.thread) {
        // The next batched step reads these scopes along (see `debuggee::remember_reads`).
        d.scopes = ids.clone();
    }
    if !ids.is_empty() {
        let inner = reader
            .child_variables(&ids)
            .await
            .map_err(|e| from_adt("reading variables", &e))?;
        for h in &inner.hierarchies {
            let Some(v) = inner.variables.iter().find(|v| v.id == h.child_id) else {
                continue;
            };
            let scope = scopes
                .iter()
                .find(|(id, _)| *id == h.parent_id)
                .map(|(_, name)| name.as_str())
                .unwrap_or_default();
            variables.push(variable_json_limited(v, scope, max));
        }
    }
    let scopes: Vec<Value> = scopes
        .into_iter()
        .map(|(id, name)| json!({"id": id, "name": name}))
        .collect();
    Ok(json!({"epoch": epoch, "scopes": scopes, "variables": variables}))
}

async fn children(
    reader: &Reader<'_>,
    epoch: u64,
    id: &str,
    max: usize,
    (offset, limit): (u32, u32),
) -> Outcome {
    let kids = reader
        .child_variables(&[id.to_string()])
        .await
        .map_err(|e| from_adt("reading variables", &e))?;
    let mut variables: Vec<Value> = kids
        .hierarchies
        .iter()
        .filter(|h| h.parent_id == id)
        .filter_map(|h| kids.variables.iter().find(|v| v.id == h.child_id))
        .map(|v| variable_json_limited(v, "", max))
        .collect();
    if variables.is_empty() {
        // Not expandable (or unknown): answer the variable itself, or say it does not exist.
        let own = reader
            .variables(&[id.to_string()])
            .await
            .map_err(|e| from_adt("reading variables", &e))?;
        let Some(record) = own.first() else {
            return Err(not_found(id));
        };
        if record.meta_type == "table" {
            // ADT lists no rows as children of a table: address them by index, one page.
            let total = record.table_lines;
            let first = offset.saturating_add(1);
            let last = offset.saturating_add(limit).min(total);
            let ids: Vec<String> = (first..=last).map(|i| format!("{id}[{i}]")).collect();
            let rows = if ids.is_empty() {
                Vec::new()
            } else {
                reader
                    .variables(&ids)
                    .await
                    .map_err(|e| from_adt("reading table rows", &e))?
            };
            let variables: Vec<Value> = rows
                .iter()
                .map(|v| {
                    let mut out = variable_json_limited(v, "", max);
                    out["name"] = v.id.strip_prefix(id).unwrap_or(&v.id).into();
                    out
                })
                .collect();
            return Ok(json!({
                "epoch": epoch,
                "parent": id,
                "variables": variables,
                "total": total,
                "offset": offset,
                "more": last < total,
            }));
        }
        variables = own
            .iter()
            .map(|v| variable_json_limited(v, "", max))
            .collect();
    }
    Ok(json!({"epoch": epoch, "parent": id, "variables": variables}))
}

/// Cuts a value at `max` characters; says whether it did.
pub(crate) fn limited(value: &str, max: usize) -> (String, bool) {
    match value.char_indices().nth(max) {
        Some((cut, _)) => (value[..cut].to_string(), true),
        None => (value.to_string(), false),
    }
}

/// A variable as the protocol shows it. `value` is the value as a script wants it (numbers
/// with a leading sign instead of ABAP's trailing sign column), cut at `max` characters;
/// `raw` is exactly what the system sent.
fn variable_json_limited(v: &adt::Variable, scope: &str, max: usize) -> Value {
    let (value, truncated) = limited(&display_value(v), max);
    let mut out = json!({
        "id": v.id,
        "name": v.name,
        "scope": scope,
        "value": value,
        "raw": v.value,
        "type": v.technical_type,
        "declared_type": v.declared_type_name,
        "meta": v.meta_type,
        "kind": v.kind,
        "length": v.length,
        "rows": v.table_lines,
        "readonly": v.read_only,
        "expandable": matches!(v.meta_type.as_str(), "structure" | "table" | "dataref" | "objectref" | "class" | "object" | "boxref"),
    });
    if truncated {
        out["truncated"] = true.into();
        out["raw"] = Value::Null;
        out["full_length"] = v.value.chars().count().into();
        // The request that answers the whole value.
        out["fetch"] = json!({"cmd": "get", "args": {"path": v.id, "full": true}});
    }
    out
}

pub(crate) fn display_value(v: &adt::Variable) -> String {
    let numeric = matches!(
        v.technical_type.as_str(),
        "I" | "P" | "INT8" | "8" | "b" | "s" | "F" | "DECFLOAT16" | "DECFLOAT34"
    );
    if !numeric {
        return v.value.clone();
    }
    let t = v.value.trim();
    match t.strip_suffix('-') {
        Some(digits) => format!("-{digits}"),
        None => t.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(t: &str, value: &str) -> adt::Variable {
        adt::Variable {
            technical_type: t.into(),
            value: value.into(),
            ..Default::default()
        }
    }

    #[test]
    fn numbers_lose_the_sign_column_characters_keep_their_blanks() {
        assert_eq!(display_value(&var("I", "15 ")), "15");
        assert_eq!(display_value(&var("I", "42-")), "-42");
        assert_eq!(display_value(&var("P", "123.45-")), "-123.45");
        assert_eq!(display_value(&var("C", "A001      ")), "A001      ");
        assert_eq!(display_value(&var("CString", " x ")), " x ");
    }

    #[test]
    fn raw_is_kept() {
        let v = variable_json_limited(&var("I", "7 "), "Locals", 100);
        assert_eq!(v["raw"], "7 ");
        assert_eq!(v["value"], "7");
        assert_eq!(v["scope"], "Locals");
    }
}

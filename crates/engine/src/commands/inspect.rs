//! Looking at a stopped program: `stack`, `frame`, `vars`, `get`, `set`, `source`.

use std::sync::Arc;

use jsonl::args::{AtArgs, FrameArgs, GetArgs, SetArgs, SourceArgs, VarsArgs, decode};
use jsonl::events::{EventKind, VariableChanged};
use jsonl::results::{
    FrameResult, GetResult, Scope, SetResult, SourceResult, StackResult, Variable, VarsResult,
};
use jsonl::{ErrorBody, ErrorCode};
use serde_json::Value;

use crate::at::resolve;
use crate::engine::Engine;
use crate::errors::from_adt;
use crate::reads::Reader;
use crate::to_proto;

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

/// `stack`: the named thread's stack (`current`: the named frame, else the selected one).
pub(crate) async fn stack(engine: &Arc<Engine>, args: &Value) -> Result<StackResult, ErrorBody> {
    let args: AtArgs = decode("stack", args)?;
    let at = resolve(engine, args.thread, args.frame)?;
    let thread = at.thread;
    // The stop read the stack: answer it for as long as the program stays there.
    let known = {
        let inner = engine.lock();
        inner
            .threads
            .get(&thread)
            .filter(|d| d.stack_epoch == inner.epoch && !d.stack.is_empty())
            .map(|d| (inner.epoch, d.stack.clone()))
    };
    let (epoch, entries) = match known {
        Some(known) => known,
        None => {
            let stack = at
                .client
                .stack()
                .await
                .map_err(|e| from_adt("reading the stack", &e))?;
            engine.update(|inner| {
                let epoch = inner.epoch;
                if let Some(d) = inner.thread_mut(thread) {
                    d.stack = stack.entries.clone();
                    d.stack_epoch = epoch;
                }
                (epoch, stack.entries)
            })
        }
    };
    Ok(StackResult {
        epoch,
        thread,
        current: at.frame,
        frames: entries
            .iter()
            .enumerate()
            .map(|(i, e)| to_proto::frame(i, e))
            .collect(),
    })
}

/// `frame`: selects the frame requests of the current thread that name none act on. Only the
/// default changes: each frame's reads are kept (per frame), and the system's stack position
/// is where the next read needs it (`at.rs`).
pub(crate) async fn frame(engine: &Arc<Engine>, args: &Value) -> Result<FrameResult, ErrorBody> {
    let args: FrameArgs = decode("frame", args)?;
    let epoch = check_epoch(engine, args.epoch)?;
    let at = resolve(engine, None, Some(args.index))?;
    // Positioned now, as a person selecting a frame reads it next (and a dropped session shows
    // here); a read of the frame then asks the system nothing more.
    drop(at.positioned(engine).await?);
    engine.update(|inner| {
        if let Some(d) = inner.thread_mut(at.thread) {
            d.selected = at.frame;
        }
    });
    let mut frame = at
        .entry
        .as_ref()
        .map(|e| to_proto::frame(at.frame, e))
        .ok_or_else(|| {
            ErrorBody::new(
                ErrorCode::UnexpectedResponse,
                "the stop's stack could not be read: no frame to select",
            )
            .with_hint("read the stack with 'stack'")
        })?;
    let context = engine.lock().limits.source_context;
    frame.source = Some(
        engine
            .sources
            .context(&engine.main, &frame.uri, frame.line, context, context)
            .await,
    );
    Ok(FrameResult {
        epoch,
        thread: at.thread,
        frame,
    })
}

pub(crate) async fn vars(engine: &Arc<Engine>, args: &Value) -> Result<VarsResult, ErrorBody> {
    let args: VarsArgs = decode("vars", args)?;
    let epoch = check_epoch(engine, args.epoch)?;
    let at = resolve(engine, args.thread, args.frame)?;
    let max = engine.lock().limits.max_value_chars;
    let reader = Reader { engine, at: &at };
    match args.id {
        None => scopes(&reader, epoch, max).await,
        Some(id) => {
            let page = (args.offset, args.limit.min(10_000));
            children(&reader, epoch, &id.to_uppercase(), max, page).await
        }
    }
}

pub(crate) async fn get(engine: &Arc<Engine>, args: &Value) -> Result<GetResult, ErrorBody> {
    let args: GetArgs = decode("get", args)?;
    let epoch = check_epoch(engine, args.epoch)?;
    let at = resolve(engine, args.thread, args.frame)?;
    let path = args.path.trim().to_uppercase();
    let reader = Reader { engine, at: &at };
    let found = reader
        .variables(std::slice::from_ref(&path))
        .await
        .map_err(|e| e.describe("reading the variable"))?;
    let Some(v) = found.first() else {
        return Err(not_found(&path));
    };
    let max = if args.full {
        usize::MAX
    } else {
        engine.lock().limits.max_value_chars
    };
    let mut variable = to_proto::variable(v, "", max);
    // getVariables names records by their full id; show the last component as the name.
    variable.name = short_name(&path);
    Ok(GetResult { epoch, variable })
}

pub(crate) async fn set(engine: &Arc<Engine>, args: &Value) -> Result<SetResult, ErrorBody> {
    let args: SetArgs = decode("set", args)?;
    if !engine.config.allow_writes {
        return Err(ErrorBody::new(
            ErrorCode::WriteNotAllowed,
            "changing variables is a write action and writes are not allowed in this session",
        )
        .with_hint("start the session with 'abapdbg serve --allow-writes' to permit 'set'"));
    }
    let epoch = check_epoch(engine, args.epoch)?;
    let at = resolve(engine, args.thread, args.frame)?;
    let path = args.path.trim().to_uppercase();
    // The value is assigned and read back in the named frame, with the session held there.
    let positioned = at.positioned(engine).await?;
    let echo = at
        .client
        .set_variable_value(&path, &args.value)
        .await
        .map_err(|e| from_adt(&format!("setting {path}"), &e))?;
    // Any frame may show what changed (a global, an attribute of ME): forget them all.
    engine.update(|inner| {
        if let Some(d) = inner.thread_mut(at.thread) {
            d.reads.forget();
        }
    });
    let now = at
        .client
        .variables(std::slice::from_ref(&path))
        .await
        .map_err(|e| from_adt("reading the variable back", &e))?;
    drop(positioned);
    let max = engine.lock().limits.max_value_chars;
    let variable = now.first().map(|v| Variable {
        name: short_name(&path),
        ..to_proto::variable(v, "", max)
    });
    engine.emit(
        EventKind::VariableChanged(VariableChanged {
            epoch,
            path: path.clone(),
            value: echo.clone(),
            thread: Some(at.thread),
            frame: Some(at.frame),
        }),
        None,
    );
    Ok(SetResult {
        epoch,
        path,
        echo,
        variable,
    })
}

pub(crate) async fn source(engine: &Arc<Engine>, args: &Value) -> Result<SourceResult, ErrorBody> {
    let args: SourceArgs = decode("source", args)?;
    let (uri, line) = match &args.location {
        Some(text) => {
            let loc = adt::address::parse_location(text).map_err(|e| {
                ErrorBody::new(ErrorCode::InvalidLocation, format!("'{text}': {e}"))
            })?;
            (loc.uri, loc.line)
        }
        None => {
            let entry = resolve(engine, args.thread, args.frame)?
                .entry
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
    Ok(SourceResult {
        uri: uri.split('#').next().unwrap_or_default().to_string(),
        line,
        lines,
    })
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
    short_name_of(path).to_string()
}

/// [`short_name`], borrowed from `path`.
pub(crate) fn short_name_of(path: &str) -> &str {
    // After the last `-`, or after the last `->` when that is where the last `-` is (one
    // look from the end: a table page names a thousand cells).
    let cut = match path.rfind('-') {
        Some(i) if path.as_bytes().get(i + 1) == Some(&b'>') => i + 2,
        Some(i) => i + 1,
        None => 0,
    };
    match &path[cut..] {
        "" | "*" => path,
        tail => tail,
    }
}

/// The current frame's scopes (discovered from `@ROOT`, never assumed) with their variables.
async fn scopes(reader: &Reader<'_>, epoch: u64, max: usize) -> Result<VarsResult, ErrorBody> {
    let root_id = ["@ROOT".to_string()];
    if !reader.knows_children(&root_id) {
        // Nothing read in this frame yet: the root and the likely scopes in one request (the
        // system skips scopes the frame does not have); what comes back is kept. A system
        // may instead refuse the whole read for a scope the frame lacks: then the root is
        // read alone below, and the scopes it names.
        let seen = reader
            .engine
            .lock()
            .threads
            .get(&reader.thread())
            .map(|d| d.scopes.clone())
            .unwrap_or_default();
        match reader
            .child_variables(&crate::debuggee::stop_parents(&seen))
            .await
        {
            Ok(_) => {}
            Err(crate::reads::ReadError::Adt(e))
                if !matches!(
                    e,
                    adt::AdtError::Transport { .. } | adt::AdtError::Timeout { .. }
                ) =>
            {
                tracing::debug!("the combined read of the scopes was refused ({e}): @ROOT alone");
            }
            Err(e) => return Err(e.describe("reading the scopes")),
        }
    }
    let root = reader
        .child_variables(&root_id)
        .await
        .map_err(|e| e.describe("reading the scopes"))?;
    let mut scopes = Vec::new();
    let mut variables = Vec::new();
    for h in root
        .hierarchies
        .iter()
        .filter(|h| h.parent_id == "@ROOT" && !h.child_id.is_empty())
    {
        if h.child_id.starts_with('@') {
            scopes.push((h.child_id.to_string(), h.child_name.to_string()));
        } else if let Some(v) = root.variables.iter().find(|v| v.id == h.child_id) {
            // A variable shown right under the root, such as ME.
            variables.push(to_proto::variable(v, "", max));
        }
    }
    let ids: Vec<String> = scopes.iter().map(|(id, _)| id.clone()).collect();
    if reader.at.frame == 0
        && let Some(d) = reader.engine.lock().threads.get_mut(&reader.thread())
    {
        // The next batched step reads these scopes along (see `debuggee::remember_reads`).
        d.scopes = ids.clone();
    }
    if !ids.is_empty() {
        let inner = reader
            .child_variables(&ids)
            .await
            .map_err(|e| e.describe("reading variables"))?;
        for h in &inner.hierarchies {
            let Some(v) = inner.variables.iter().find(|v| v.id == h.child_id) else {
                continue;
            };
            let scope = scopes
                .iter()
                .find(|(id, _)| *id == h.parent_id)
                .map(|(_, name)| name.as_str())
                .unwrap_or_default();
            variables.push(to_proto::variable(v, scope, max));
        }
    }
    field_symbols(reader, &scopes, &mut variables, max).await?;
    Ok(VarsResult {
        epoch,
        scopes: Some(
            scopes
                .into_iter()
                .map(|(id, name)| Scope { id, name })
                .collect(),
        ),
        parent: None,
        variables,
        total: None,
        offset: None,
        more: None,
    })
}

/// The field symbols the frame's procedure declares that are assigned at the stop, in the
/// procedure's scope (`Locals`, or `Globals` of a report's main program) after its other
/// variables. The system lists none of them; it answers each assigned one by name, and an
/// unassigned one not at all (so it is not listed).
async fn field_symbols(
    reader: &Reader<'_>,
    scopes: &[(String, String)],
    variables: &mut Vec<Variable>,
    max: usize,
) -> Result<(), ErrorBody> {
    let Some(entry) = reader.at.entry.as_ref() else {
        return Ok(());
    };
    let engine = reader.engine;
    let Some(lines) = engine.sources.lines(&engine.main, &entry.uri).await else {
        return Ok(());
    };
    let names = crate::field_symbols::declared(&lines, entry.line);
    if names.is_empty() {
        return Ok(());
    }
    let found = reader
        .variables(&names)
        .await
        .map_err(|e| e.describe("reading field symbols"))?;
    let scope = ["@LOCALS", "@GLOBALS"]
        .iter()
        .find_map(|id| scopes.iter().find(|(s, _)| s == id))
        .map(|(_, name)| name.clone())
        .unwrap_or_default();
    let at = variables
        .iter()
        .rposition(|v| v.scope == scope)
        .map_or(variables.len(), |i| i + 1);
    let listed = found.iter().map(|v| Variable {
        // The system names a record read by id with its id: the field symbol's own name.
        name: v.id.to_string(),
        ..to_proto::variable(v, &scope, max)
    });
    variables.splice(at..at, listed.collect::<Vec<_>>());
    Ok(())
}

async fn children(
    reader: &Reader<'_>,
    epoch: u64,
    id: &str,
    max: usize,
    (offset, limit): (u32, u32),
) -> Result<VarsResult, ErrorBody> {
    let kids = reader
        .child_variables(&[id.to_string()])
        .await
        .map_err(|e| e.describe("reading variables"))?;
    let mut variables: Vec<Variable> = kids
        .hierarchies
        .iter()
        .filter(|h| h.parent_id == id)
        .filter_map(|h| kids.variables.iter().find(|v| v.id == h.child_id))
        .map(|v| to_proto::variable(v, "", max))
        .collect();
    if variables.is_empty() {
        // Not expandable (or unknown): answer the variable itself, or say it does not exist.
        let own = reader
            .variables(&[id.to_string()])
            .await
            .map_err(|e| e.describe("reading variables"))?;
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
                    .map_err(|e| e.describe("reading table rows"))?
            };
            let variables = rows
                .iter()
                .map(|v| Variable {
                    name: v.id.strip_prefix(id).unwrap_or(&v.id).to_string(),
                    ..to_proto::variable(v, "", max)
                })
                .collect();
            return Ok(VarsResult {
                epoch,
                scopes: None,
                parent: Some(id.to_string()),
                variables,
                total: Some(total),
                offset: Some(offset),
                more: Some(last < total),
            });
        }
        variables = own.iter().map(|v| to_proto::variable(v, "", max)).collect();
    }
    Ok(VarsResult {
        epoch,
        scopes: None,
        parent: Some(id.to_string()),
        variables,
        total: None,
        offset: None,
        more: None,
    })
}

#[cfg(test)]
mod tests {
    use super::short_name;

    /// What `short_name` is: the text after the last `->` or the last `-`, whichever ends
    /// later, or the whole path when that text is empty or `*`.
    fn by_definition(path: &str) -> String {
        let cut = [
            path.rfind("->").map(|i| i + 2),
            path.rfind('-').map(|i| i + 1),
        ]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(0);
        match &path[cut..] {
            "" | "*" => path.to_string(),
            tail => tail.to_string(),
        }
    }

    #[test]
    fn short_names_are_the_last_component() {
        for (path, short) in [
            ("LT_BIG[1]-NAME", "NAME"),
            ("LO_OBJ->MV_X", "MV_X"),
            ("LO_OBJ->MS_S-F", "F"),
            ("LS_S-SUB->ATTR", "ATTR"),
            ("LR_REF->*", "LR_REF->*"),
            ("LV_PLAIN", "LV_PLAIN"),
            ("A-", "A-"),
            ("A->", "A->"),
            ("-", "-"),
            ("", ""),
            ("X->-Y", "Y"),
            ("X-->Y", "Y"),
            ("ÄÖ-Ü->ß", "ß"),
        ] {
            assert_eq!(short_name(path), short, "{path}");
            assert_eq!(short_name(path), by_definition(path), "{path}");
        }
        // Every short mix of the characters that matter.
        let alphabet = ['-', '>', '*', 'A', 'ü'];
        let mut paths = vec![String::new()];
        for _ in 0..5 {
            paths = paths
                .iter()
                .flat_map(|p| alphabet.iter().map(move |c| format!("{p}{c}")))
                .collect();
            for p in &paths {
                assert_eq!(short_name(p), by_definition(p), "{p}");
            }
        }
    }
}

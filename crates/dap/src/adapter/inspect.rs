//! `threads`, `stackTrace`, `scopes`, `variables`, `source`, `loadedSources`.
//!
//! Threads are the session's caught programs. Scopes are what the system reports for the
//! frame (`vars` without an id), never a fixed list; variables directly under the root (`ME`)
//! form one more scope, "Root". Tables are indexed variables read a page at a time (`start`/
//! `count` → the session's `offset`/`limit`), so a 100,000-row table costs one page.

use std::collections::HashMap;
use std::path::Path;

use jsonl::args::{AtArgs, SourceArgs, VarsArgs};
use jsonl::cmd;
use jsonl::results::{Frame, Variable, VarsResult};
use serde_json::{Value, json};

use super::{Adapter, Failure, FrameRef, Reply, VarRef};
use crate::abapgit::SourceUnit;

/// Rows listed for a client that asks for a table's rows without a `count`.
pub(crate) const UNPAGED_ROWS: u32 = 1000;
/// The scope of variables directly under the root.
const ROOT_SCOPE: &str = "Root";

/// `ZCL_X=========CP` → `ZCL_X`.
fn program_name(program: &str) -> &str {
    let p = program.trim_end_matches("CP");
    if p.len() < program.len() && p.ends_with('=') {
        p.trim_end_matches('=')
    } else {
        program
    }
}

/// `vars` arguments with the protocol's defaults (the derived `Default` would ask for no rows).
fn vars_args() -> VarsArgs {
    serde_json::from_value(json!({})).unwrap_or_default()
}

fn thread_id(v: &Value) -> Option<u32> {
    v.as_u64().and_then(|i| u32::try_from(i).ok())
}

impl Adapter {
    pub(super) fn threads(&mut self) -> Reply {
        if self.link.is_none() {
            return Ok(Some(json!({ "threads": [] })));
        }
        let result = self.request::<cmd::Threads>(&Default::default())?;
        let threads: Vec<Value> = result
            .threads
            .iter()
            .map(|t| {
                let id = t.thread;
                let program = program_name(&t.program);
                let name = if t.user.is_empty() {
                    format!("{id}: {program}")
                } else {
                    format!("{id}: {program} ({})", t.user)
                };
                json!({ "id": id, "name": name })
            })
            .collect();
        Ok(Some(json!({ "threads": threads })))
    }

    /// The DAP source of a frame: the local file its `file` names, else a reference the
    /// `source` request answers from the system; none for a source abapGit does not hold.
    pub(crate) fn frame_source(&mut self, frame: &Frame) -> Option<Value> {
        let file = frame.file.as_deref()?;
        if let Some(path) = self.sources.local_file_named(file) {
            let name = Path::new(path)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| file.to_string());
            let path = if self.caps.uri_paths {
                crate::sources::path_to_uri(path)
            } else {
                path.display().to_string()
            };
            return Some(json!({ "name": name, "path": path }));
        }
        let unit = SourceUnit::from_path(file).ok()?;
        let reference = self.sources.reference(&unit);
        Some(json!({
            "name": unit.file_name(),
            "sourceReference": reference,
            "origin": format!("{} on the system", unit.object()),
        }))
    }

    pub(super) fn stack_trace(&mut self, args: &Value) -> Reply {
        let thread = thread_id(&args["threadId"]).ok_or_else(|| Failure("no threadId".into()))?;
        let stack = self.request::<cmd::Stack>(&AtArgs {
            thread: Some(thread),
            frame: None,
        })?;
        let epoch = stack.epoch;
        let total = stack.frames.len();
        let start = args["startFrame"].as_u64().unwrap_or(0) as usize;
        let levels = match args["levels"].as_u64().unwrap_or(0) as usize {
            0 => total,
            n => n,
        };
        let mut out = Vec::new();
        for f in stack.frames.iter().skip(start).take(levels) {
            let id = self.frames.allocate(FrameRef {
                thread,
                epoch,
                index: f.index,
            });
            let name = match (f.object.as_str(), f.method.as_str()) {
                ("", m) => m.to_string(),
                (o, "") => o.to_string(),
                (o, m) if f.event_type == "METHOD" => format!("{o}->{m}"),
                (o, m) => format!("{o} {m}"),
            };
            let line = self.client_line(u64::from(f.line));
            let mut frame = json!({
                "id": id,
                "name": name,
                "line": line,
                "column": if self.caps.lines_start_at1 { 1 } else { 0 },
            });
            if let Some(source) = self.frame_source(f) {
                frame["source"] = source;
            }
            if f.system {
                frame["presentationHint"] = json!("subtle");
            }
            out.push(frame);
        }
        Ok(Some(json!({ "stackFrames": out, "totalFrames": total })))
    }

    fn frame_ref(&self, args: &Value) -> Result<FrameRef, Failure> {
        let id = args["frameId"].as_i64().unwrap_or(0);
        self.frames.get(id).copied().ok_or_else(|| {
            Failure(format!(
                "frame {id} is no longer valid (the program moved on): ask for the stack again"
            ))
        })
    }

    /// The scopes and variables of `frame` (`vars` without an id), read once per stop.
    fn listing(&mut self, frame: FrameRef) -> Result<&VarsResult, Failure> {
        if !self.listings.contains_key(&frame) {
            let listing = self.request::<cmd::Vars>(&VarsArgs {
                epoch: Some(frame.epoch),
                thread: Some(frame.thread),
                frame: Some(frame.index),
                ..vars_args()
            })?;
            self.listings.insert(frame, listing);
        }
        self.listings
            .get(&frame)
            .ok_or_else(|| Failure("the frame's variables could not be kept".into()))
    }

    pub(super) fn scopes(&mut self, args: &Value) -> Reply {
        let frame = self.frame_ref(args)?;
        self.focus = Some(frame);
        let listing = self.listing(frame)?;
        let count = |scope: &str| {
            listing
                .variables
                .iter()
                .filter(|v| v.scope == scope)
                .count()
        };
        let found: Vec<(String, String, usize)> = listing
            .scopes
            .iter()
            .flatten()
            .map(|s| (s.id.clone(), s.name.clone(), count(&s.name)))
            .collect();
        let at_root = count("");
        let mut scopes = Vec::new();
        for (id, name, named) in found {
            let reference = self.vars.allocate(VarRef::Scope {
                frame,
                name: name.clone(),
            });
            let mut scope = json!({"name": name, "variablesReference": reference,
                                   "namedVariables": named, "expensive": false});
            match id.as_str() {
                "@LOCALS" => scope["presentationHint"] = json!("locals"),
                "@PARAMETERS" => scope["presentationHint"] = json!("arguments"),
                _ => {}
            }
            scopes.push(scope);
        }
        if at_root > 0 {
            let reference = self.vars.allocate(VarRef::Scope {
                frame,
                name: String::new(),
            });
            scopes.push(json!({"name": ROOT_SCOPE, "variablesReference": reference,
                               "namedVariables": at_root, "expensive": false}));
        }
        Ok(Some(json!({ "scopes": scopes })))
    }

    pub(super) fn variables(&mut self, args: &Value) -> Reply {
        let reference = args["variablesReference"].as_i64().unwrap_or(0);
        let Some(target) = self.vars.get(reference).cloned() else {
            return Err(Failure(format!(
                "variablesReference {reference} is no longer valid (the program moved on)"
            )));
        };
        let frame = target.frame();
        self.focus = Some(frame);
        let filter = args["filter"].as_str();
        let hex = args["format"]["hex"].as_bool().unwrap_or(false);
        let list: Vec<Variable> = match &target {
            VarRef::Scope { name, .. } => {
                if filter == Some("indexed") {
                    return Ok(Some(json!({ "variables": [] })));
                }
                self.listing(frame)?
                    .variables
                    .iter()
                    .filter(|v| &v.scope == name)
                    .cloned()
                    .collect()
            }
            VarRef::Var { id, table, .. } => {
                if (*table && filter == Some("named")) || (!*table && filter == Some("indexed")) {
                    return Ok(Some(json!({ "variables": [] })));
                }
                let mut vars_args = VarsArgs {
                    id: Some(id.clone()),
                    epoch: Some(frame.epoch),
                    thread: Some(frame.thread),
                    frame: Some(frame.index),
                    ..vars_args()
                };
                if *table {
                    let start = args["start"].as_u64().unwrap_or(0);
                    let count = match args["count"].as_u64().unwrap_or(0) {
                        0 => u64::from(UNPAGED_ROWS),
                        n => n,
                    };
                    vars_args.offset = u32::try_from(start).unwrap_or(u32::MAX);
                    vars_args.limit = u32::try_from(count).unwrap_or(u32::MAX);
                }
                let listing = self.request::<cmd::Vars>(&vars_args)?;
                listing
                    .variables
                    .into_iter()
                    // A variable without children answers itself.
                    .filter(|v| &v.id != id)
                    .collect()
            }
        };
        let mut children = HashMap::new();
        let mut out = Vec::new();
        for v in &list {
            children.insert(v.name.clone(), v.id.clone());
            out.push(self.dap_variable(v, frame, hex));
        }
        // Scope members are addressed by their ids, which are their names.
        if let Some(VarRef::Var { children: c, .. }) = self.vars.get_mut(reference) {
            *c = children;
        }
        Ok(Some(json!({ "variables": out })))
    }

    /// A session variable record as a DAP variable (with a reference when it has children).
    pub(crate) fn dap_variable(&mut self, v: &Variable, frame: FrameRef, hex: bool) -> Value {
        let table = v.meta == "table";
        let ty = if v.declared_type.is_empty() {
            &v.technical_type
        } else {
            &v.declared_type
        };
        let mut out = json!({
            "name": v.name,
            "value": display_value(v, hex),
            "evaluateName": v.id,
            "variablesReference": 0,
        });
        if self.caps.supports_variable_type {
            out["type"] = json!(ty);
        }
        if v.expandable || (table && v.rows > 0) {
            let reference = self.vars.allocate(VarRef::Var {
                frame,
                id: v.id.clone(),
                table,
                children: HashMap::new(),
            });
            out["variablesReference"] = json!(reference);
            if table {
                out["indexedVariables"] = json!(v.rows);
            }
        }
        if v.readonly {
            out["presentationHint"] = json!({ "attributes": ["readOnly"] });
        }
        out
    }

    pub(super) fn source(&mut self, args: &Value) -> Reply {
        let reference = args["source"]["sourceReference"]
            .as_i64()
            .or_else(|| args["sourceReference"].as_i64())
            .unwrap_or(0);
        let Some(unit) = self.sources.by_reference(reference).cloned() else {
            return Err(Failure(format!("no source with reference {reference}")));
        };
        let result = self.request::<cmd::Source>(&SourceArgs {
            location: Some(unit.location(1)),
            before: 0,
            after: 10_000,
            ..SourceArgs::default()
        })?;
        let mut content = String::new();
        for line in &result.lines {
            content.push_str(&line.text);
            content.push('\n');
        }
        Ok(Some(
            json!({ "content": content, "mimeType": "text/x-abap" }),
        ))
    }

    pub(super) fn loaded_sources(&mut self) -> Reply {
        let mut sources = Vec::new();
        let mut r = 1;
        while let Some(unit) = self.sources.by_reference(r).cloned() {
            sources.push(json!({"name": unit.file_name(), "sourceReference": r}));
            r += 1;
        }
        Ok(Some(json!({ "sources": sources })))
    }
}

/// A variable's value as shown: tables with their row count, integers in hex on request.
pub(crate) fn display_value(v: &Variable, hex: bool) -> String {
    if v.meta == "table" {
        let ty = if v.technical_type.is_empty() {
            "Table"
        } else {
            &v.technical_type
        };
        return format!("{ty} [{} rows]", v.rows);
    }
    let integer = matches!(
        v.technical_type.as_str(),
        "I" | "INT8" | "b" | "s" | "INT1" | "INT2"
    );
    if hex
        && integer
        && let Ok(n) = v.value.trim().parse::<i64>()
    {
        return if n < 0 {
            format!("-0x{:X}", n.unsigned_abs())
        } else {
            format!("0x{n:X}")
        };
    }
    if v.truncated {
        return format!("{}…", v.value);
    }
    v.value.clone()
}

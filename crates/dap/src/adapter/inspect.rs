//! `threads`, `stackTrace`, `scopes`, `variables`, `source`, `loadedSources`.
//!
//! Threads are the session's caught programs. Scopes are what the system reports for the
//! frame (`vars` without an id), never a fixed list; variables directly under the root (`ME`)
//! form one more scope, "Root". Tables are indexed variables read a page at a time (`start`/
//! `count` → the session's `offset`/`limit`), so a 100,000-row table costs one page.

use std::collections::HashMap;
use std::path::Path;

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

fn thread_id(v: &Value) -> Option<u32> {
    v.as_u64().and_then(|i| u32::try_from(i).ok())
}

impl Adapter {
    pub(super) fn threads(&mut self) -> Reply {
        if self.link.is_none() {
            return Ok(Some(json!({ "threads": [] })));
        }
        let result = self.call("threads", json!({}))?;
        let threads: Vec<Value> = result["threads"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| {
                let id = thread_id(&t["thread"])?;
                let program = program_name(t["program"].as_str().unwrap_or("?"));
                let name = match t["user"].as_str() {
                    Some(user) if !user.is_empty() => format!("{id}: {program} ({user})"),
                    _ => format!("{id}: {program}"),
                };
                Some(json!({ "id": id, "name": name }))
            })
            .collect();
        Ok(Some(json!({ "threads": threads })))
    }

    /// The DAP source of a frame (by its URI): the local file, else a reference.
    pub(crate) fn frame_source(&mut self, uri: &str) -> Option<Value> {
        let unit = SourceUnit::from_uri(uri)?;
        if let Some(path) = self.sources.local_file(&unit) {
            let name = Path::new(path)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| unit.file_name());
            let path = if self.caps.uri_paths {
                crate::sources::path_to_uri(path)
            } else {
                path.display().to_string()
            };
            return Some(json!({ "name": name, "path": path }));
        }
        let reference = self.sources.reference(&unit);
        Some(json!({
            "name": unit.file_name(),
            "sourceReference": reference,
            "origin": format!("{} on the system", unit.object()),
        }))
    }

    pub(super) fn stack_trace(&mut self, args: &Value) -> Reply {
        let thread = thread_id(&args["threadId"]).ok_or_else(|| Failure("no threadId".into()))?;
        self.ensure_thread(thread)?;
        let stack = self.call("stack", json!({}))?;
        let epoch = stack["epoch"].as_u64().unwrap_or(0);
        let frames = stack["frames"].as_array().cloned().unwrap_or_default();
        let total = frames.len();
        let start = args["startFrame"].as_u64().unwrap_or(0) as usize;
        let levels = match args["levels"].as_u64().unwrap_or(0) as usize {
            0 => total,
            n => n,
        };
        let mut out = Vec::new();
        for f in frames.iter().skip(start).take(levels) {
            let index = f["index"].as_u64().unwrap_or(0) as usize;
            let id = self.frames.allocate(FrameRef {
                thread,
                epoch,
                index,
            });
            let object = f["object"].as_str().unwrap_or_default();
            let method = f["method"].as_str().unwrap_or_default();
            let name = match (object, method) {
                ("", m) => m.to_string(),
                (o, "") => o.to_string(),
                (o, m) if f["event_type"].as_str() == Some("METHOD") => format!("{o}->{m}"),
                (o, m) => format!("{o} {m}"),
            };
            let line = self.client_line(f["line"].as_u64().unwrap_or(0));
            let mut frame = json!({
                "id": id,
                "name": name,
                "line": line,
                "column": if self.caps.lines_start_at1 { 1 } else { 0 },
            });
            if let Some(source) = self.frame_source(f["uri"].as_str().unwrap_or_default()) {
                frame["source"] = source;
            }
            if f["system"].as_bool() == Some(true) {
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

    pub(super) fn scopes(&mut self, args: &Value) -> Reply {
        let frame = self.frame_ref(args)?;
        self.ensure_frame(frame)?;
        let listing = self.call("vars", json!({ "epoch": frame.epoch }))?;
        let variables = listing["variables"].as_array().cloned().unwrap_or_default();
        let count = |scope: &str| {
            variables
                .iter()
                .filter(|v| v["scope"].as_str().unwrap_or_default() == scope)
                .count()
        };
        let mut scopes = Vec::new();
        for s in listing["scopes"].as_array().into_iter().flatten() {
            let name = s["name"].as_str().unwrap_or_default().to_string();
            let named = count(&name);
            let reference = self.vars.allocate(VarRef::Scope {
                frame,
                name: name.clone(),
            });
            let mut scope = json!({"name": name, "variablesReference": reference,
                                   "namedVariables": named, "expensive": false});
            match s["id"].as_str() {
                Some("@LOCALS") => scope["presentationHint"] = json!("locals"),
                Some("@PARAMETERS") => scope["presentationHint"] = json!("arguments"),
                _ => {}
            }
            scopes.push(scope);
        }
        let at_root = count("");
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
        self.ensure_frame(frame)?;
        let filter = args["filter"].as_str();
        let hex = args["format"]["hex"].as_bool().unwrap_or(false);
        let list: Vec<Value> = match &target {
            VarRef::Scope { name, .. } => {
                if filter == Some("indexed") {
                    return Ok(Some(json!({ "variables": [] })));
                }
                let listing = self.call("vars", json!({ "epoch": frame.epoch }))?;
                listing["variables"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|v| v["scope"].as_str().unwrap_or_default() == name)
                    .cloned()
                    .collect()
            }
            VarRef::Var { id, table, .. } => {
                if (*table && filter == Some("named")) || (!*table && filter == Some("indexed")) {
                    return Ok(Some(json!({ "variables": [] })));
                }
                let mut vars_args = json!({ "id": id, "epoch": frame.epoch });
                if *table {
                    let start = args["start"].as_u64().unwrap_or(0);
                    let count = match args["count"].as_u64().unwrap_or(0) {
                        0 => u64::from(UNPAGED_ROWS),
                        n => n,
                    };
                    vars_args["offset"] = json!(start.min(u64::from(u32::MAX)));
                    vars_args["limit"] = json!(count.min(u64::from(u32::MAX)));
                }
                let listing = self.call("vars", vars_args)?;
                listing["variables"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    // A variable without children answers itself.
                    .filter(|v| v["id"].as_str() != Some(id))
                    .cloned()
                    .collect()
            }
        };
        let mut children = HashMap::new();
        let mut out = Vec::new();
        for v in &list {
            let name = v["name"].as_str().unwrap_or_default().to_string();
            if let Some(id) = v["id"].as_str() {
                children.insert(name, id.to_string());
            }
            out.push(self.dap_variable(v, frame, hex));
        }
        // Scope members are addressed by their ids, which are their names.
        if let Some(VarRef::Var { children: c, .. }) = self.vars.get_mut(reference) {
            *c = children;
        }
        Ok(Some(json!({ "variables": out })))
    }

    /// A session variable record as a DAP variable (with a reference when it has children).
    pub(crate) fn dap_variable(&mut self, v: &Value, frame: FrameRef, hex: bool) -> Value {
        let id = v["id"].as_str().unwrap_or_default().to_string();
        let meta = v["meta"].as_str().unwrap_or_default();
        let table = meta == "table";
        let rows = v["rows"].as_u64().unwrap_or(0);
        let ty = v["declared_type"]
            .as_str()
            .filter(|t| !t.is_empty())
            .or_else(|| v["type"].as_str())
            .unwrap_or_default()
            .to_string();
        let value = display_value(v, hex);
        let mut out = json!({
            "name": v["name"].as_str().unwrap_or(&id),
            "value": value,
            "evaluateName": id,
            "variablesReference": 0,
        });
        if self.caps.supports_variable_type {
            out["type"] = json!(ty);
        }
        if v["expandable"].as_bool() == Some(true) || (table && rows > 0) {
            let reference = self.vars.allocate(VarRef::Var {
                frame,
                id: id.clone(),
                table,
                children: HashMap::new(),
            });
            out["variablesReference"] = json!(reference);
            if table {
                out["indexedVariables"] = json!(rows);
            }
        }
        if v["readonly"].as_bool() == Some(true) {
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
        let result = self.call(
            "source",
            json!({"location": unit.location(1), "before": 0, "after": 10_000}),
        )?;
        let mut content = String::new();
        for line in result["lines"].as_array().into_iter().flatten() {
            content.push_str(line["text"].as_str().unwrap_or_default());
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
pub(crate) fn display_value(v: &Value, hex: bool) -> String {
    let value = v["value"].as_str().unwrap_or_default();
    let meta = v["meta"].as_str().unwrap_or_default();
    if meta == "table" {
        let ty = v["type"].as_str().unwrap_or("Table");
        return format!("{ty} [{} rows]", v["rows"].as_u64().unwrap_or(0));
    }
    let integer = matches!(
        v["type"].as_str().unwrap_or_default(),
        "I" | "INT8" | "b" | "s" | "INT1" | "INT2"
    );
    if hex
        && integer
        && let Ok(n) = value.trim().parse::<i64>()
    {
        return if n < 0 {
            format!("-0x{:X}", n.unsigned_abs())
        } else {
            format!("0x{n:X}")
        };
    }
    if v["truncated"].as_bool() == Some(true) {
        return format!("{value}…");
    }
    value.to_string()
}

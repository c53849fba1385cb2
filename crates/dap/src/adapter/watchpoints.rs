//! Data breakpoints (`dataBreakpointInfo`, `setDataBreakpoints`) as ADT watchpoints.
//!
//! A watchpoint lives in the debug session of one stopped program (the session's `watch.set`):
//! it can be set only while that program is stopped, stops it when the variable's value
//! changes (reason `data breakpoint`), and ends with the program. So data breakpoints do not
//! persist, and a list sent while nothing is stopped comes back unverified saying why.

use jsonl::args::{WatchIdArgs, WatchSetArgs};
use jsonl::cmd;
use serde_json::{Value, json};

use super::{Adapter, Failure, Reply, VarRef};

/// Why a data breakpoint cannot be set now.
const NOT_STOPPED: &str = "ADT sets watchpoints in a stopped program: stop it first";

impl Adapter {
    pub(super) fn data_breakpoint_info(&mut self, args: &Value) -> Reply {
        let name = args["name"].as_str().unwrap_or_default().trim().to_string();
        let id = match args["variablesReference"].as_i64() {
            Some(reference) => match self.vars.get(reference) {
                Some(VarRef::Scope { .. }) => Some(name.clone()),
                Some(VarRef::Var { children, .. }) => children.get(&name).cloned(),
                None => None,
            },
            // An expression (from the editor or the console): a variable path.
            None => (!name.is_empty()).then(|| name.to_uppercase()),
        };
        let body = match (id, self.last_thread) {
            (Some(id), Some(_)) => json!({
                "dataId": id,
                "description": format!("{id} changes"),
                "accessTypes": ["write"],
                "canPersist": false,
            }),
            (None, _) => {
                json!({"dataId": null, "description": format!("'{name}' cannot be watched")})
            }
            (_, None) => json!({"dataId": null, "description": NOT_STOPPED}),
        };
        Ok(Some(body))
    }

    pub(super) fn set_data_breakpoints(&mut self, args: &Value) -> Reply {
        let wanted: Vec<Value> = args["breakpoints"].as_array().cloned().unwrap_or_default();
        // The earlier ones go first (a watchpoint that expired with its program is gone already).
        let old = std::mem::take(&mut self.watchpoints);
        for (thread, id) in old {
            let _ = self.delete_watchpoint(thread, id);
        }
        let Some(thread) = self.last_thread.filter(|_| !wanted.is_empty()) else {
            let out: Vec<Value> = wanted
                .iter()
                .map(|_| json!({"verified": false, "message": NOT_STOPPED}))
                .collect();
            return Ok(Some(json!({ "breakpoints": out })));
        };
        let mut out = Vec::new();
        for bp in &wanted {
            let variable = bp["dataId"].as_str().unwrap_or_default().to_uppercase();
            if bp["hitCondition"]
                .as_str()
                .is_some_and(|h| !h.trim().is_empty())
            {
                out.push(json!({"verified": false,
                    "message": "hit conditions are not counted for data breakpoints"}));
                continue;
            }
            let set = WatchSetArgs {
                variable: variable.clone(),
                condition: bp["condition"]
                    .as_str()
                    .filter(|c| !c.trim().is_empty())
                    .map(String::from),
                thread: Some(thread),
                frame: None,
            };
            match self.request::<cmd::WatchSet>(&set) {
                Ok(result) => {
                    // The session answers all watchpoints of the program; ours is the newest
                    // on this variable.
                    let id = result
                        .watchpoints
                        .iter()
                        .filter(|w| w.variable == variable)
                        .map(|w| w.id.clone())
                        .max_by_key(|id| id.parse::<u64>().unwrap_or(0));
                    if let Some(id) = id {
                        self.watchpoints.push((thread, id));
                    }
                    out.push(json!({ "verified": true }));
                }
                Err(Failure(m)) => out.push(json!({"verified": false, "message": m})),
            }
        }
        Ok(Some(json!({ "breakpoints": out })))
    }

    /// Deletes watchpoint `id` of `thread`'s program.
    pub(super) fn delete_watchpoint(&mut self, thread: u32, id: String) -> Result<(), Failure> {
        self.request::<cmd::WatchDelete>(&WatchIdArgs {
            id,
            thread: Some(thread),
            frame: None,
        })?;
        Ok(())
    }
}

//! `evaluate` (hovers, watches, the debug console) and `setVariable`.
//!
//! An expression is a variable path as the session's `get` reads it: `LV_X`, `LT_X[3]-COMP`,
//! `ME->ATTR`, `ZCL_X=>STATIC`, `<FS>`, `LR_REF->*`. `setVariable` is a write action: refused
//! unless the launch configuration says `"allowWrites": true` (and the session allows writes).

use serde_json::{Value, json};

use super::inspect::display_value;
use super::{Adapter, Failure, FrameRef, Reply, VarRef};

/// Why a write is refused here.
pub(crate) const WRITES_OFF: &str = "a write action: set \"allowWrites\": true in the launch \
     configuration to change the program's state";

impl Adapter {
    /// The frame an expression is read in: the given one, else the top of the thread last
    /// stopped (as the session has it selected).
    fn evaluation_frame(&mut self, args: &Value) -> Result<Option<FrameRef>, Failure> {
        match args["frameId"].as_i64() {
            Some(id) => match self.frames.get(id).copied() {
                Some(frame) => {
                    self.ensure_frame(frame)?;
                    Ok(Some(frame))
                }
                None => Err(Failure(format!(
                    "frame {id} is no longer valid (the program moved on)"
                ))),
            },
            None => Ok(self.selected),
        }
    }

    pub(super) fn evaluate(&mut self, args: &Value) -> Reply {
        let expression = args["expression"].as_str().unwrap_or_default().trim();
        if expression.is_empty() {
            return Err(Failure("nothing to evaluate".into()));
        }
        let frame = self.evaluation_frame(args)?;
        let mut get = json!({ "path": expression, "full": args["context"] == "clipboard" });
        if let Some(f) = frame {
            get["epoch"] = json!(f.epoch);
        }
        let result = self.call("get", get)?;
        let variable = &result["variable"];
        let hex = args["format"]["hex"].as_bool().unwrap_or(false);
        let epoch = result["epoch"].as_u64().unwrap_or(0);
        // Without a frame the session read the selected one: frame 0 of the last stop unless
        // the client chose another.
        let frame = frame.unwrap_or(FrameRef {
            thread: self.last_thread.unwrap_or(0),
            epoch,
            index: 0,
        });
        let shown = self.dap_variable(variable, frame, hex);
        let mut body = json!({
            "result": display_value(variable, hex),
            "variablesReference": shown["variablesReference"],
        });
        if let Some(n) = shown.get("indexedVariables") {
            body["indexedVariables"] = n.clone();
        }
        if self.caps.supports_variable_type
            && let Some(t) = shown.get("type")
        {
            body["type"] = t.clone();
        }
        Ok(Some(body))
    }

    pub(super) fn set_variable(&mut self, args: &Value) -> Reply {
        if !self.allow_writes() {
            return Err(Failure(format!("setVariable is {WRITES_OFF}")));
        }
        let reference = args["variablesReference"].as_i64().unwrap_or(0);
        let name = args["name"].as_str().unwrap_or_default();
        let value = args["value"].as_str().unwrap_or_default();
        let Some(container) = self.vars.get(reference).cloned() else {
            return Err(Failure(format!(
                "variablesReference {reference} is no longer valid (the program moved on)"
            )));
        };
        let path = match &container {
            VarRef::Scope { .. } => name.to_string(),
            VarRef::Var { children, .. } => children
                .get(name)
                .cloned()
                .ok_or_else(|| Failure(format!("no variable '{name}' listed here")))?,
        };
        let frame = container.frame();
        self.ensure_frame(frame)?;
        let result = self.call(
            "set",
            json!({"path": path, "value": value, "epoch": frame.epoch}),
        )?;
        let variable = &result["variable"];
        let hex = args["format"]["hex"].as_bool().unwrap_or(false);
        let shown = self.dap_variable(variable, frame, hex);
        let mut body = json!({
            "value": display_value(variable, hex),
            "variablesReference": shown["variablesReference"],
        });
        if let Some(t) = shown.get("type") {
            body["type"] = t.clone();
        }
        Ok(Some(body))
    }
    /// `setExpression`: assigns to a variable path (a watch, a hover), a write action.
    pub(super) fn set_expression(&mut self, args: &Value) -> Reply {
        if !self.allow_writes() {
            return Err(Failure(format!("setExpression is {WRITES_OFF}")));
        }
        let expression = args["expression"].as_str().unwrap_or_default().trim();
        let value = args["value"].as_str().unwrap_or_default();
        if expression.is_empty() {
            return Err(Failure("no expression to assign to".into()));
        }
        let frame = self.evaluation_frame(args)?;
        let mut set = json!({ "path": expression, "value": value });
        if let Some(f) = frame {
            set["epoch"] = json!(f.epoch);
        }
        let result = self.call("set", set)?;
        let variable = &result["variable"];
        let hex = args["format"]["hex"].as_bool().unwrap_or(false);
        let epoch = result["epoch"].as_u64().unwrap_or(0);
        let frame = frame.unwrap_or(FrameRef {
            thread: self.last_thread.unwrap_or(0),
            epoch,
            index: 0,
        });
        let shown = self.dap_variable(variable, frame, hex);
        Ok(Some(json!({
            "value": display_value(variable, hex),
            "variablesReference": shown["variablesReference"],
        })))
    }

    /// `exceptionInfo`: the class of the exception a thread stopped at.
    pub(super) fn exception_info(&mut self, args: &Value) -> Reply {
        let thread = args["threadId"]
            .as_u64()
            .and_then(|t| u32::try_from(t).ok())
            .unwrap_or(0);
        let class = self
            .exceptions
            .get(&thread)
            .cloned()
            .ok_or_else(|| Failure(format!("thread {thread} did not stop at an exception")))?;
        Ok(Some(json!({
            "exceptionId": class,
            "description": format!("{class} is caught here (an exception breakpoint)"),
            "breakMode": "always",
        })))
    }
}

//! `evaluate` (hovers, watches, the debug console) and `setVariable`.
//!
//! An expression is a variable path as the session's `get` reads it: `LV_X`, `LT_X[3]-COMP`,
//! `ME->ATTR`, `ZCL_X=>STATIC`, `<FS>`, `LR_REF->*`. `setVariable` is a write action: refused
//! unless the launch configuration says `"allowWrites": true` (and the session allows writes).

use jsonl::args::{GetArgs, SetArgs};
use jsonl::cmd;
use jsonl::results::Variable;
use serde_json::{Value, json};

use super::inspect::display_value;
use super::{Adapter, Failure, FrameRef, Reply, VarRef};

/// Why a write is refused here.
pub(crate) const WRITES_OFF: &str = "a write action: set \"allowWrites\": true in the launch \
     configuration to change the program's state";

impl Adapter {
    /// The frame an expression is read in: the given one, else the one the client last looked
    /// at in this stop, else the innermost frame of the thread last stopped.
    fn evaluation_frame(&mut self, args: &Value) -> Result<Option<FrameRef>, Failure> {
        match args["frameId"].as_i64() {
            Some(id) => match self.frames.get(id).copied() {
                Some(frame) => {
                    self.focus = Some(frame);
                    Ok(Some(frame))
                }
                None => Err(Failure(format!(
                    "frame {id} is no longer valid (the program moved on)"
                ))),
            },
            None => Ok(self.focus),
        }
    }

    /// What a read or write in `frame` names: its thread, index and epoch; without a frame the
    /// innermost one of the thread last stopped (nothing when none stopped yet: the session's
    /// current thread and selected frame).
    fn named(&self, frame: Option<FrameRef>) -> (Option<u32>, Option<usize>, Option<u64>) {
        match frame {
            Some(f) => (Some(f.thread), Some(f.index), Some(f.epoch)),
            None => match self.last_thread {
                Some(t) => (Some(t), Some(0), None),
                None => (None, None, None),
            },
        }
    }

    /// `get` of `path` in `frame`, or without one in the innermost frame of the thread last
    /// stopped; answers the variable and the frame it belongs to.
    fn read(
        &mut self,
        path: &str,
        full: bool,
        frame: Option<FrameRef>,
    ) -> Result<(Variable, FrameRef), Failure> {
        let (thread, index, epoch) = self.named(frame);
        let args = GetArgs {
            path: path.to_string(),
            full,
            epoch,
            thread,
            frame: index,
        };
        let result = self.request::<cmd::Get>(&args)?;
        let frame = frame.unwrap_or(FrameRef {
            thread: thread.unwrap_or(0),
            epoch: result.epoch,
            index: 0,
        });
        Ok((result.variable, frame))
    }

    /// `set` of `path` in `frame` (as [`Adapter::read`] names it); the variable read back.
    fn write(
        &mut self,
        path: &str,
        value: &str,
        frame: Option<FrameRef>,
    ) -> Result<(Option<Variable>, FrameRef), Failure> {
        let (thread, index, epoch) = self.named(frame);
        let args = SetArgs {
            path: path.to_string(),
            value: value.to_string(),
            epoch,
            thread,
            frame: index,
        };
        let result = self.request::<cmd::Set>(&args)?;
        // What this stop read is old now.
        self.listings.clear();
        let frame = frame.unwrap_or(FrameRef {
            thread: thread.unwrap_or(0),
            epoch: result.epoch,
            index: 0,
        });
        Ok((result.variable, frame))
    }

    pub(super) fn evaluate(&mut self, args: &Value) -> Reply {
        let expression = args["expression"].as_str().unwrap_or_default().trim();
        if expression.is_empty() {
            return Err(Failure("nothing to evaluate".into()));
        }
        let frame = self.evaluation_frame(args)?;
        let (variable, frame) = self.read(expression, args["context"] == "clipboard", frame)?;
        let hex = args["format"]["hex"].as_bool().unwrap_or(false);
        let shown = self.dap_variable(&variable, frame, hex);
        let mut body = json!({
            "result": display_value(&variable, hex),
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
        let (variable, frame) = self.write(&path, value, Some(container.frame()))?;
        let hex = args["format"]["hex"].as_bool().unwrap_or(false);
        Ok(Some(self.assigned(variable.as_ref(), frame, hex, true)))
    }

    /// The body of a `setVariable` or `setExpression` answer: the value read back (a set the
    /// session could not read back shows nothing).
    fn assigned(
        &mut self,
        variable: Option<&Variable>,
        frame: FrameRef,
        hex: bool,
        with_type: bool,
    ) -> Value {
        let Some(variable) = variable else {
            return json!({ "value": "", "variablesReference": 0 });
        };
        let shown = self.dap_variable(variable, frame, hex);
        let mut body = json!({
            "value": display_value(variable, hex),
            "variablesReference": shown["variablesReference"],
        });
        if with_type && let Some(t) = shown.get("type") {
            body["type"] = t.clone();
        }
        body
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
        let (variable, frame) = self.write(expression, value, frame)?;
        let hex = args["format"]["hex"].as_bool().unwrap_or(false);
        Ok(Some(self.assigned(variable.as_ref(), frame, hex, false)))
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
            "details": {"typeName": class, "fullTypeName": class},
        })))
    }
}

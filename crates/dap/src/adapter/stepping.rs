//! `next`, `stepIn`, `stepOut`, `continue`, `goto` and `gotoTargets`.
//!
//! Each movement is sent with a zero wait: the session answers `pending` at once (or an error
//! such as `state.not_stopped`, which becomes this request's failure), and the stop or the end
//! arrives later as an event. References of the stop left are forgotten. Each names its
//! thread; none names a frame (stepping continues from the innermost one). Run to cursor is the
//! client's temporary breakpoint and `continue`; `goto` is the session's `jump_to_line`, a
//! write action.

use jsonl::args::{LineTargetArgs, StepArgs, StepType};
use jsonl::cmd;
use serde_json::{Value, json};

use super::evaluate::WRITES_OFF;
use super::{Adapter, Failure, Reply};
use crate::abapgit::SourceUnit;

impl Adapter {
    fn thread_arg(args: &Value) -> Result<u32, Failure> {
        args["threadId"]
            .as_u64()
            .and_then(|i| u32::try_from(i).ok())
            .ok_or_else(|| Failure("no threadId".into()))
    }

    /// `next` (`over`), `stepIn` (`into`), `stepOut` (`out`), `continue`: sent with a zero
    /// wait, for `thread`; the stop's references are forgotten.
    pub(super) fn step(&mut self, args: &Value, kind: StepType) -> Reply {
        let thread = Self::thread_arg(args)?;
        self.moving.remove(&thread);
        self.resume(thread, kind)?;
        self.invalidate();
        if kind != StepType::Continue {
            // The stop this step ends in is shown even at a breakpoint whose hit count says
            // not yet.
            self.moving.insert(thread, "step");
        }
        Ok((kind == StepType::Continue).then(|| json!({ "allThreadsContinued": false })))
    }

    /// Sends a `step` of `thread` that answers at once (`pending`; the stop or the end comes
    /// as an event).
    pub(crate) fn resume(&mut self, thread: u32, kind: StepType) -> Result<(), Failure> {
        self.request::<cmd::Step>(&StepArgs {
            step_type: kind,
            timeout_ms: Some(0),
            thread: Some(thread),
            frame: None,
        })?;
        Ok(())
    }

    pub(super) fn goto_targets(&mut self, args: &Value) -> Reply {
        let line = args["line"]
            .as_i64()
            .and_then(|l| self.abap_line(l))
            .ok_or_else(|| Failure("no line".into()))?;
        let source = &args["source"];
        let unit = match source["path"].as_str() {
            Some(path) => SourceUnit::from_path(&crate::sources::uri_to_path(path))?,
            None => source["sourceReference"]
                .as_i64()
                .and_then(|r| self.sources.by_reference(r).cloned())
                .ok_or_else(|| Failure("the source has no path or known reference".into()))?,
        };
        let id = self.goto_targets.allocate(unit.location(line));
        let client_line = self.client_line(u64::from(line));
        Ok(Some(json!({
            "targets": [{ "id": id, "label": format!("line {line}"), "line": client_line }]
        })))
    }

    pub(super) fn goto(&mut self, args: &Value) -> Reply {
        if !self.allow_writes() {
            return Err(Failure(format!("goto (jump to a line) is {WRITES_OFF}")));
        }
        let thread = Self::thread_arg(args)?;
        let target = args["targetId"].as_i64().unwrap_or(0);
        let location = self
            .goto_targets
            .get(target)
            .cloned()
            .ok_or_else(|| Failure(format!("goto target {target} is no longer valid")))?;
        self.request::<cmd::JumpToLine>(&LineTargetArgs {
            location: Some(location),
            timeout_ms: Some(0),
            thread: Some(thread),
            ..LineTargetArgs::default()
        })?;
        self.invalidate();
        self.moving.insert(thread, "goto");
        Ok(None)
    }
}

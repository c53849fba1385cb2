//! The session's events as DAP events: `stopped`, `thread`, `breakpoint`, `output`.

use jsonl::args::{GetArgs, StepType};
use jsonl::cmd;
use jsonl::results::{EndReason, Ended, StopReason, Stopped};
use jsonl::{Event, EventKind};
use serde_json::json;

use super::{Adapter, Failure};
use crate::config::Mode;

impl Adapter {
    pub(super) fn on_session_event(&mut self, event: &Event) {
        let kind = match event.kind() {
            Ok(kind) => kind,
            Err(e) => {
                self.console(&format!("abapdbg: {e}"));
                return;
            }
        };
        match kind {
            EventKind::Stopped(stop) => self.on_stopped(&stop),
            EventKind::Ended(ended) => self.on_ended(&ended),
            EventKind::BreakpointChanged(changed) => {
                self.on_breakpoint_changed(&changed.breakpoint)
            }
            EventKind::ThreadReleased(b) => self.console(&format!(
                "abapdbg: {} was caught beyond the limit of {} programs and let go ({})",
                b.program,
                b.max_threads
                    .map_or_else(|| "null".to_string(), |n| n.to_string()),
                b.how
            )),
            EventKind::ListenerConflict(b) => self.console(&format!(
                "abapdbg: {} {}",
                b.message,
                b.hint
                    .as_deref()
                    .and_then(|h| super::dap_hint("conflict.listener", h))
                    .unwrap_or_default()
            )),
            EventKind::ListenerFailed(b) => self.console(&format!("abapdbg: {}", b.message)),
            EventKind::DebuggeeLost(b) => self.console(&format!("abapdbg: {}", b.message)),
            // A value changed by another client: what this stop read of it is old.
            EventKind::VariableChanged(_) => self.listings.clear(),
            _ => {}
        }
    }

    fn on_stopped(&mut self, body: &Stopped) {
        let thread = body.thread;
        self.invalidate();
        if !self.configured {
            // Not ours to show yet: `configurationDone` of an attach shows what is stopped.
            return;
        }
        let hit: Vec<u32> = body.breakpoints.clone().unwrap_or_default();
        let moved = self.moving.remove(&thread);
        let verdict = self.bps.judge(&hit);
        for message in &verdict.logs {
            let text = self.log_message(message, thread);
            self.emit(
                "output",
                json!({"category": "console", "output": format!("{text}\n")}),
            );
        }
        if body.reason == StopReason::Breakpoint && moved.is_none() && !verdict.stop {
            // Only log points, or a hit condition that says not yet: on it goes.
            if self.resume(thread, StepType::Continue).is_ok() {
                return;
            }
        }
        if self.threads_seen.insert(thread) {
            self.emit("thread", json!({"reason": "started", "threadId": thread}));
        }
        self.last_thread = Some(thread);
        let ours: Vec<u32> = hit
            .iter()
            .copied()
            .filter(|id| self.bps.owns(*id))
            .collect();
        let reason = match moved {
            Some("goto") => "goto",
            _ => match body.reason {
                StopReason::Breakpoint if body.exception.is_some() => "exception",
                StopReason::Breakpoint if self.bps.is_function(&hit) => "function breakpoint",
                StopReason::Breakpoint => "breakpoint",
                StopReason::Exception => "exception",
                StopReason::Watchpoint => "data breakpoint",
                StopReason::Step => "step",
            },
        };
        let (object, line) = match &body.frame {
            Some(f) => (f.object.as_str(), f.line.to_string()),
            None => ("?", "null".to_string()),
        };
        let mut stopped = json!({
            "reason": reason,
            "threadId": thread,
            "allThreadsStopped": false,
            "description": format!("{reason} at {object} line {line}"),
        });
        if !ours.is_empty() {
            stopped["hitBreakpointIds"] = json!(ours);
        }
        match &body.exception {
            Some(class) => {
                stopped["text"] = json!(class);
                self.exceptions.insert(thread, class.clone());
            }
            None => {
                self.exceptions.remove(&thread);
            }
        }
        self.emit("stopped", stopped);
    }

    /// A log point's message with each `{path}` replaced by the variable's value at this
    /// stop (`{{` and `}}` are braces).
    fn log_message(&mut self, template: &str, thread: u32) -> String {
        let mut out = String::new();
        let mut rest = template;
        while let Some(i) = rest.find(['{', '}']) {
            out.push_str(&rest[..i]);
            let tail = &rest[i..];
            if let Some(after) = tail.strip_prefix("{{") {
                out.push('{');
                rest = after;
            } else if let Some(after) = tail.strip_prefix("}}") {
                out.push('}');
                rest = after;
            } else if let Some(after) = tail.strip_prefix('{')
                && let Some(end) = after.find('}')
            {
                let path = after[..end].trim();
                let value = self
                    .read_at_top(thread, path)
                    .map(|r| super::inspect::display_value(&r.variable, false))
                    .unwrap_or_else(|Failure(m)| format!("<{path}: {m}>"));
                out.push_str(&value);
                rest = &after[end + 1..];
            } else {
                out.push_str(&tail[..1]);
                rest = &tail[1..];
            }
        }
        out.push_str(rest);
        out
    }

    /// A variable at the innermost frame of `thread`, as it stopped.
    fn read_at_top(
        &mut self,
        thread: u32,
        path: &str,
    ) -> Result<jsonl::results::GetResult, Failure> {
        let args = GetArgs {
            path: path.to_string(),
            thread: Some(thread),
            frame: Some(0),
            ..GetArgs::default()
        };
        self.request::<cmd::Get>(&args)
    }

    fn on_ended(&mut self, body: &Ended) {
        let thread = body.thread;
        self.invalidate();
        self.moving.remove(&thread);
        self.exceptions.remove(&thread);
        // Watchpoints end with their program.
        self.watchpoints.retain(|(t, _)| *t != thread);
        let attached = matches!(self.config.as_ref().map(|c| &c.mode), Some(Mode::Attach));
        // A launch prints its run's answer; attached, the end carries what a run printed.
        if attached && let Some(out) = &body.output {
            let text = if out.ends_with('\n') {
                out.clone()
            } else {
                format!("{out}\n")
            };
            self.emit("output", json!({"category": "stdout", "output": text}));
        }
        if self.threads_seen.remove(&thread) {
            self.emit("thread", json!({"reason": "exited", "threadId": thread}));
        }
        if body.reason == EndReason::Lost {
            self.console(&format!(
                "abapdbg: thread {thread} was lost (its session ended)"
            ));
        }
    }

    pub(super) fn on_session_gone(&mut self) {
        self.link = None;
        self.console("abapdbg: the session ended");
        self.terminated();
    }
}

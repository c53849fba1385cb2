//! The session's events as DAP events: `stopped`, `thread`, `breakpoint`, `output`.

use serde_json::{Value, json};

use super::{Adapter, Failure};
use crate::config::Mode;

impl Adapter {
    pub(super) fn on_session_event(&mut self, event: &str, body: &Value) {
        match event {
            "stopped" => self.on_stopped(body),
            "debuggee.ended" => self.on_ended(body),
            "breakpoint.changed" => self.on_breakpoint_changed(&body["breakpoint"]),
            "thread.released" => self.console(&format!(
                "abapdbg: {} was caught beyond the limit of {} programs and let go ({})",
                body["program"].as_str().unwrap_or("a program"),
                body["max_threads"],
                body["how"].as_str().unwrap_or("released")
            )),
            "listener.conflict" => self.console(&format!(
                "abapdbg: {} {}",
                body["message"]
                    .as_str()
                    .unwrap_or("another debugger listens for this user"),
                body["hint"].as_str().unwrap_or_default()
            )),
            "listener.failed" | "debuggee.lost" => self.console(&format!(
                "abapdbg: {}",
                body["message"].as_str().unwrap_or(event)
            )),
            _ => {}
        }
    }

    fn on_stopped(&mut self, body: &Value) {
        let Some(thread) = body["thread"].as_u64().and_then(|t| u32::try_from(t).ok()) else {
            return;
        };
        self.invalidate();
        if !self.configured {
            // Not ours to show yet: `configurationDone` of an attach shows what is stopped.
            return;
        }
        let hit: Vec<u32> = body["breakpoints"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|b| b.as_u64().and_then(|i| u32::try_from(i).ok()))
            .collect();
        let moved = self.moving.remove(&thread);
        let verdict = self.bps.judge(&hit);
        for message in &verdict.logs {
            let text = self.log_message(message);
            self.emit(
                "output",
                json!({"category": "console", "output": format!("{text}\n")}),
            );
        }
        if body["reason"] == "breakpoint" && moved.is_none() && !verdict.stop {
            // Only log points, or a hit condition that says not yet: on it goes.
            let resumed = self
                .ensure_thread(thread)
                .and_then(|()| self.call("step", json!({"type": "continue", "timeout_ms": 0})));
            if resumed.is_ok() {
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
            _ => match body["reason"].as_str().unwrap_or("step") {
                "breakpoint" if body["exception"].is_string() => "exception",
                "breakpoint" if self.bps.is_function(&hit) => "function breakpoint",
                "breakpoint" => "breakpoint",
                "exception" => "exception",
                "watchpoint" => "data breakpoint",
                _ => "step",
            },
        };
        let frame = &body["frame"];
        let mut stopped = json!({
            "reason": reason,
            "threadId": thread,
            "allThreadsStopped": false,
            "description": format!(
                "{} at {} line {}",
                reason,
                frame["object"].as_str().unwrap_or("?"),
                frame["line"]
            ),
        });
        if !ours.is_empty() {
            stopped["hitBreakpointIds"] = json!(ours);
        }
        match body["exception"].as_str() {
            Some(class) => {
                stopped["text"] = json!(class);
                self.exceptions.insert(thread, class.to_string());
            }
            None => {
                self.exceptions.remove(&thread);
            }
        }
        self.emit("stopped", stopped);
    }

    /// A log point's message with each `{path}` replaced by the variable's value at this
    /// stop (`{{` and `}}` are braces).
    fn log_message(&self, template: &str) -> String {
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
                    .call("get", json!({ "path": path }))
                    .map(|r| super::inspect::display_value(&r["variable"], false))
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

    fn on_ended(&mut self, body: &Value) {
        let Some(thread) = body["thread"].as_u64().and_then(|t| u32::try_from(t).ok()) else {
            return;
        };
        self.invalidate();
        self.moving.remove(&thread);
        self.exceptions.remove(&thread);
        // Watchpoints end with their program.
        self.watchpoints.retain(|(t, _)| *t != thread);
        let attached = matches!(self.config.as_ref().map(|c| &c.mode), Some(Mode::Attach));
        // A launch prints its run's answer; attached, the end carries what a run printed.
        if attached && let Some(out) = body["output"].as_str() {
            let text = if out.ends_with('\n') {
                out.to_string()
            } else {
                format!("{out}\n")
            };
            self.emit("output", json!({"category": "stdout", "output": text}));
        }
        if self.threads_seen.remove(&thread) {
            self.emit("thread", json!({"reason": "exited", "threadId": thread}));
        }
        if body["reason"] == "lost" {
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

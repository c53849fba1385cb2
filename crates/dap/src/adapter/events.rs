//! The session's events as DAP events: `stopped`, `thread`, `breakpoint`, `output`.

use serde_json::{Value, json};

use super::Adapter;
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
        let counted_stop = self.bps.should_stop(&hit);
        if body["reason"] == "breakpoint" && moved.is_none() && !counted_stop {
            // A hit condition says not yet: on it goes.
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
        if let Some(class) = body["exception"].as_str() {
            stopped["text"] = json!(class);
        }
        self.emit("stopped", stopped);
    }

    fn on_ended(&mut self, body: &Value) {
        let Some(thread) = body["thread"].as_u64().and_then(|t| u32::try_from(t).ok()) else {
            return;
        };
        self.invalidate();
        self.moving.remove(&thread);
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

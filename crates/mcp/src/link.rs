//! The connection to the debugging session, reached or started on first use as every front
//! end does (`client::Session::connect_or_start`), and connected again when the session ended
//! (after `abap_end shutdown` the next tool starts a new one). Also what the server remembers
//! between tool calls: the values seen at earlier stops (for `changed`) and the last end it
//! reported.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use client::{Incoming, Session, Target};
use jsonl::{CommandSpec, EventKind};

use crate::error::ToolError;

/// How long a request that only reads may take before the tool gives up on it.
pub const READ_TIMEOUT: Duration = Duration::from_secs(120);

/// Called from the event watcher at every stop and end (for resource updates).
pub type OnChange = Arc<dyn Fn() + Send + Sync>;

pub struct Link {
    target: Result<Target, ToolError>,
    session: Mutex<Option<Arc<Session>>>,
    on_change: OnChange,
    memory: Mutex<Memory>,
}

/// A value read at a stop, and the one read for the same variable at the stop before.
#[derive(Debug, Clone)]
struct Seen {
    epoch: u64,
    value: String,
    before: Option<String>,
}

/// What the server keeps between tool calls.
#[derive(Default)]
pub struct Memory {
    /// By (thread, object + method of the frame, variable id).
    seen: HashMap<(u32, String, String), Seen>,
    /// The last end a tool answered, so `abap_wait` answers a later end, not the same again.
    last_end_reported: Option<jsonl::results::Ended>,
}

impl Memory {
    /// Whether the variable's value differs from the one read at an earlier stop (false the
    /// first time a variable is seen).
    pub fn changed(&mut self, thread: u32, frame: &str, id: &str, epoch: u64, value: &str) -> bool {
        let key = (thread, frame.to_string(), id.to_string());
        let seen = match self.seen.remove(&key) {
            None => Seen {
                epoch,
                value: value.to_string(),
                before: None,
            },
            // Read again at the same stop (after a `set`): the latest value counts.
            Some(s) if s.epoch == epoch => Seen {
                value: value.to_string(),
                ..s
            },
            Some(s) if s.epoch < epoch => Seen {
                epoch,
                value: value.to_string(),
                before: Some(s.value),
            },
            // A stop older than one already seen (another client moved on meanwhile).
            Some(s) => {
                self.seen.insert(key, s);
                return false;
            }
        };
        let changed = seen.before.as_deref().is_some_and(|b| b != value);
        self.seen.insert(key, seen);
        changed
    }

    /// A thread ended: what was seen of it no longer counts.
    pub fn forget_thread(&mut self, thread: u32) {
        self.seen.retain(|(t, _, _), _| *t != thread);
    }
}

impl Link {
    pub fn new(target: Result<Target, ToolError>, on_change: OnChange) -> Link {
        Link {
            target,
            session: Mutex::new(None),
            on_change,
            memory: Mutex::new(Memory::default()),
        }
    }

    /// The session, connected (or started) now if there is none or the last one closed.
    pub fn session(&self) -> Result<Arc<Session>, ToolError> {
        let target = self.target.as_ref().map_err(Clone::clone)?;
        let mut slot = self
            .session
            .lock()
            .map_err(|_| ToolError::new("internal.bug", "the session slot is poisoned"))?;
        if let Some(s) = slot.as_ref().filter(|s| s.is_open()) {
            return Ok(s.clone());
        }
        let session = Arc::new(Session::connect_or_start(target)?);
        // An agent attends its stops: if this server dies, the session lets them go.
        session.attend();
        watch(&session, self.on_change.clone());
        *slot = Some(session.clone());
        Ok(session)
    }

    /// The session if one is connected, without starting one.
    pub fn connected(&self) -> Option<Arc<Session>> {
        self.session
            .lock()
            .ok()
            .and_then(|s| s.as_ref().filter(|s| s.is_open()).cloned())
    }

    /// A typed request that waits at most [`READ_TIMEOUT`] and until `cancelled()`.
    pub fn call<C: CommandSpec>(
        &self,
        args: &C::Args,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<C::Result, ToolError> {
        Ok(self.session()?.call::<C>(args, READ_TIMEOUT, cancelled)?)
    }

    /// The session if one runs, connected now without starting one.
    pub fn existing(&self) -> Result<Option<Arc<Session>>, ToolError> {
        if let Some(s) = self.connected() {
            return Ok(Some(s));
        }
        let target = self.target.as_ref().map_err(Clone::clone)?;
        match Session::connect(target) {
            Ok(s) => Ok(Some(Arc::new(s))),
            Err(client::ClientError::NoSession { .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// The session ended: forget it and what was seen in it.
    pub fn reset(&self) {
        if let Ok(mut s) = self.session.lock() {
            *s = None;
        }
        *self.memory() = Memory::default();
    }

    /// An end a tool answered: `abap_wait` does not answer it again.
    pub fn remember_end(&self, ended: &jsonl::results::Ended) {
        let mut m = self.memory();
        m.forget_thread(ended.thread);
        m.last_end_reported = Some(ended.clone());
    }

    pub fn end_was_reported(&self, ended: &jsonl::results::Ended) -> bool {
        self.memory().last_end_reported.as_ref() == Some(ended)
    }

    pub fn memory(&self) -> std::sync::MutexGuard<'_, Memory> {
        // A panic while holding it cannot leave it half-written in a way that matters: it
        // only remembers values for `changed`.
        self.memory.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Calls `on_change` at every stop and every end the session reports, on a thread of its own
/// that ends with the connection.
fn watch(session: &Session, on_change: OnChange) {
    let sub = session.subscribe();
    let _ = std::thread::Builder::new()
        .name("mcp-session-events".into())
        .spawn(move || {
            loop {
                match sub.recv_timeout(Duration::from_secs(3600)) {
                    Ok(Some(Incoming::Event(ev))) => {
                        if matches!(ev.kind(), Ok(EventKind::Stopped(_) | EventKind::Ended(_))) {
                            on_change();
                        }
                    }
                    Ok(_) => {}
                    Err(_) => return,
                }
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_compares_with_the_stop_before() {
        let mut m = Memory::default();
        assert!(!m.changed(1, "M", "LV", 1, "0"));
        // Read again at the same stop: still compared with the stop before (none).
        assert!(!m.changed(1, "M", "LV", 1, "0"));
        assert!(m.changed(1, "M", "LV", 2, "1"));
        assert!(m.changed(1, "M", "LV", 2, "1"));
        assert!(!m.changed(1, "M", "LV", 3, "1"));
        // Another frame, another thread: their own history.
        assert!(!m.changed(1, "N", "LV", 3, "9"));
        assert!(!m.changed(2, "M", "LV", 3, "9"));
        m.forget_thread(1);
        assert!(!m.changed(1, "M", "LV", 4, "5"));
    }
}

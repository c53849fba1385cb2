//! Typed events: what the server writes on its own, one variant per event of
//! [`crate::EVENTS`]. The server builds these and [`EventKind::name`] / [`EventKind::to_body`]
//! give the line's `event` and `body`; a client reads a line's [`crate::Event`] back with
//! [`EventKind::from_event`]. Members a newer server adds are ignored when reading; an event
//! this version does not know is [`EventKind::Other`].

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::results::{Breakpoint, Ended, Stopped};

/// `ready`: the first line of every session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ready {
    pub protocol: String,
    pub version: String,
    pub pid: u32,
    pub system: String,
}

/// `listener.armed`: the server holds our listener.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListenerArmed {
    pub user: String,
    pub terminal_id: String,
    pub ide_id: String,
}

/// `listener.stopped`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListenerStopped {
    pub reason: String,
}

/// `listener.conflict`: another debugger listens for this user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListenerConflict {
    pub message: String,
    /// `true`: it took the listener from us; `false`: our `listen` was refused.
    pub displaced: bool,
    #[serde(default)]
    pub holder: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflict_text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adt: Option<Value>,
}

/// `listener.failed`: the listener gave up after repeated failures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListenerFailed {
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adt: Option<Value>,
}

/// `debuggee.lost`: a caught program could not be attached, or its session was dropped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DebuggeeLost {
    /// `attach_failed` or `session_lost`.
    #[serde(default)]
    pub reason: Option<String>,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    /// `reattached`, `released`, `ended`, `unreleased`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub how: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub released: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adt: Option<Value>,
}

/// `thread.released`: a program caught beyond the thread cap was let go.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreadReleased {
    pub program: String,
    pub how: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_threads: Option<usize>,
}

/// `breakpoint.changed`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BreakpointChanged {
    pub breakpoint: Breakpoint,
    /// `reasserted` when sending our breakpoints again changed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// `variable.changed`: after `set`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariableChanged {
    pub epoch: u64,
    pub path: String,
    pub value: String,
    /// The thread and frame the value was set in (since 1.1: a `set` may name them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<usize>,
}

/// `orphan.released`: what a killed session had left, released at start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrphanReleased {
    pub pid: u32,
    pub listener_stopped: bool,
    #[serde(default)]
    pub breakpoint_groups: Value,
    #[serde(default)]
    pub debuggees: Value,
    #[serde(default)]
    pub errors: Value,
}

/// An event with its typed body.
#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    Ready(Ready),
    ListenerArmed(ListenerArmed),
    ListenerStopped(ListenerStopped),
    ListenerConflict(ListenerConflict),
    ListenerFailed(ListenerFailed),
    Stopped(Box<Stopped>),
    Ended(Box<Ended>),
    DebuggeeLost(DebuggeeLost),
    ThreadReleased(ThreadReleased),
    BreakpointChanged(Box<BreakpointChanged>),
    VariableChanged(VariableChanged),
    OrphanReleased(OrphanReleased),
    /// An event this version does not know (a newer server): its name and body.
    Other {
        event: String,
        body: Value,
    },
}

/// A known event whose body does not have the shape its name promises.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the body of event '{event}' is not as the protocol defines it: {message}")]
pub struct BadEvent {
    pub event: String,
    pub message: String,
}

fn body<T: DeserializeOwned>(event: &str, body: &Value) -> Result<T, BadEvent> {
    T::deserialize(body).map_err(|e| BadEvent {
        event: event.to_string(),
        message: e.to_string(),
    })
}

impl EventKind {
    /// The name the line's `event` carries.
    pub fn name(&self) -> &str {
        match self {
            EventKind::Ready(_) => "ready",
            EventKind::ListenerArmed(_) => "listener.armed",
            EventKind::ListenerStopped(_) => "listener.stopped",
            EventKind::ListenerConflict(_) => "listener.conflict",
            EventKind::ListenerFailed(_) => "listener.failed",
            EventKind::Stopped(_) => "stopped",
            EventKind::Ended(_) => "debuggee.ended",
            EventKind::DebuggeeLost(_) => "debuggee.lost",
            EventKind::ThreadReleased(_) => "thread.released",
            EventKind::BreakpointChanged(_) => "breakpoint.changed",
            EventKind::VariableChanged(_) => "variable.changed",
            EventKind::OrphanReleased(_) => "orphan.released",
            EventKind::Other { event, .. } => event,
        }
    }

    /// The line's `body`.
    pub fn to_body(&self) -> Value {
        fn v<T: Serialize>(t: &T) -> Value {
            // These types serialise to JSON objects whatever they hold (no maps with
            // non-string keys), so this cannot fail.
            serde_json::to_value(t).unwrap_or(Value::Null)
        }
        match self {
            EventKind::Ready(b) => v(b),
            EventKind::ListenerArmed(b) => v(b),
            EventKind::ListenerStopped(b) => v(b),
            EventKind::ListenerConflict(b) => v(b),
            EventKind::ListenerFailed(b) => v(b),
            EventKind::Stopped(b) => v(b),
            EventKind::Ended(b) => v(b),
            EventKind::DebuggeeLost(b) => v(b),
            EventKind::ThreadReleased(b) => v(b),
            EventKind::BreakpointChanged(b) => v(b),
            EventKind::VariableChanged(b) => v(b),
            EventKind::OrphanReleased(b) => v(b),
            EventKind::Other { body, .. } => body.clone(),
        }
    }

    /// Reads an event by its name and body.
    pub fn from_parts(event: &str, b: &Value) -> Result<EventKind, BadEvent> {
        Ok(match event {
            "ready" => EventKind::Ready(body(event, b)?),
            "listener.armed" => EventKind::ListenerArmed(body(event, b)?),
            "listener.stopped" => EventKind::ListenerStopped(body(event, b)?),
            "listener.conflict" => EventKind::ListenerConflict(body(event, b)?),
            "listener.failed" => EventKind::ListenerFailed(body(event, b)?),
            "stopped" => EventKind::Stopped(body(event, b)?),
            "debuggee.ended" => EventKind::Ended(body(event, b)?),
            "debuggee.lost" => EventKind::DebuggeeLost(body(event, b)?),
            "thread.released" => EventKind::ThreadReleased(body(event, b)?),
            "breakpoint.changed" => EventKind::BreakpointChanged(body(event, b)?),
            "variable.changed" => EventKind::VariableChanged(body(event, b)?),
            "orphan.released" => EventKind::OrphanReleased(body(event, b)?),
            other => EventKind::Other {
                event: other.to_string(),
                body: b.clone(),
            },
        })
    }

    /// Reads a line's event.
    pub fn from_event(event: &crate::Event) -> Result<EventKind, BadEvent> {
        EventKind::from_parts(&event.event, &event.body)
    }
}

impl crate::Event {
    /// This event with its typed body ([`EventKind::from_event`]).
    pub fn kind(&self) -> Result<EventKind, BadEvent> {
        EventKind::from_event(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_listed_event_has_a_variant_and_round_trips() {
        let samples = [
            json!({"protocol":"abapdbg","version":"1.1","pid":7,"system":"http://x"}),
            json!({"user":"U","terminal_id":"t","ide_id":"i"}),
            json!({"reason":"unlisten"}),
            json!({"message":"m","displaced":false,"holder":null}),
            json!({"message":"m"}),
            json!({"epoch":3,"reason":"step","thread":1,"frame":null}),
            json!({"thread":1,"reason":"finished"}),
            json!({"reason":"session_lost","message":"m","thread":1}),
            json!({"program":"P","how":"continued"}),
            json!({"breakpoint":{"id":1,"kind":"line","location":"X:1","enabled":true,"status":"verified"}}),
            json!({"epoch":1,"path":"LV_X","value":"5"}),
            json!({"pid":9,"listener_stopped":true,"breakpoint_groups":[],"debuggees":[],"errors":[]}),
        ];
        assert_eq!(samples.len(), crate::EVENTS.len());
        for (name, sample) in crate::EVENTS.iter().zip(samples) {
            let kind =
                EventKind::from_parts(name, &sample).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(kind.name(), *name);
            assert!(!matches!(kind, EventKind::Other { .. }), "{name}");
            let again = EventKind::from_parts(name, &kind.to_body()).expect("again");
            assert_eq!(again, kind, "{name}");
        }
    }

    #[test]
    fn unknown_events_are_kept_and_bad_bodies_are_errors() {
        let k = EventKind::from_parts("future.thing", &json!({"a":1})).expect("other");
        assert_eq!(k.name(), "future.thing");
        assert_eq!(k.to_body(), json!({"a":1}));
        let e = EventKind::from_parts("stopped", &json!({"thread":"x"})).unwrap_err();
        assert_eq!(e.event, "stopped");
    }
}

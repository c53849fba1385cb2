//! The session state carried on every response and event.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where the debugging session stands, so a client that missed events can resynchronise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// Connected, nothing armed, no debuggee.
    #[default]
    Idle,
    /// The listener's long poll is in flight; no debuggee attached.
    Listening,
    /// A debuggee is attached and stopped: inspection is possible.
    Stopped,
    /// A debuggee is attached and running (a step or continue is in flight).
    Running,
    /// The last debuggee ran to its end or was terminated; nothing else is armed.
    Ended,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Idle => "idle",
            State::Listening => "listening",
            State::Stopped => "stopped",
            State::Running => "running",
            State::Ended => "ended",
        }
    }
}

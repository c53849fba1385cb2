//! What the engine needs to know before it starts.

use std::time::Duration;

/// What to do with a stopped debuggee when the engine lets go of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReleasePolicy {
    /// Remove our breakpoints, then let the program run to its end.
    Continue,
    /// Abort the program.
    Terminate,
}

#[derive(Debug, Clone)]
pub struct EngineConfig {
    pub adt: adt::Config,
    pub identity: adt::Identity,
    /// Seconds each listener long poll asks the server to wait.
    pub listener_poll_secs: u32,
    /// How long a `step` answers at the latest when the caller gave no `timeout_ms`.
    pub default_step_timeout: Duration,
    pub release: ReleasePolicy,
}

impl EngineConfig {
    pub fn new(adt: adt::Config, identity: adt::Identity) -> Self {
        EngineConfig {
            adt,
            identity,
            listener_poll_secs: 60,
            default_step_timeout: Duration::from_secs(30),
            release: ReleasePolicy::Continue,
        }
    }
}

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
    /// Most debuggees held at once; further catches are released at once with an event.
    pub max_threads: usize,
    /// While a debuggee is stopped, touch its session this often so it does not expire.
    pub keepalive: Duration,
    /// Whether write actions (`set`, `jump_to_line`) are allowed.
    pub allow_writes: bool,
    /// Where to record what we hold, so a killed session is released by the next start.
    /// `None`: no record.
    pub state_file: Option<std::path::PathBuf>,
    /// The directory the discovery document of each system is cached in (`discovery.rs`).
    /// `None`: read at every start.
    pub discovery_cache: Option<std::path::PathBuf>,
    /// Read the discovery document from the system even when the cache is fresh.
    pub refresh_discovery: bool,
    /// A Unix socket on which further clients can share this session. `None`: stdio only.
    pub socket: Option<std::path::PathBuf>,
    /// Socket-only sessions end after this long without any client.
    pub idle_exit: Duration,
    /// Source lines before and after the current line in stops (`configure` changes it).
    pub source_context: u32,
    /// How long releasing everything at the end may take in all (its pieces run at the same
    /// time); what is not done by then is named in the receipt and kept in the state file.
    pub release_bound: Duration,
    /// A socket-only session whose last client went away while a program is stopped releases
    /// that program after this long (`grace.rs`).
    pub release_grace: Duration,
}

impl EngineConfig {
    pub fn new(adt: adt::Config, identity: adt::Identity) -> Self {
        EngineConfig {
            adt,
            identity,
            listener_poll_secs: 60,
            default_step_timeout: Duration::from_secs(30),
            release: ReleasePolicy::Continue,
            max_threads: 4,
            keepalive: Duration::from_secs(30),
            allow_writes: false,
            state_file: None,
            discovery_cache: None,
            refresh_discovery: false,
            socket: None,
            idle_exit: Duration::from_secs(30 * 60),
            source_context: crate::engine::DEFAULT_SOURCE_CONTEXT,
            release_bound: Duration::from_secs(30),
            release_grace: Duration::from_secs(60),
        }
    }
}

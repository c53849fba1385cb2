//! ADT simulator: the SAP ADT debugger REST endpoints on loopback, running ABAP through the
//! `abap` interpreter.
//!
//! [`start`] binds a listener, loads the bundled sample classes plus
//! [`SimConfig::program_dirs`], and serves in a tokio task until [`SimHandle::shutdown`].
//! The wire behaviour follows `adt-wire.md` (§1–§9, §13, §14): Basic auth, CSRF tokens bound
//! to a security session, stateful contexts (`sap-contextid`), external breakpoints, the
//! listener long poll, attach, stack, variables, steps and terminate, and the classrun trigger.
//!
//! Every classrun executes on its own OS thread; while it is stopped in the debug hook the
//! HTTP side talks to it over channels (see `debuggee.rs`).

mod accept;
mod admin;
mod aunit;
mod auth;
mod batch;
mod breakpoints;
mod classrun;
mod database;
mod dbgxml;
mod debuggee;
mod debugger;
mod discovery;
mod dumps;
mod errors;
mod faults;
mod ids;
mod listener;
mod pieces;
mod search;
mod server;
mod sessions;
mod stack;
mod state;
mod uri;
mod variables;
mod watchpoints;
mod xml;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use abap::Limits;
pub use faults::{FOREIGN_IDE_ID, FOREIGN_TERMINAL_ID, Faults};
pub use ids::secret as random_secret;

/// Configuration of one simulator instance.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// Address to bind (default `127.0.0.1:0`: a free loopback port).
    pub listen: SocketAddr,
    /// Accepted users and passwords (default `DEVELOPER`/`abap`). User names are compared
    /// case-insensitively, passwords exactly.
    pub users: Vec<(String, String)>,
    /// SAP client (default `001`).
    pub client: String,
    /// Directories with abapGit-style sources (`zcl_x.clas.abap`, …) loaded in addition to the
    /// bundled samples.
    pub program_dirs: Vec<PathBuf>,
    /// Listener long-poll duration when the request has no `timeout` (default 240 s).
    pub listener_default_timeout: Duration,
    /// How long a debuggee stopped at a breakpoint waits for an attach before it runs on
    /// (default 60 s).
    pub attach_timeout: Duration,
    /// Idle time after which a stateful context (`sap-contextid`) is dropped (default 30 min).
    /// A debuggee attached by an expired context stays stopped (a frozen work process) until
    /// [`SimConfig::stopped_debuggee_expiry`].
    pub session_idle_timeout: Duration,
    /// Idle time after which a security session (the `SAP_SESSIONID_…` cookie) expires
    /// (default 30 min); a request that still presents it is answered 400 `Session timed out`.
    pub security_session_timeout: Duration,
    /// How long an attached, stopped debuggee waits for its next debugger command before the
    /// simulator aborts it (default 60 min): the simulator's own expiry of frozen work
    /// processes.
    pub stopped_debuggee_expiry: Duration,
    /// Faults injected into ADT requests from the start (default: none). They can be changed
    /// at run time through `PUT /sim/faults`.
    pub faults: Faults,
    /// Limits of every program run (statements, run time outside the debugger, table rows).
    pub limits: Limits,
    /// The file the database of Open SQL statements is kept in (`--db FILE`); `None`: a
    /// temporary file, for the simulator's lifetime. Its tables come from the `.tabl.xml` files of
    /// [`SimConfig::program_dirs`] (see SIMULATOR.md, "The database").
    pub db_file: Option<PathBuf>,
    /// Connections open at the same time (default 256); more wait in the kernel's queue until
    /// one closes. Far below the usual limit of 1024 open files, so the simulator always has
    /// descriptors for its database and its own work.
    pub max_connections: usize,
    /// A connection with no request being handled on it and nothing read or written for this
    /// long is closed (default 20 s, below the 30 s a session's release at shutdown may take,
    /// so connections left idle by anyone cannot keep that release out).
    pub idle_connection_timeout: Duration,
    /// When set, every admin request (`/sim/…`: state, request log, fault injection) must
    /// carry this value in the `X-Sim-Admin-Token` header, else it is answered 403 (default
    /// `None`: open, as `abapdbg sim` documents). The embedded simulator of `abapdbg serve`
    /// sets a random one per start, so other local users cannot inject faults into it.
    pub admin_token: Option<String>,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            users: vec![("DEVELOPER".to_string(), "abap".to_string())],
            client: "001".to_string(),
            program_dirs: Vec::new(),
            listener_default_timeout: Duration::from_secs(240),
            attach_timeout: Duration::from_secs(60),
            session_idle_timeout: Duration::from_secs(30 * 60),
            security_session_timeout: Duration::from_secs(30 * 60),
            stopped_debuggee_expiry: Duration::from_secs(60 * 60),
            faults: Faults::default(),
            limits: Limits::default(),
            db_file: None,
            max_connections: 256,
            idle_connection_timeout: Duration::from_secs(20),
            admin_token: None,
        }
    }
}

/// Why the simulator could not start.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("cannot load ABAP sources: {0}")]
    Load(#[from] abap::LoadError),
    #[error("cannot open the database: {0}")]
    Database(#[from] opensql::Error),
    #[error("cannot bind {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
}

/// One served request, for tests and diagnostics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedRequest {
    pub method: String,
    /// Path plus query string, as received.
    pub path: String,
    pub status: u16,
    /// Security session (`SAP_SESSIONID_SIM_<client>` cookie) the request belonged to.
    pub session: Option<String>,
    /// Stateful context (`sap-contextid` cookie) the request belonged to.
    pub context: Option<String>,
    /// The `X-sap-adt-sessiontype` request header (lower case, empty when absent). Inner
    /// requests of a batch repeat the outer request's value.
    pub session_type: String,
    /// For an inner request of `POST /sap/bc/adt/debugger/batch`: its 0-based part index.
    /// The outer batch request itself is logged with `None` (after its parts).
    pub batch_part: Option<usize>,
    /// Time from receipt to answer.
    pub duration: Duration,
}

impl LoggedRequest {
    /// True for a request that travelled over the network (not an inner batch part): what a
    /// client pays a round trip for.
    pub fn is_round_trip(&self) -> bool {
        self.batch_part.is_none()
    }
}

/// A running simulator.
pub struct SimHandle {
    addr: SocketAddr,
    shared: Arc<state::Shared>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for SimHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimHandle")
            .field("addr", &self.addr)
            .finish()
    }
}

/// Start a simulator: bind, load the bundled samples and `program_dirs`, serve in a tokio task.
pub async fn start(config: SimConfig) -> Result<SimHandle, SimError> {
    let repo = state::load_repository(&config)?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|source| SimError::Bind {
            addr: config.listen,
            source,
        })?;
    let mut addr = listener.local_addr().map_err(|source| SimError::Bind {
        addr: config.listen,
        source,
    })?;
    if addr.ip().is_unspecified() {
        addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    let shared = Arc::new(state::Shared::new(config, repo));
    for user in shared.config.faults.foreign_listeners.clone() {
        shared.listeners.register_foreign(&user);
    }
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server::serve(listener, shared.clone(), stopped));
    tracing::info!("ADT simulator listening on http://{addr}");
    Ok(SimHandle {
        addr,
        shared,
        stop: Some(stop),
        task,
    })
}

impl SimHandle {
    /// `http://127.0.0.1:PORT`
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request served so far (completed requests only), oldest first. Inner batch
    /// requests appear as their own entries (with [`LoggedRequest::batch_part`]) before the
    /// outer batch request.
    pub fn request_log(&self) -> Vec<LoggedRequest> {
        self.shared.request_log()
    }

    /// Forget the request log (e.g. between phases of a test).
    pub fn clear_request_log(&self) {
        self.shared.clear_request_log()
    }

    /// Connections open now (each holds one of [`SimConfig::max_connections`]).
    pub fn open_connections(&self) -> usize {
        self.shared
            .config
            .max_connections
            .saturating_sub(self.shared.connection_slots.available_permits())
    }

    /// The simulator state as JSON (the same document as `GET /sim/state`): stopped
    /// debuggees, listeners, breakpoints per user, open stateful contexts.
    pub fn state_json(&self) -> String {
        admin::state_json(&self.shared)
    }

    /// Stop serving: stopped debuggees are terminated, waiting listener polls end, in-flight
    /// requests get their answers, then the server task ends.
    pub async fn shutdown(mut self) {
        self.shared.begin_shutdown();
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let abort = self.task.abort_handle();
        if tokio::time::timeout(Duration::from_secs(5), &mut self.task)
            .await
            .is_err()
        {
            abort.abort();
        }
    }
}

impl Drop for SimHandle {
    fn drop(&mut self) {
        if self.stop.is_some() {
            // Dropped without shutdown: release every stopped program anyway.
            self.shared.begin_shutdown();
            if let Some(stop) = self.stop.take() {
                let _ = stop.send(());
            }
        }
    }
}

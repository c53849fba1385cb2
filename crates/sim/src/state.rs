//! State shared by all requests and all debuggee threads.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::breakpoints::BreakpointStore;
use crate::debuggee::DebuggeeRegistry;
use crate::listener::ListenerRegistry;
use crate::sessions::Sessions;
use crate::{LoggedRequest, SimConfig, SimError};

/// The demo classes every simulator serves.
const DEMO_FILE: &str = "zcl_abapdbg_demo.clas.abap";
const DEMO_SOURCE: &str = include_str!("../samples/zcl_abapdbg_demo.clas.abap");
/// A class with an internal table of 300 rows, for the table views (the plugin's examples).
const ORDERS_FILE: &str = "zcl_abapdbg_orders.clas.abap";
const ORDERS_SOURCE: &str = include_str!("../samples/zcl_abapdbg_orders.clas.abap");

/// System identity shown in responses.
pub(crate) const SID: &str = "SIM";
pub(crate) const HOST: &str = "localhost";
pub(crate) const INSTANCE: &str = "localhost_SIM_00";

/// Lock a std mutex, recovering from poisoning (a panicking thread must not take the
/// simulator down with it).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn load_repository(config: &SimConfig) -> Result<abap::Repository, SimError> {
    let mut repo = abap::Repository::new();
    repo.set_limits(config.limits);
    repo.add_file(DEMO_FILE, DEMO_SOURCE)?;
    repo.add_file(ORDERS_FILE, ORDERS_SOURCE)?;
    for dir in &config.program_dirs {
        let loaded = repo.load_dir(dir)?;
        for (object, e) in &loaded.skipped {
            // One object the parser cannot take must not keep the others from being served.
            tracing::warn!("skipped {object} in {}: {e}", dir.display());
        }
        tracing::info!("loaded {} objects from {}", loaded.objects, dir.display());
    }
    repo.set_database(crate::database::open(config)?);
    Ok(repo)
}

pub(crate) struct Shared {
    pub config: SimConfig,
    pub repo: abap::Repository,
    pub sessions: Sessions,
    pub breakpoints: BreakpointStore,
    pub listeners: ListenerRegistry,
    pub debuggees: DebuggeeRegistry,
    /// Bumped on every change a listener poll may care about (new waiting debuggee, listener
    /// replaced or deleted, shutdown).
    pub changes: tokio::sync::watch::Sender<u64>,
    /// Fault injection (admin `/sim/faults`).
    pub faults: crate::faults::FaultState,
    /// One permit per open connection ([`SimConfig::max_connections`]).
    pub connection_slots: std::sync::Arc<tokio::sync::Semaphore>,
    /// The short dumps of every run that ended in a runtime error (`dumps.rs`).
    pub dumps: crate::dumps::DumpStore,
    shutting_down: AtomicBool,
    log: Mutex<Vec<LoggedRequest>>,
}

impl Shared {
    pub fn new(config: SimConfig, repo: abap::Repository) -> Self {
        Shared {
            faults: crate::faults::FaultState::new(config.faults.clone()),
            connection_slots: std::sync::Arc::new(tokio::sync::Semaphore::new(
                config.max_connections.max(1),
            )),
            config,
            repo,
            sessions: Sessions::default(),
            breakpoints: BreakpointStore::default(),
            listeners: ListenerRegistry::default(),
            debuggees: DebuggeeRegistry::default(),
            changes: tokio::sync::watch::Sender::new(0),
            dumps: crate::dumps::DumpStore::default(),
            shutting_down: AtomicBool::new(false),
            log: Mutex::new(Vec::new()),
        }
    }

    /// Wake every listener poll so it re-checks its condition.
    pub fn notify(&self) {
        self.changes.send_modify(|v| *v = v.wrapping_add(1));
    }

    pub fn is_shutting_down(&self) -> bool {
        self.shutting_down.load(Ordering::SeqCst)
    }

    /// Terminate every live debuggee and wake every poll.
    pub fn begin_shutdown(&self) {
        self.shutting_down.store(true, Ordering::SeqCst);
        self.debuggees.terminate_all();
        self.notify();
    }

    pub fn log_request(&self, entry: LoggedRequest) {
        let mut log = lock(&self.log);
        // Bounded: a long-running `abapdbg sim` must not grow without limit.
        if log.len() >= 100_000 {
            log.drain(..10_000);
        }
        log.push(entry);
    }

    pub fn request_log(&self) -> Vec<LoggedRequest> {
        lock(&self.log).clone()
    }

    pub fn clear_request_log(&self) {
        lock(&self.log).clear();
    }
}

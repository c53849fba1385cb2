//! Security sessions (cookie `SAP_SESSIONID_SIM_<client>`, CSRF token) and stateful contexts
//! (cookie `sap-contextid`) with their debugger state.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::debuggee::DebuggeeEntry;
use crate::ids;
use crate::state::lock;

/// A logged-on user's security session.
#[derive(Debug, Clone)]
pub(crate) struct SecuritySession {
    pub id: String,
    pub user: String,
    pub csrf_token: String,
}

/// How the debuggee of a context went away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EndKind {
    /// Ran to its end (`debuggeeEnded`).
    Ended,
    /// `terminateDebuggee`.
    Terminated,
}

/// Debugger settings (`dbg:settings`), in wire order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Settings(pub Vec<(&'static str, bool)>);

impl Default for Settings {
    fn default() -> Self {
        Settings(vec![
            ("systemDebugging", false),
            ("createExceptionObject", false),
            ("backgroundRFC", false),
            ("sharedObjectDebugging", false),
            ("showDataAging", false),
            ("updateDebugging", false),
        ])
    }
}

/// The debuggee a context has attached.
#[derive(Clone)]
pub(crate) struct Attached {
    pub entry: Arc<DebuggeeEntry>,
    pub debug_session_id: String,
}

/// Debugger state of one stateful context (or a throw-away one for stateless requests).
#[derive(Default)]
pub(crate) struct DebugSession {
    pub attached: Option<Attached>,
    pub attached_once: bool,
    pub ended: Option<EndKind>,
    /// Selected stack frame, 0 = innermost.
    pub selected_frame: usize,
    pub settings: Settings,
    /// Set by a request that destroys its stateful session (§9.8); the server ends the
    /// context after the answer.
    pub lost: bool,
}

impl DebugSession {
    /// Forget the debuggee (it ended or was terminated).
    pub fn end(&mut self, how: EndKind) {
        self.attached = None;
        self.ended = Some(how);
        self.selected_frame = 0;
    }
}

/// A stateful context (`sap-contextid`).
pub(crate) struct Context {
    pub id: String,
    pub user: String,
    /// Serialises the requests of the context and guards its debugger state.
    pub debug: Arc<tokio::sync::Mutex<DebugSession>>,
    /// Start or end of the latest request (idle expiry).
    last_used: Mutex<Instant>,
}

impl Context {
    pub fn touch(&self) {
        *lock(&self.last_used) = Instant::now();
    }

    fn idle_for(&self) -> Duration {
        lock(&self.last_used).elapsed()
    }
}

/// What the admin API shows of a context.
#[derive(Debug, Clone)]
pub(crate) struct ContextInfo {
    pub id: String,
    pub user: String,
    pub idle: Duration,
    /// Attached debuggee, when the context is not busy with a request.
    pub debuggee: Option<String>,
    pub busy: bool,
}

/// What a security-session cookie refers to.
pub(crate) enum SecurityLookup {
    Valid(SecuritySession),
    /// The session existed but was idle longer than the security-session timeout; it is gone
    /// now (the next request with credentials opens a new one).
    Expired,
    Unknown,
}

#[derive(Default)]
pub(crate) struct Sessions {
    /// Security sessions by id, with the time of their last request.
    security: Mutex<HashMap<String, (SecuritySession, Instant)>>,
    contexts: Mutex<HashMap<String, Arc<Context>>>,
}

/// Bound on remembered sessions; the oldest are dropped beyond it.
const MAX_SESSIONS: usize = 10_000;

impl Sessions {
    /// The security session of a cookie value; a request to a live session renews it.
    pub fn security(&self, id: &str, timeout: Duration) -> SecurityLookup {
        let mut map = lock(&self.security);
        let Some((session, last)) = map.get_mut(id) else {
            return SecurityLookup::Unknown;
        };
        if last.elapsed() > timeout {
            map.remove(id);
            return SecurityLookup::Expired;
        }
        *last = Instant::now();
        SecurityLookup::Valid(session.clone())
    }

    pub fn new_security(&self, user: &str) -> SecuritySession {
        let s = SecuritySession {
            id: ids::hex32(),
            user: user.to_string(),
            csrf_token: ids::token(),
        };
        let mut map = lock(&self.security);
        if map.len() >= MAX_SESSIONS {
            map.clear();
        }
        map.insert(s.id.clone(), (s.clone(), Instant::now()));
        s
    }

    /// Give every security session a new CSRF token (fault injection).
    pub fn rotate_csrf(&self) {
        for (s, _) in lock(&self.security).values_mut() {
            s.csrf_token = ids::token();
        }
    }

    /// Drop every stateful context now (fault injection); like idle expiry, attached
    /// debuggees are not released.
    pub fn expire_all(&self) -> usize {
        let mut map = lock(&self.contexts);
        let n = map.len();
        map.clear();
        n
    }

    pub fn end_security(&self, id: &str) {
        lock(&self.security).remove(id);
    }

    /// The context with that id, if it belongs to `user`.
    pub fn context(&self, id: &str, user: &str) -> Option<Arc<Context>> {
        lock(&self.contexts)
            .get(id)
            .filter(|c| c.user == user)
            .cloned()
    }

    /// Whether a stateful context with that id still exists (a debuggee attached by one that
    /// expired may be attached again).
    pub fn exists(&self, id: &str) -> bool {
        lock(&self.contexts).contains_key(id)
    }

    pub fn new_context(&self, user: &str) -> Arc<Context> {
        let ctx = Arc::new(Context {
            id: ids::hex32(),
            user: user.to_string(),
            debug: Arc::new(tokio::sync::Mutex::new(DebugSession::default())),
            last_used: Mutex::new(Instant::now()),
        });
        let mut map = lock(&self.contexts);
        if map.len() >= MAX_SESSIONS {
            // Keep the ones with an attached debuggee.
            map.retain(|_, c| {
                c.debug
                    .try_lock()
                    .map(|d| d.attached.is_some())
                    .unwrap_or(true)
            });
        }
        map.insert(ctx.id.clone(), ctx.clone());
        ctx
    }

    /// Remove a context; returns it so the caller can release its debuggee.
    pub fn remove_context(&self, id: &str) -> Option<Arc<Context>> {
        lock(&self.contexts).remove(id)
    }

    /// Drop the contexts idle for longer than `idle` and not busy with a request. Their
    /// debuggees are *not* released: a stopped program stays stopped (a frozen work process).
    pub fn expire(&self, idle: Duration) -> Vec<String> {
        let mut map = lock(&self.contexts);
        let expired: Vec<String> = map
            .values()
            .filter(|c| c.idle_for() > idle && c.debug.try_lock().is_ok())
            .map(|c| c.id.clone())
            .collect();
        for id in &expired {
            map.remove(id);
        }
        expired
    }

    pub fn contexts(&self) -> Vec<ContextInfo> {
        let map = lock(&self.contexts);
        let mut out: Vec<ContextInfo> = map
            .values()
            .map(|c| {
                let (busy, debuggee) = match c.debug.try_lock() {
                    Ok(d) => (false, d.attached.as_ref().map(|a| a.entry.id.clone())),
                    Err(_) => (true, None),
                };
                ContextInfo {
                    id: c.id.clone(),
                    user: c.user.clone(),
                    idle: c.idle_for(),
                    debuggee,
                    busy,
                }
            })
            .collect();
        out.sort_by(|a, b| a.id.cmp(&b.id));
        out
    }
}

/// Expire idle stateful contexts in the background (until shutdown).
pub(crate) fn spawn_reaper(shared: Arc<crate::state::Shared>) {
    let idle = shared.config.session_idle_timeout;
    let every = (idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(30));
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            if shared.is_shutting_down() {
                return;
            }
            for id in shared.sessions.expire(idle) {
                tracing::info!("stateful context {id} expired");
            }
        }
    });
}

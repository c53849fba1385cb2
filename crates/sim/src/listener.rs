//! The debugger listener (§3): registration per user, the long poll, the check and the delete.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use abap::Location;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::breakpoints::effective_user;
use crate::errors;
use crate::state::{HOST, INSTANCE, Shared, lock};
use crate::uri::{adt_type, debuggee_name, location_uri};
use crate::xml::{XML_DECL, elem};

/// Longest accepted `timeout` (seconds).
const MAX_TIMEOUT_SECS: u64 = 3600;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Registration {
    terminal_id: String,
    ide_id: String,
    generation: u64,
}

/// One listener per user (§3.5).
#[derive(Default)]
pub(crate) struct ListenerRegistry {
    by_user: Mutex<HashMap<String, Registration>>,
    next: AtomicU64,
    /// Bumped after every change of the registrations: a running program's hook asks
    /// [`ListenerRegistry::has`] again only when this moved.
    version: AtomicU64,
}

impl ListenerRegistry {
    /// Does `user` have a registered listener (breakpoints fire only then)?
    pub fn has(&self, user: &str) -> bool {
        lock(&self.by_user).contains_key(user)
    }

    /// Changes so far (read before [`ListenerRegistry::has`], a cached answer stays valid
    /// while this does not move).
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    fn changed(&self) {
        self.version.fetch_add(1, Ordering::AcqRel);
    }

    /// (user, terminalId, ideId) of every listener, for the admin API.
    pub fn snapshot(&self) -> Vec<(String, String, String)> {
        let mut out: Vec<(String, String, String)> = lock(&self.by_user)
            .iter()
            .map(|(u, r)| (u.clone(), r.terminal_id.clone(), r.ide_id.clone()))
            .collect();
        out.sort();
        out
    }

    /// The listener-conflict fault: another IDE listens for `user`.
    pub fn register_foreign(&self, user: &str) {
        let user = user.trim().to_uppercase();
        self.register(
            &user,
            crate::faults::FOREIGN_TERMINAL_ID,
            crate::faults::FOREIGN_IDE_ID,
        );
    }

    /// Remove the listeners registered by the listener-conflict fault.
    pub fn remove_foreign(&self) -> bool {
        let mut map = lock(&self.by_user);
        let before = map.len();
        map.retain(|_, r| {
            r.terminal_id != crate::faults::FOREIGN_TERMINAL_ID
                || r.ide_id != crate::faults::FOREIGN_IDE_ID
        });
        let removed = map.len() != before;
        drop(map);
        self.changed();
        removed
    }

    /// Another tool of the same users deletes their listeners (fault injection): every
    /// listener but the foreign ones goes; their polls end as if the server's time was up.
    pub fn remove_all(&self) {
        lock(&self.by_user).retain(|_, r| {
            r.terminal_id == crate::faults::FOREIGN_TERMINAL_ID
                && r.ide_id == crate::faults::FOREIGN_IDE_ID
        });
        self.changed();
    }

    fn register(&self, user: &str, terminal_id: &str, ide_id: &str) -> u64 {
        let generation = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        lock(&self.by_user).insert(
            user.to_string(),
            Registration {
                terminal_id: terminal_id.to_string(),
                ide_id: ide_id.to_string(),
                generation,
            },
        );
        self.changed();
        generation
    }

    fn generation(&self, user: &str) -> Option<u64> {
        lock(&self.by_user).get(user).map(|r| r.generation)
    }

    /// Another listener (different terminal or IDE) exists for `user`.
    fn conflicts(&self, user: &str, terminal_id: &str, ide_id: &str) -> bool {
        lock(&self.by_user)
            .get(user)
            .is_some_and(|r| r.terminal_id != terminal_id || r.ide_id != ide_id)
    }

    fn exists(&self, user: &str, terminal_id: &str, ide_id: &str) -> bool {
        lock(&self.by_user)
            .get(user)
            .is_some_and(|r| r.terminal_id == terminal_id && r.ide_id == ide_id)
    }

    fn remove(&self, user: &str, terminal_id: &str, ide_id: &str) -> bool {
        let mut map = lock(&self.by_user);
        let matches = map
            .get(user)
            .is_some_and(|r| r.terminal_id == terminal_id && r.ide_id == ide_id);
        if matches {
            map.remove(user);
            drop(map);
            self.changed();
        }
        matches
    }
}

fn q<'a>(query: &'a [(String, String)], name: &str) -> Option<&'a str> {
    query
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

struct Ids {
    user: String,
    terminal_id: String,
    ide_id: String,
}

fn ids(query: &[(String, String)], auth_user: &str) -> Ids {
    Ids {
        user: effective_user(q(query, "requestUser").unwrap_or(""), auth_user),
        terminal_id: q(query, "terminalId").unwrap_or("").to_string(),
        ide_id: q(query, "ideId").unwrap_or("").to_string(),
    }
}

/// A debuggee waiting for attach, as a listener reports it.
#[derive(Debug, Clone)]
pub(crate) struct DebuggeeInfo {
    pub id: String,
    pub user: String,
    pub client: String,
    pub location: Location,
}

/// `POST /sap/bc/adt/debugger/listeners`: long poll.
pub(crate) async fn listen(
    shared: Arc<Shared>,
    auth_user: &str,
    query: &[(String, String)],
) -> Response {
    let ids = ids(query, auth_user);
    if q(query, "checkConflict") == Some("true")
        && shared
            .listeners
            .conflicts(&ids.user, &ids.terminal_id, &ids.ide_id)
    {
        return errors::listener_conflict("conflictDetected", &ids.user).into_response();
    }
    let notify_on_conflict = q(query, "isNotifiedOnConflict") == Some("true");
    let timeout = q(query, "timeout")
        .and_then(|t| t.trim().parse::<u64>().ok())
        .map(|s| Duration::from_secs(s.min(MAX_TIMEOUT_SECS)))
        .unwrap_or(shared.config.listener_default_timeout);
    let mut changes = shared.changes.subscribe();
    let generation = shared
        .listeners
        .register(&ids.user, &ids.terminal_id, &ids.ide_id);
    // A displaced poll of this user re-checks and ends.
    shared.notify();
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        changes.borrow_and_update();
        if shared.is_shutting_down() {
            return empty_ok();
        }
        if shared.listeners.generation(&ids.user) != Some(generation) {
            let displaced = shared.listeners.generation(&ids.user).is_some();
            if displaced && notify_on_conflict {
                return errors::listener_conflict("conflictNotification", &ids.user)
                    .into_response();
            }
            return empty_ok();
        }
        if let Some(info) = shared.debuggees.take_unreported(&ids.user) {
            tracing::debug!("listener of {} reported debuggee {}", ids.user, info.id);
            return debuggee_list(&info);
        }
        tokio::select! {
            changed = changes.changed() => {
                if changed.is_err() {
                    return empty_ok();
                }
            }
            _ = tokio::time::sleep_until(deadline) => return empty_ok(),
        }
    }
}

/// `GET /sap/bc/adt/debugger/listeners`: conflict / existence check (§3.2).
pub(crate) fn check(shared: &Shared, auth_user: &str, query: &[(String, String)]) -> Response {
    let ids = ids(query, auth_user);
    if q(query, "checkConflict") == Some("true") {
        if shared
            .listeners
            .conflicts(&ids.user, &ids.terminal_id, &ids.ide_id)
        {
            return errors::listener_conflict("conflictDetected", &ids.user).into_response();
        }
        return empty_ok();
    }
    if shared
        .listeners
        .exists(&ids.user, &ids.terminal_id, &ids.ide_id)
    {
        empty_ok()
    } else {
        errors::not_found("Resource   does not exist.").into_response()
    }
}

/// `DELETE /sap/bc/adt/debugger/listeners`.
pub(crate) fn stop(shared: &Shared, auth_user: &str, query: &[(String, String)]) -> Response {
    let ids = ids(query, auth_user);
    if shared
        .listeners
        .remove(&ids.user, &ids.terminal_id, &ids.ide_id)
    {
        shared.notify();
    }
    empty_ok()
}

/// 200 with a zero-byte body and no content type.
pub(crate) fn empty_ok() -> Response {
    StatusCode::OK.into_response()
}

/// The `DebuggeesList` document (§3.4), fields in captured order.
pub(crate) fn debuggee_list_xml(info: &DebuggeeInfo) -> String {
    let loc = &info.location;
    let fields: [(&str, String); 41] = [
        ("CLIENT", info.client.clone()),
        ("DEBUGGEE_ID", info.id.clone()),
        ("TERMINAL_ID", String::new()),
        ("IDE_ID", String::new()),
        ("DEBUGGEE_USER", info.user.clone()),
        ("PRG_CURR", loc.program.clone()),
        ("INCL_CURR", loc.include.clone()),
        ("LINE_CURR", loc.include_line.to_string()),
        ("RFCDEST", INSTANCE.to_string()),
        ("APPLSERVER", String::new()),
        ("SYSID", String::new()),
        ("SYSNR", "0".to_string()),
        ("DBGKEY", String::new()),
        ("TSTMP", "0".to_string()),
        ("DBGEE_KIND", "DEBUGGEE".to_string()),
        ("DUMPID", String::new()),
        ("DUMPDATE", "0000-00-00".to_string()),
        ("DUMPTIME", "00:00:00".to_string()),
        ("DUMPHOST", String::new()),
        ("DUMPMODNO", "0".to_string()),
        ("LISTENER_CTX_ID", String::new()),
        ("IS_ATTACH_IMPOSSIBLE", "false".to_string()),
        ("APPSERVER", HOST.to_string()),
        ("IS_SAME_SERVER", "true".to_string()),
        ("CAN_ADT_CROSS_SERVER", "true".to_string()),
        ("INSTANCE_NAME", INSTANCE.to_string()),
        ("HOST", HOST.to_string()),
        ("DUMP_ID", String::new()),
        ("DUMP_DATE", "0000-00-00".to_string()),
        ("DUMP_TIME", "00:00:00".to_string()),
        ("DUMP_HOST", String::new()),
        ("DUMP_UNAME", String::new()),
        ("DUMP_MODNO", "0".to_string()),
        ("DUMP_CLIENT", String::new()),
        ("DUMP_URI", String::new()),
        ("URI", location_uri(loc, false)),
        ("TYPE", adt_type(loc.kind).to_string()),
        ("NAME", debuggee_name(loc)),
        ("PARENT_URI", String::new()),
        ("PACKAGE_NAME", String::new()),
        ("DESCRIPTION", String::new()),
    ];
    let mut s = String::from(XML_DECL);
    s.push_str("<asx:abap version=\"1.0\" xmlns:asx=\"http://www.sap.com/abapxml\"><asx:values><DATA><STPDA_DEBUGGEE>");
    for (name, value) in &fields {
        elem(&mut s, name, value);
    }
    s.push_str("</STPDA_DEBUGGEE></DATA></asx:values></asx:abap>");
    s
}

fn debuggee_list(info: &DebuggeeInfo) -> Response {
    let mut r = (StatusCode::OK, debuggee_list_xml(info)).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(
            "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.debugger.DebuggeesList",
        ),
    );
    r
}

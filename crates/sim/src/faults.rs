//! Fault injection: latency, dropped connections, 5xx answers (every N requests, or once on a
//! named operation), ICM pages, CSRF rotation, stateful-session expiry, a listener conflict
//! from another IDE, and another tool of the same user deleting listeners or breakpoints.
//! Configured at start ([`crate::SimConfig::faults`]) and at run time through
//! `PUT/GET/DELETE /sim/faults`. Admin requests (`/sim/…`) are never affected.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::state::lock;

/// Terminal id of the listener registered by the listener-conflict fault.
pub const FOREIGN_TERMINAL_ID: &str = "SIMFAULTTERMINAL0000000000000000";
/// IDE id of the listener registered by the listener-conflict fault.
pub const FOREIGN_IDE_ID: &str = "SIMFAULTIDE000000000000000000000";

/// Faults injected into ADT requests (not into `/sim/` admin requests). The default injects
/// nothing. "Every N requests" counts the ADT requests received since the faults were last
/// set (at start, or by `PUT`/`DELETE /sim/faults`), starting at 1: with `N = 3` the 3rd, 6th,
/// 9th… request is hit. `0` switches a rule off. When several rules hit the same request, a
/// dropped connection wins over an ICM page, which wins over a 5xx answer; CSRF rotation and
/// session expiry happen before the request is processed (so that request already sees them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Faults {
    /// Added before every ADT request is processed.
    pub latency: Duration,
    /// Close the connection without answering every N requests.
    pub drop_every: u32,
    /// Answer with a 5xx `exc:exception` every N requests.
    pub error_every: u32,
    /// Status of those answers (500–599; anything else means 500).
    pub error_status: u16,
    /// Answer with the ICM's HTML 400 "Service cannot be reached" page every N requests.
    pub icm_every: u32,
    /// Give every security session a new CSRF token every N requests (the old token then gets
    /// 403 `x-csrf-token: Required`).
    pub csrf_rotate_every: u32,
    /// Drop every stateful context every N requests (as idle expiry does: attached debuggees
    /// stay stopped).
    pub session_expiry_every: u32,
    /// Users for whom another IDE is registered as listener at start
    /// ([`FOREIGN_TERMINAL_ID`]/[`FOREIGN_IDE_ID`]): their polls are displaced and conflict
    /// checks answer 409 `conflictDetected`.
    pub foreign_listeners: Vec<String>,
    /// One-shot 5xx answers on named operations ([`operation_name`]): each entry fails the
    /// next `times` requests of its operation, then is used up.
    pub fail_next: Vec<OperationFault>,
    /// Collections the discovery document leaves out (hrefs such as
    /// `/sap/bc/adt/debugger/batch`), as a system without them would: the resources are
    /// still served, so a client that uses one anyway shows up in the request log.
    pub discovery_without: Vec<String>,
    /// Refuse a whole `getChildVariables` (a request, or a part of a batch) that names a
    /// scope (`@LOCALS`, `@GLOBALS`, …) the selected frame does not have, with an error status,
    /// instead of leaving the unknown parent out.
    pub refuse_unknown_scopes: bool,
}

/// Fail the next `times` requests of one operation with `status`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationFault {
    /// As [`operation_name`] names it: `attach`, `listen`, `deleteBreakpoint`, …
    pub operation: String,
    pub status: u16,
    pub times: u32,
}

/// The name fault injection gives an ADT request: the `method` of `POST /debugger` (`attach`,
/// `getStack`, `stepOver`, `terminateDebuggee`, …), else one per resource: `batch`, `listen`
/// (the long poll), `listenerCheck`, `stopListener`, `setBreakpoints`, `deleteBreakpoint`,
/// `getStack` (the stack resource), `classrun`, `reportrun`, `testrun`; empty for the rest.
pub(crate) fn operation_name(method: &str, path: &str, query: Option<&str>) -> String {
    let path = path.trim_end_matches('/');
    let name = match (method, path) {
        ("POST", "/sap/bc/adt/debugger") => {
            return crate::server::parse_query(query)
                .into_iter()
                .find(|(k, _)| k == "method")
                .map(|(_, v)| v)
                .unwrap_or_default();
        }
        ("POST", "/sap/bc/adt/debugger/batch") => "batch",
        ("POST", "/sap/bc/adt/debugger/listeners") => "listen",
        ("GET" | "HEAD", "/sap/bc/adt/debugger/listeners") => "listenerCheck",
        ("DELETE", "/sap/bc/adt/debugger/listeners") => "stopListener",
        ("POST", "/sap/bc/adt/debugger/breakpoints") => "setBreakpoints",
        ("DELETE", p) if p.starts_with("/sap/bc/adt/debugger/breakpoints/") => "deleteBreakpoint",
        ("GET", "/sap/bc/adt/debugger/stack") => "getStack",
        ("POST", p) if p.starts_with("/sap/bc/adt/oo/classrun/") => "classrun",
        ("POST", p) if p.starts_with("/sap/bc/adt/abapdbg/reportrun/") => "reportrun",
        ("POST", "/sap/bc/adt/abapunit/testruns") => "testrun",
        _ => "",
    };
    name.to_string()
}

impl Faults {
    fn status(&self) -> StatusCode {
        match self.error_status {
            500..=599 => {
                StatusCode::from_u16(self.error_status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            }
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub(crate) fn to_json(&self) -> Value {
        json!({
            "latencyMs": self.latency.as_millis() as u64,
            "dropEvery": self.drop_every,
            "errorEvery": self.error_every,
            "errorStatus": self.status().as_u16(),
            "icmEvery": self.icm_every,
            "csrfRotateEvery": self.csrf_rotate_every,
            "sessionExpiryEvery": self.session_expiry_every,
            "foreignListeners": self.foreign_listeners,
            "failNext": self.fail_next.iter().map(|f| json!({
                "operation": f.operation, "status": f.status, "times": f.times,
            })).collect::<Vec<_>>(),
            "discoveryWithout": self.discovery_without,
            "refuseUnknownScopes": self.refuse_unknown_scopes,
        })
    }
}

/// What a `PUT /sim/faults` body asks for.
#[derive(Debug, Default)]
pub(crate) struct FaultRequest {
    pub faults: Faults,
    pub rotate_csrf_now: bool,
    pub expire_sessions_now: bool,
    /// Another tool of the same user deletes every listener (the poll ends without a catch).
    pub delete_listeners_now: bool,
    /// Another tool of the same user deletes every external breakpoint.
    pub delete_breakpoints_now: bool,
}

/// One `failNext` entry: `{"operation": "attach", "status": 503, "times": 1}` (status
/// defaults to 500, times to 1).
fn parse_operation_fault(v: &Value) -> Result<OperationFault, String> {
    let operation = v["operation"]
        .as_str()
        .filter(|o| !o.trim().is_empty() && o.len() <= 64)
        .ok_or("failNext: each entry needs an \"operation\" name")?
        .trim()
        .to_string();
    let status = match v.get("status") {
        None => 500,
        Some(s) => s
            .as_u64()
            .filter(|s| (500..=599).contains(s))
            .ok_or("failNext: status expected 500..=599")? as u16,
    };
    let times = match v.get("times") {
        None => 1,
        Some(t) => as_u32("failNext.times", t)?,
    };
    Ok(OperationFault {
        operation,
        status,
        times,
    })
}

fn as_u32(key: &str, v: &Value) -> Result<u32, String> {
    v.as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| format!("{key}: expected a non-negative integer"))
}

/// Parse a `PUT /sim/faults` body (absent keys: off).
pub(crate) fn parse_request(body: &str) -> Result<FaultRequest, String> {
    let text = if body.trim().is_empty() { "{}" } else { body };
    let v: Value = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    let Some(obj) = v.as_object() else {
        return Err("expected a JSON object".to_string());
    };
    let mut r = FaultRequest::default();
    for (key, value) in obj {
        match key.as_str() {
            "latencyMs" => {
                let ms = value
                    .as_u64()
                    .filter(|ms| *ms <= 600_000)
                    .ok_or("latencyMs: expected an integer 0..=600000")?;
                r.faults.latency = Duration::from_millis(ms);
            }
            "dropEvery" => r.faults.drop_every = as_u32(key, value)?,
            "errorEvery" => r.faults.error_every = as_u32(key, value)?,
            "errorStatus" => {
                let s = as_u32(key, value)?;
                if !(500..=599).contains(&s) {
                    return Err("errorStatus: expected 500..=599".to_string());
                }
                r.faults.error_status = s as u16;
            }
            "icmEvery" => r.faults.icm_every = as_u32(key, value)?,
            "csrfRotateEvery" => r.faults.csrf_rotate_every = as_u32(key, value)?,
            "sessionExpiryEvery" => r.faults.session_expiry_every = as_u32(key, value)?,
            "foreignListeners" => {
                let users = value
                    .as_array()
                    .ok_or("foreignListeners: expected an array of user names")?;
                for u in users {
                    let u = u
                        .as_str()
                        .filter(|u| !u.trim().is_empty() && u.len() <= 40)
                        .ok_or("foreignListeners: expected user names")?;
                    r.faults.foreign_listeners.push(u.trim().to_uppercase());
                }
            }
            "rotateCsrfNow" => {
                r.rotate_csrf_now = value.as_bool().ok_or("rotateCsrfNow: expected a boolean")?
            }
            "expireSessionsNow" => {
                r.expire_sessions_now = value
                    .as_bool()
                    .ok_or("expireSessionsNow: expected a boolean")?
            }
            "deleteListenersNow" => {
                r.delete_listeners_now = value
                    .as_bool()
                    .ok_or("deleteListenersNow: expected a boolean")?
            }
            "deleteBreakpointsNow" => {
                r.delete_breakpoints_now = value
                    .as_bool()
                    .ok_or("deleteBreakpointsNow: expected a boolean")?
            }
            "failNext" => {
                let list = value
                    .as_array()
                    .ok_or("failNext: expected an array of {operation, status, times}")?;
                for v in list.iter().take(100) {
                    r.faults.fail_next.push(parse_operation_fault(v)?);
                }
            }
            "discoveryWithout" => {
                let hrefs = value
                    .as_array()
                    .ok_or("discoveryWithout: expected an array of collection hrefs")?;
                for h in hrefs.iter().take(100) {
                    let h = h
                        .as_str()
                        .filter(|h| h.starts_with('/') && h.len() <= 200)
                        .ok_or(
                            "discoveryWithout: expected hrefs such as /sap/bc/adt/debugger/batch",
                        )?;
                    r.faults.discovery_without.push(h.to_string());
                }
            }
            "refuseUnknownScopes" => {
                r.faults.refuse_unknown_scopes = value
                    .as_bool()
                    .ok_or("refuseUnknownScopes: expected a boolean")?
            }
            other => return Err(format!("unknown key {other}")),
        }
    }
    Ok(r)
}

/// What to do with one ADT request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Injected {
    None,
    Drop,
    Icm,
    Error(StatusCode),
}

/// The plan for one request.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub latency: Duration,
    pub rotate_csrf: bool,
    pub expire_sessions: bool,
    pub inject: Injected,
}

#[derive(Default)]
pub(crate) struct FaultState {
    inner: Mutex<(Faults, u64)>,
}

fn hits(every: u32, n: u64) -> bool {
    every != 0 && n.is_multiple_of(u64::from(every))
}

impl FaultState {
    pub fn new(faults: Faults) -> Self {
        FaultState {
            inner: Mutex::new((faults, 0)),
        }
    }

    /// Replace the faults and restart the request count.
    pub fn set(&self, faults: Faults) {
        *lock(&self.inner) = (faults, 0);
    }

    pub fn get(&self) -> (Faults, u64) {
        lock(&self.inner).clone()
    }

    /// Count one ADT request of `operation` ([`operation_name`]) and decide what happens
    /// to it.
    pub fn next(&self, operation: &str) -> Plan {
        let mut g = lock(&self.inner);
        g.1 = g.1.wrapping_add(1);
        let n = g.1;
        let named =
            g.0.fail_next
                .iter_mut()
                .find(|f| f.times > 0 && !operation.is_empty() && f.operation == operation)
                .map(|f| {
                    f.times -= 1;
                    StatusCode::from_u16(f.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
                });
        g.0.fail_next.retain(|f| f.times > 0);
        let f = &g.0;
        let inject = if hits(f.drop_every, n) {
            Injected::Drop
        } else if hits(f.icm_every, n) {
            Injected::Icm
        } else if let Some(status) = named {
            Injected::Error(status)
        } else if hits(f.error_every, n) {
            Injected::Error(f.status())
        } else {
            Injected::None
        };
        Plan {
            latency: f.latency,
            rotate_csrf: hits(f.csrf_rotate_every, n),
            expire_sessions: hits(f.session_expiry_every, n),
            inject,
        }
    }
}

/// The ICM's answer while no work process can take the request (§1.5, §13.2): HTML, 400.
pub(crate) fn icm_page() -> Response {
    let body = "<!DOCTYPE html>\n<html><head><title>Service cannot be reached</title></head>\
<body><h2>500 SAP Internet Communication Framework Error</h2>\
<p><b>Service cannot be reached</b></p>\
<p>The request could not be passed to an ABAP work process (simulated fault).</p>\
<p>Server: localhost_SIM_00</p></body></html>\n";
    let mut r = (StatusCode::BAD_REQUEST, body).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    r
}

/// An injected server failure: an `exc:exception` with `AdiFailed` (§13.2 "intermittent
/// server failure").
pub(crate) fn server_error(status: StatusCode) -> Response {
    crate::errors::AdtError::new(status, "AdiFailed", "An exception was raised")
        .t100("SY", "530")
        .prop("previous1Text", "Simulated server failure")
        .into_response()
}

pub(crate) fn faults_json(state: &FaultState) -> Value {
    let (f, n) = state.get();
    let mut v = f.to_json();
    if let Some(obj) = v.as_object_mut() {
        obj.insert("requests".to_string(), json!(n));
    }
    v
}

/// An error answer of the admin API.
pub(crate) fn bad_request(message: &str) -> Response {
    let mut m = Map::new();
    m.insert("error".to_string(), json!(message));
    let mut r = (StatusCode::BAD_REQUEST, Value::Object(m).to_string()).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

// --- Connections that can be dropped -----------------------------------------------------

/// A handle on the connection a request arrived on: [`ConnTag::kill`] makes the connection
/// fail its next write, so the answer is never sent and the socket is closed.
#[derive(Debug, Clone, Default)]
pub(crate) struct ConnTag {
    killed: Arc<AtomicBool>,
    /// Requests of this connection being handled (a long poll may take minutes): while one
    /// is, the connection is not idle.
    busy: Arc<AtomicUsize>,
}

impl ConnTag {
    pub fn kill(&self) {
        self.killed.store(true, Ordering::SeqCst);
    }

    /// Marks a request of this connection as being handled until the guard is dropped.
    pub fn busy(&self) -> Busy {
        self.busy.fetch_add(1, Ordering::SeqCst);
        Busy(self.busy.clone())
    }
}

/// A request being handled on its connection ([`ConnTag::busy`]).
pub(crate) struct Busy(Arc<AtomicUsize>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A TCP connection that stops writing once its tag is killed, holds one of the simulator's
/// connection slots while it is open, and ends when no request is handled on it and nothing
/// was read or written for the idle limit (issue 25: idle connections used up the
/// simulator's file descriptors, and then a shutdown could not release what it held).
pub(crate) struct FaultIo {
    inner: tokio::net::TcpStream,
    tag: ConnTag,
    _slot: tokio::sync::OwnedSemaphorePermit,
    idle_limit: Duration,
    last_active: tokio::time::Instant,
    idle: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl FaultIo {
    /// Whether the connection has been idle for its limit; when not yet, the task is woken
    /// when it will have been.
    fn idle_for_too_long(&mut self, cx: &mut TaskContext<'_>) -> bool {
        if self.tag.busy.load(Ordering::SeqCst) > 0 {
            self.idle = None;
            return false;
        }
        let deadline = self.last_active + self.idle_limit;
        let sleep = self
            .idle
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        if sleep.deadline() != deadline {
            sleep.as_mut().reset(deadline);
        }
        sleep.as_mut().poll(cx).is_ready()
    }
}

fn killed_error() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::ConnectionAborted,
        "connection dropped by fault injection",
    )
}

impl AsyncRead for FaultIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if self.tag.killed.load(Ordering::SeqCst) {
            return Poll::Ready(Err(killed_error()));
        }
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    self.last_active = tokio::time::Instant::now();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            // Idle too long: the end of the stream, so the server closes the connection.
            Poll::Pending if self.idle_for_too_long(cx) => Poll::Ready(Ok(())),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncWrite for FaultIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        if self.tag.killed.load(Ordering::SeqCst) {
            return Poll::Ready(Err(killed_error()));
        }
        self.last_active = tokio::time::Instant::now();
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    // Passed on, so hyper sees a socket that takes vectored writes: it then writes a body
    // (a page of table rows is a megabyte) from where it lies instead of copying it into its
    // own buffer first.
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        if self.tag.killed.load(Ordering::SeqCst) {
            return Poll::Ready(Err(killed_error()));
        }
        self.last_active = tokio::time::Instant::now();
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
        if self.tag.killed.load(Ordering::SeqCst) {
            return Poll::Ready(Err(killed_error()));
        }
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The simulator's TCP listener: every connection carries a [`ConnTag`].
pub(crate) struct FaultListener {
    pub listener: tokio::net::TcpListener,
    /// One permit per open connection ([`crate::SimConfig::max_connections`]): beyond them,
    /// connections wait in the kernel's queue until one closes.
    pub slots: Arc<tokio::sync::Semaphore>,
    /// [`crate::SimConfig::idle_connection_timeout`].
    pub idle_limit: Duration,
}

impl axum::serve::Listener for FaultListener {
    type Io = FaultIo;
    type Addr = ConnTag;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            // The semaphore is never closed.
            let Ok(slot) = self.slots.clone().acquire_owned().await else {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            };
            match self.listener.accept().await {
                Ok((stream, _)) => {
                    let _ = stream.set_nodelay(true);
                    let tag = ConnTag::default();
                    return (
                        FaultIo {
                            inner: stream,
                            tag: tag.clone(),
                            _slot: slot,
                            idle_limit: self.idle_limit,
                            last_active: tokio::time::Instant::now(),
                            idle: None,
                        },
                        tag,
                    );
                }
                Err(e) => {
                    tracing::debug!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.listener.local_addr().map(|_| ConnTag::default())
    }
}

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, FaultListener>>
    for ConnTag
{
    fn connect_info(stream: axum::serve::IncomingStream<'_, FaultListener>) -> Self {
        stream.remote_addr().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_named_failure_hits_its_operation_the_given_number_of_times() {
        let r = parse_request(
            r#"{"failNext":[{"operation":"attach","status":503,"times":2}],"deleteBreakpointsNow":true}"#,
        )
        .expect("parse");
        assert!(r.delete_breakpoints_now && !r.delete_listeners_now);
        let s = FaultState::new(r.faults);
        assert_eq!(s.next("getStack").inject, Injected::None);
        let unavailable = Injected::Error(StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(s.next("attach").inject, unavailable);
        assert_eq!(s.next("attach").inject, unavailable);
        assert_eq!(s.next("attach").inject, Injected::None);
        assert!(s.get().0.fail_next.is_empty());
        assert_eq!(
            operation_name(
                "POST",
                "/sap/bc/adt/debugger",
                Some("method=attach&debuggeeId=X")
            ),
            "attach"
        );
        assert_eq!(
            operation_name("DELETE", "/sap/bc/adt/debugger/breakpoints/KIND%3D5", None),
            "deleteBreakpoint"
        );
        assert_eq!(
            operation_name("POST", "/sap/bc/adt/debugger/listeners", None),
            "listen"
        );
    }

    proptest! {
        #[test]
        fn parsing_never_panics(s in ".{0,300}") {
            let _ = parse_request(&s);
        }

        #[test]
        fn plans_never_panic(drop in 0u32..5, icm in 0u32..5, err in 0u32..5, status in 0u16..700) {
            let s = FaultState::new(Faults {
                drop_every: drop,
                icm_every: icm,
                error_every: err,
                error_status: status,
                ..Faults::default()
            });
            for _ in 0..20 {
                let _ = s.next("attach");
            }
        }
    }

    #[test]
    fn parse_and_plan() {
        let r = parse_request(r#"{"dropEvery":3,"icmEvery":3,"errorEvery":2,"errorStatus":503,"latencyMs":5,"rotateCsrfNow":true}"#).expect("parse");
        assert!(r.rotate_csrf_now);
        let s = FaultState::new(r.faults);
        let plans: Vec<Injected> = (0..6).map(|_| s.next("").inject).collect();
        assert_eq!(
            plans,
            vec![
                Injected::None,
                Injected::Error(StatusCode::SERVICE_UNAVAILABLE),
                Injected::Drop,
                Injected::Error(StatusCode::SERVICE_UNAVAILABLE),
                Injected::None,
                Injected::Drop,
            ]
        );
        assert!(parse_request("{\"nope\":1}").is_err());
        assert!(parse_request("{\"errorStatus\":404}").is_err());
        assert!(parse_request("[1]").is_err());
        assert!(parse_request("").is_ok());
        assert!(parse_request(r#"{"failNext":[{"operation":"attach","status":404}]}"#).is_err());
        let none = FaultState::default();
        for _ in 0..10 {
            let p = none.next("getStack");
            assert_eq!(p.inject, Injected::None);
            assert!(!p.rotate_csrf && !p.expire_sessions);
        }
    }
}

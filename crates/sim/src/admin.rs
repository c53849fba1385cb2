//! The simulator-only admin API under `/sim/` (same port, not logged; open unless
//! [`crate::SimConfig::admin_token`] is set, then only with that token):
//!
//! * `GET /sim/state`: JSON with the stopped debuggees (position, phase, attaching context),
//!   listeners, breakpoints per user and open stateful contexts;
//! * `GET /sim/requests`: the request log as JSON; `DELETE /sim/requests` clears it;
//! * `GET /sim/faults`, `PUT /sim/faults` (JSON), `DELETE /sim/faults`: fault injection
//!   (see `faults.rs`).

use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::faults;
use crate::state::Shared;

/// `PUT /sim/faults`: replace the faults (restarting the request count) and run the one-shot
/// actions.
fn put_faults(shared: &Shared, body: &str) -> Response {
    let req = match faults::parse_request(body) {
        Ok(r) => r,
        Err(e) => return faults::bad_request(&e),
    };
    shared.listeners.remove_foreign();
    for user in &req.faults.foreign_listeners {
        shared.listeners.register_foreign(user);
    }
    shared.faults.set(req.faults);
    if req.rotate_csrf_now {
        shared.sessions.rotate_csrf();
    }
    if req.expire_sessions_now {
        shared.sessions.expire_all();
    }
    if req.delete_listeners_now {
        shared.listeners.remove_all();
    }
    if req.delete_breakpoints_now {
        shared.breakpoints.remove_all_external();
    }
    // Displaced polls re-check their registration.
    shared.notify();
    json_response(&faults::faults_json(&shared.faults))
}

fn json_response(v: &Value) -> Response {
    let mut r = (StatusCode::OK, v.to_string()).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

pub(crate) fn state_value(shared: &Shared) -> Value {
    let debuggees: Vec<Value> = shared
        .debuggees
        .snapshot()
        .into_iter()
        .map(|d| {
            json!({
                "id": d.id,
                "user": d.user,
                "phase": d.phase,
                "context": d.context,
                "position": d.location.map(|l| json!({
                    "object": l.object,
                    "program": l.program,
                    "include": l.include,
                    "line": l.line,
                    "includeLine": l.include_line,
                    "event": l.event_name,
                })),
            })
        })
        .collect();
    let listeners: Vec<Value> = shared
        .listeners
        .snapshot()
        .into_iter()
        .map(|(user, terminal, ide)| json!({"user": user, "terminalId": terminal, "ideId": ide}))
        .collect();
    let breakpoints: serde_json::Map<String, Value> = shared
        .breakpoints
        .snapshot()
        .into_iter()
        .map(|(owner, ids)| (owner, json!(ids)))
        .collect();
    let contexts: Vec<Value> = shared
        .sessions
        .contexts()
        .into_iter()
        .map(|c| {
            json!({
                "id": c.id,
                "user": c.user,
                "idleMs": c.idle.as_millis() as u64,
                "busy": c.busy,
                "debuggee": c.debuggee,
            })
        })
        .collect();
    json!({
        "debuggees": debuggees,
        "listeners": listeners,
        "breakpoints": breakpoints,
        "contexts": contexts,
    })
}

pub(crate) fn state_json(shared: &Shared) -> String {
    state_value(shared).to_string()
}

fn requests_value(shared: &Shared) -> Value {
    Value::Array(
        shared
            .request_log()
            .into_iter()
            .map(|l| {
                let (path, query) = match l.path.split_once('?') {
                    Some((p, q)) => (p.to_string(), q.to_string()),
                    None => (l.path.clone(), String::new()),
                };
                json!({
                    "method": l.method,
                    "path": path,
                    "query": query,
                    "status": l.status,
                    "session": l.session,
                    "context": l.context,
                    "sessionType": l.session_type,
                    "batchPart": l.batch_part,
                    "durationMs": l.duration.as_secs_f64() * 1000.0,
                })
            })
            .collect(),
    )
}

/// The header that carries [`crate::SimConfig::admin_token`].
pub(crate) const TOKEN_HEADER: &str = "x-sim-admin-token";

/// Whether the request may use the admin API: always without a configured token, else only
/// with that token (compared in constant time).
fn allowed(shared: &Shared, req: &axum::extract::Request) -> bool {
    let Some(expected) = &shared.config.admin_token else {
        return true;
    };
    let Some(sent) = req.headers().get(TOKEN_HEADER).map(HeaderValue::as_bytes) else {
        return false;
    };
    let expected = expected.as_bytes();
    sent.len() == expected.len()
        && sent
            .iter()
            .zip(expected)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

pub(crate) async fn handle(shared: &Shared, req: axum::extract::Request) -> Response {
    if !allowed(shared, &req) {
        return (
            StatusCode::FORBIDDEN,
            "the admin API of this simulator needs its token (X-Sim-Admin-Token)",
        )
            .into_response();
    }
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    if method == Method::PUT && path.trim_end_matches('/') == "/sim/faults" {
        let body = match axum::body::to_bytes(req.into_body(), 64 * 1024).await {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(_) => return faults::bad_request("body too large"),
        };
        return put_faults(shared, &body);
    }
    match (method.as_str(), path.trim_end_matches('/')) {
        ("GET", "/sim/faults") => json_response(&faults::faults_json(&shared.faults)),
        ("DELETE", "/sim/faults") => {
            shared.faults.set(faults::Faults::default());
            if shared.listeners.remove_foreign() {
                shared.notify();
            }
            StatusCode::NO_CONTENT.into_response()
        }
        ("GET", "/sim/state") => json_response(&state_value(shared)),
        ("GET", "/sim/requests") => json_response(&requests_value(shared)),
        ("DELETE", "/sim/requests") => {
            shared.clear_request_log();
            StatusCode::NO_CONTENT.into_response()
        }
        _ => (StatusCode::NOT_FOUND, "unknown admin resource").into_response(),
    }
}

//! The simulator-only admin API under `/sim/` (same port, no authentication, not logged):
//!
//! * `GET /sim/state`: JSON with the stopped debuggees (position, phase, attaching context),
//!   listeners, breakpoints per user and open stateful contexts;
//! * `GET /sim/requests`: the request log as JSON; `DELETE /sim/requests` clears it.

use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::state::Shared;

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

pub(crate) fn handle(shared: &Shared, method: &Method, path: &str) -> Response {
    match (method.as_str(), path.trim_end_matches('/')) {
        ("GET", "/sim/state") => json_response(&state_value(shared)),
        ("GET", "/sim/requests") => json_response(&requests_value(shared)),
        ("DELETE", "/sim/requests") => {
            shared.clear_request_log();
            StatusCode::NO_CONTENT.into_response()
        }
        _ => (StatusCode::NOT_FOUND, "unknown admin resource").into_response(),
    }
}

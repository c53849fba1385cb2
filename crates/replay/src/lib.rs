//! Serves a cassette (crates/adt's `cassette.rs`) as an ADT system: every request is answered
//! from the recorded exchange that matches it, so a session recorded on a user's system, or
//! against the simulator, runs again here as a test.
//!
//! Matching: the method, the path, and the query parameters that matter (those that differ
//! from run to run — the terminal and IDE ids, the user, the long poll's timeout — are left
//! out). Among the exchanges with that key, the replay takes them in the order they were
//! recorded, preferring the recorded HTTP session the request belongs to: the replay hands
//! out the recorded cookies (placeholders, `REDACTED-cookie-3`), the client sends them back,
//! and a placeholder names the session that received it. A key whose exchanges are used up
//! answers its last one again when it is a read (GET, HEAD, `getStack`, …); a listener long
//! poll with nothing left waits (at most its `timeout`, bounded) and answers "nothing caught"
//! (200, empty) as a system does; any other request is unmatched: answered 404 with a text
//! saying so (it begins with [`UNMATCHED`]), reported on stderr and listed by
//! `GET /replay/unmatched`.
//!
//! Each answer waits as long as the recorded one took (bounded), so what raced on the system
//! (a run's answer, the listener's catch) comes in the same order here.
//!
//! Logon and CSRF: any credentials and any token are accepted. The logon probe
//! (`GET /sap/bc/adt/compatibility/graph`, which the client sends with `x-csrf-token: Fetch`)
//! and any other GET or HEAD asking for a token are answered from the cassette when it
//! recorded them (a recorded exchange always wins); when it did not, the replay answers as a
//! system does: 200 with the token [`CSRF_TOKEN`]. It sets no cookie: the client needs none
//! to log on, and takes its user context (`sap-contextid`) from the recorded answers that set
//! one. Such an answer is not unmatched. Nothing else is made up: discovery and every
//! debugger request come from the cassette or are unmatched.

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use adt::cassette::{Cassette, Exchange};
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// Query parameters that differ from run to run and do not choose the answer.
const VOLATILE: &[&str] = &[
    "terminalId",
    "ideId",
    "requestUser",
    "timeout",
    "sap-client",
    "sap-language",
];

/// How the 404 of an unmatched request begins (the method and target follow), so a client
/// can tell "the cassette did not record this" from a system's own 404.
pub const UNMATCHED: &str = "replay: no recorded exchange answers";

/// The token a replay hands out when the cassette recorded no CSRF fetch to answer with.
pub const CSRF_TOKEN: &str = "REPLAY-csrf";

/// Where the client logs on (it fetches its CSRF token there).
const LOGON_PATH: &str = "/sap/bc/adt/compatibility/graph";

/// Longest a replayed answer waits to keep the recorded timing.
const MAX_DELAY: Duration = Duration::from_secs(30);

/// Longest a listener poll with nothing left to replay waits.
const MAX_IDLE_POLL: Duration = Duration::from_secs(10);

/// What a request is matched by.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Key {
    method: String,
    path: String,
    query: String,
}

fn key(method: &str, path: &str, query: &str) -> Key {
    let mut pairs: Vec<(String, String)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            let d = |s: &str| {
                percent_encoding::percent_decode_str(s)
                    .decode_utf8_lossy()
                    .into_owned()
            };
            (d(k), d(v))
        })
        .filter(|(k, _)| !VOLATILE.iter().any(|v| v.eq_ignore_ascii_case(k)))
        .collect();
    pairs.sort();
    Key {
        method: method.to_ascii_uppercase(),
        path: path.trim_end_matches('/').to_ascii_lowercase(),
        query: pairs
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&"),
    }
}

/// A request nothing in the cassette answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmatched {
    pub method: String,
    pub target: String,
}

impl Unmatched {
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"method": self.method, "target": self.target})
    }
}

#[derive(Debug, Default)]
struct Tape {
    exchanges: Vec<Exchange>,
    /// Per key, the exchanges' indices in recorded order.
    by_key: HashMap<Key, Vec<usize>>,
    used: Vec<bool>,
    /// The last exchange answered per key (for reads asked again).
    last: HashMap<Key, usize>,
    /// Cookie placeholder → the recorded session that received it.
    cookie_session: HashMap<String, String>,
    unmatched: Vec<Unmatched>,
}

impl Tape {
    fn new(cassette: Cassette) -> Tape {
        let mut tape = Tape {
            used: vec![false; cassette.exchanges.len()],
            ..Tape::default()
        };
        for (i, e) in cassette.exchanges.iter().enumerate() {
            tape.by_key
                .entry(key(&e.method, &e.path, &e.query))
                .or_default()
                .push(i);
            if let Some(set) = e.response_headers.get("set-cookie") {
                for line in set.lines() {
                    if let Some(value) = cookie_value(line) {
                        tape.cookie_session
                            .entry(value.to_string())
                            .or_insert_with(|| e.session.clone());
                    }
                }
            }
        }
        tape.exchanges = cassette.exchanges;
        tape
    }

    /// The recorded sessions the request's cookies name.
    fn sessions_of(&self, headers: &HeaderMap) -> Vec<String> {
        let mut out = Vec::new();
        for v in headers.get_all(axum::http::header::COOKIE) {
            let Ok(text) = v.to_str() else { continue };
            for pair in text.split(';') {
                if let Some((_, value)) = pair.trim().split_once('=')
                    && let Some(s) = self.cookie_session.get(value)
                    && !out.contains(s)
                {
                    out.push(s.clone());
                }
            }
        }
        out
    }

    /// The exchange that answers this request, and whether it is a fresh one.
    fn answer(&mut self, k: &Key, sessions: &[String]) -> Option<usize> {
        let candidates = self.by_key.get(k)?;
        let fresh = |i: &&usize| !self.used[**i];
        // The request's own session first (the stateful session a debuggee is attached in),
        // else the first one recorded.
        let pick = candidates
            .iter()
            .filter(fresh)
            .find(|i| sessions.contains(&self.exchanges[**i].session))
            .or_else(|| candidates.iter().find(fresh))
            .copied();
        if let Some(i) = pick {
            self.used[i] = true;
            self.last.insert(k.clone(), i);
            return Some(i);
        }
        if is_read(k) {
            return self
                .last
                .get(k)
                .copied()
                .or_else(|| candidates.last().copied());
        }
        None
    }
}

fn cookie_value(set_cookie: &str) -> Option<&str> {
    let pair = set_cookie.split(';').next()?.trim();
    let (_, value) = pair.split_once('=')?;
    (!value.is_empty()).then_some(value)
}

/// Requests that may be answered again: they change nothing.
fn is_read(k: &Key) -> bool {
    matches!(k.method.as_str(), "GET" | "HEAD")
        || k.query.contains("method=getStack")
        || k.query.contains("method=getChildVariables")
        || k.query.contains("method=getVariables")
}

/// A logon probe or CSRF fetch: the replay answers it itself when nothing recorded does.
fn is_token_fetch(method: &Method, path: &str, headers: &HeaderMap) -> bool {
    if !matches!(*method, Method::GET | Method::HEAD) {
        return false;
    }
    let asks = headers.get_all("x-csrf-token").iter().any(|v| {
        v.to_str()
            .is_ok_and(|v| v.trim().eq_ignore_ascii_case("fetch"))
    });
    asks || path.trim_end_matches('/').eq_ignore_ascii_case(LOGON_PATH)
}

/// What a system answers a logon or CSRF fetch: 200 with a token.
fn token_answer() -> Response {
    (
        StatusCode::OK,
        [
            ("x-csrf-token", CSRF_TOKEN),
            ("content-type", "application/xml; charset=utf-8"),
        ],
        "",
    )
        .into_response()
}

fn is_listener_poll(k: &Key) -> bool {
    k.method == "POST" && k.path.ends_with("/debugger/listeners")
}

/// A replay being served.
pub struct Replay {
    addr: SocketAddr,
    tape: Arc<Mutex<Tape>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

/// Why a replay could not start.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    Cassette(#[from] adt::cassette::CassetteError),
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
}

impl Replay {
    /// Serves `cassette` on `listen` (port 0: any free port).
    pub async fn start(cassette: Cassette, listen: SocketAddr) -> Result<Replay, ReplayError> {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|source| ReplayError::Listen {
                addr: listen,
                source,
            })?;
        let addr = listener
            .local_addr()
            .map_err(|source| ReplayError::Listen {
                addr: listen,
                source,
            })?;
        let tape = Arc::new(Mutex::new(Tape::new(cassette)));
        let app = Router::new()
            .route("/replay/unmatched", get(unmatched))
            .route("/replay/left", get(left))
            .fallback(handle)
            .with_state(tape.clone());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let served = axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = stopped.await;
                })
                .await;
            if let Err(e) = served {
                tracing::warn!("replay server ended: {e}");
            }
        });
        Ok(Replay {
            addr,
            tape,
            stop: Some(stop),
            task,
        })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The requests nothing answered so far.
    pub fn unmatched(&self) -> Vec<Unmatched> {
        lock(&self.tape).unmatched.clone()
    }

    /// Recorded exchanges not replayed yet (method and target).
    pub fn left(&self) -> Vec<Unmatched> {
        left_of(&lock(&self.tape))
    }

    /// Stops serving.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
    }
}

fn lock(tape: &Mutex<Tape>) -> std::sync::MutexGuard<'_, Tape> {
    tape.lock().unwrap_or_else(|p| p.into_inner())
}

fn left_of(tape: &Tape) -> Vec<Unmatched> {
    tape.exchanges
        .iter()
        .zip(&tape.used)
        .filter(|(_, used)| !**used)
        .map(|(e, _)| Unmatched {
            method: e.method.clone(),
            target: target_of(e),
        })
        .collect()
}

fn target_of(e: &Exchange) -> String {
    if e.query.is_empty() {
        e.path.clone()
    } else {
        format!("{}?{}", e.path, e.query)
    }
}

fn list_json(list: &[Unmatched]) -> String {
    serde_json::Value::Array(list.iter().map(Unmatched::to_json).collect()).to_string()
}

async fn unmatched(State(tape): State<Arc<Mutex<Tape>>>) -> Response {
    let body = list_json(&lock(&tape).unmatched);
    ([("content-type", "application/json")], body).into_response()
}

async fn left(State(tape): State<Arc<Mutex<Tape>>>) -> Response {
    let body = list_json(&left_of(&lock(&tape)));
    ([("content-type", "application/json")], body).into_response()
}

async fn handle(
    State(tape): State<Arc<Mutex<Tape>>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    _body: Bytes,
) -> Response {
    let path = uri.path().to_string();
    let query = uri.query().unwrap_or("").to_string();
    let k = key(method.as_str(), &path, &query);
    let picked = {
        let mut t = lock(&tape);
        let sessions = t.sessions_of(&headers);
        match t.answer(&k, &sessions) {
            Some(i) => Some(t.exchanges[i].clone()),
            None if is_token_fetch(&method, &path, &headers) => {
                tracing::debug!("replay: answered {method} {uri} with a token of its own");
                return token_answer();
            }
            None => {
                if !is_listener_poll(&k) {
                    let target = uri.to_string();
                    eprintln!("replay: unmatched {method} {target}");
                    t.unmatched.push(Unmatched {
                        method: method.to_string(),
                        target,
                    });
                }
                None
            }
        }
    };
    let Some(e) = picked else {
        if is_listener_poll(&k) {
            // Nothing left to catch: the poll ends as a system's does, with nothing.
            let asked = query_param(&query, "timeout")
                .and_then(|t| t.parse::<u64>().ok())
                .map(Duration::from_secs)
                .unwrap_or(MAX_IDLE_POLL);
            tokio::time::sleep(asked.min(MAX_IDLE_POLL)).await;
            return StatusCode::OK.into_response();
        }
        return (StatusCode::NOT_FOUND, format!("{UNMATCHED} {method} {uri}")).into_response();
    };
    tokio::time::sleep(Duration::from_millis(e.duration_ms).min(MAX_DELAY)).await;
    respond(&e)
}

fn query_param(query: &str, name: &str) -> Option<String> {
    query.split('&').find_map(|p| {
        let (k, v) = p.split_once('=')?;
        (k == name).then(|| v.to_string())
    })
}

/// The recorded answer: status, headers (but those the server computes), body.
fn respond(e: &Exchange) -> Response {
    let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, e.response_body.bytes()).into_response();
    let headers = response.headers_mut();
    for (name, value) in &e.response_headers {
        if matches!(
            name.as_str(),
            "content-length" | "transfer-encoding" | "connection" | "date" | "keep-alive"
        ) {
            continue;
        }
        let Ok(name) = HeaderName::from_bytes(name.as_bytes()) else {
            continue;
        };
        // The recorded lines replace what the framework put there (its content type).
        headers.remove(&name);
        for line in value.lines() {
            if let Ok(v) = HeaderValue::from_str(line) {
                headers.append(name.clone(), v);
            }
        }
    }
    response
}

/// Collects what a set of keys looks like, for diagnostics in tests.
pub fn keys_of(cassette: &Cassette) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for e in &cassette.exchanges {
        let k = key(&e.method, &e.path, &e.query);
        *out.entry(format!("{} {}?{}", k.method, k.path, k.query))
            .or_default() += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_leave_out_what_differs_from_run_to_run() {
        let a = key(
            "post",
            "/sap/bc/adt/debugger/listeners",
            "debuggingMode=user&requestUser=DEV&terminalId=A&ideId=B&timeout=60",
        );
        let b = key(
            "POST",
            "/sap/bc/adt/debugger/listeners/",
            "timeout=2&ideId=C&terminalId=D&debuggingMode=user",
        );
        assert_eq!(a, b);
        let c = key("POST", "/sap/bc/adt/debugger", "method=getStack");
        let d = key("POST", "/sap/bc/adt/debugger", "method=stepOver");
        assert_ne!(c, d);
        assert!(is_read(&c) && !is_read(&d));
    }

    /// What doctor tells a replay's 404 by: the body begins with `UNMATCHED`, then the request.
    #[tokio::test]
    async fn an_unmatched_request_is_a_404_that_says_so() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let cassette = Cassette::parse(
            r#"{"format":"abapdbg-cassette/1","base_url":"http://sys.invalid","started":0,"users_redacted":false}"#,
        )
        .expect("a cassette with no exchange");
        let replay = Replay::start(cassette, ([127, 0, 0, 1], 0).into())
            .await
            .expect("the replay");
        let host = replay.base_url().trim_start_matches("http://").to_string();
        let mut stream = tokio::net::TcpStream::connect(&host)
            .await
            .expect("connect");
        stream
            .write_all(
                format!("GET /sap/bc/adt/discovery HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
            )
            .await
            .expect("send");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.expect("read");
        assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
        let body = answer
            .split_once("\r\n\r\n")
            .map(|(_, b)| b)
            .unwrap_or_default();
        assert_eq!(
            body,
            format!("{UNMATCHED} GET /sap/bc/adt/discovery"),
            "{answer}"
        );
        assert_eq!(replay.unmatched().len(), 1);
        replay.shutdown().await;
    }
}

//! The HTTP front: one handler that authenticates, checks CSRF, resolves the stateful context,
//! serialises the context's requests, routes, and logs.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use percent_encoding::percent_decode_str;

use crate::auth::{self, CONTEXT_COOKIE, Csrf};
use crate::breakpoints;
use crate::classrun;
use crate::debuggee::Command;
use crate::debugger;
use crate::errors;
use crate::faults::{ConnTag, Injected};
use crate::listener;
use crate::sessions::{Context, DebugSession};
use crate::state::Shared;
use crate::watchpoints;
use crate::{LoggedRequest, SimConfig};

/// Largest request body read.
const MAX_BODY: usize = 4 * 1024 * 1024;

pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
    stop: tokio::sync::oneshot::Receiver<()>,
) {
    crate::sessions::spawn_reaper(shared.clone());
    let listener = crate::faults::FaultListener {
        listener,
        slots: shared.connection_slots.clone(),
        idle_limit: shared.config.idle_connection_timeout,
    };
    let app = Router::new().fallback(handle).with_state(shared);
    let result = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<ConnTag>(),
    )
    .with_graceful_shutdown(async move {
        let _ = stop.await;
    })
    .await;
    if let Err(e) = result {
        tracing::warn!("simulator server ended: {e}");
    }
}

/// Decoded query parameters (`+` kept literally; ADT clients percent-encode).
pub(crate) fn parse_query(query: Option<&str>) -> Vec<(String, String)> {
    query
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (
                percent_decode_str(k).decode_utf8_lossy().into_owned(),
                percent_decode_str(v).decode_utf8_lossy().into_owned(),
            )
        })
        .collect()
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(conn): ConnectInfo<ConnTag>,
    req: Request<Body>,
) -> Response {
    let _busy = conn.busy();
    let started = std::time::Instant::now();
    let method = req.method().clone();
    let target = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| req.uri().path().to_string());
    if req.uri().path() == "/sim" || req.uri().path().starts_with("/sim/") {
        // The admin API is not logged (tests read the log through it).
        return crate::admin::handle(&shared, req).await;
    }
    let session_type = auth::header_str(req.headers(), "x-sap-adt-sessiontype")
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let mut ids = RequestIds::default();
    let operation =
        crate::faults::operation_name(method.as_str(), req.uri().path(), req.uri().query());
    let plan = shared.faults.next(&operation);
    if !plan.latency.is_zero() {
        tokio::time::sleep(plan.latency).await;
    }
    if plan.rotate_csrf {
        shared.sessions.rotate_csrf();
    }
    if plan.expire_sessions {
        shared.sessions.expire_all();
    }
    let response = match plan.inject {
        Injected::None => process(&shared, req, &mut ids).await,
        Injected::Drop => {
            // The answer is never written: the connection fails its next write and closes.
            conn.kill();
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
        Injected::Icm => crate::faults::icm_page(),
        Injected::Error(status) => crate::faults::server_error(status),
    };
    let status = if plan.inject == Injected::Drop {
        0
    } else {
        response.status().as_u16()
    };
    tracing::debug!("{method} {target} -> {status} in {:?}", started.elapsed());
    shared.log_request(LoggedRequest {
        method: method.to_string(),
        path: target,
        status,
        session: ids.session,
        context: ids.context,
        session_type,
        batch_part: None,
        duration: started.elapsed(),
    });
    response
}

/// Who a request belonged to (filled while it is processed).
#[derive(Default)]
struct RequestIds {
    session: Option<String>,
    context: Option<String>,
}

fn set_cookie(resp: &mut Response, value: String) {
    if let Ok(v) = HeaderValue::from_str(&value) {
        resp.headers_mut().append(header::SET_COOKIE, v);
    }
}

async fn process(shared: &Arc<Shared>, req: Request<Body>, ids: &mut RequestIds) -> Response {
    let (parts, body) = req.into_parts();
    let query = parse_query(parts.uri.query());
    let headers = &parts.headers;
    let cookies = auth::cookies(headers);
    let query_client = query
        .iter()
        .find(|(k, _)| k == "sap-client")
        .map(|(_, v)| v.as_str());
    let identity = match auth::authenticate(shared, headers, query_client, &cookies) {
        Ok(i) => i,
        Err(r) => return r.into_response(),
    };
    ids.session = Some(identity.session.id.clone());
    let config: &SimConfig = &shared.config;
    let mut extra_cookies: Vec<String> = Vec::new();
    if identity.new_session {
        extra_cookies.push(format!(
            "{}={}; path=/; HttpOnly",
            auth::security_cookie_name(&config.client),
            identity.session.id
        ));
        extra_cookies.push(format!(
            "sap-usercontext=sap-client={}; path=/",
            config.client
        ));
    }
    let finish = |mut resp: Response, cookies: &[String], csrf: Option<&str>| {
        for c in cookies {
            set_cookie(&mut resp, c.clone());
        }
        if let Some(token) = csrf
            && let Ok(v) = HeaderValue::from_str(token)
        {
            resp.headers_mut().insert("x-csrf-token", v);
        }
        resp.headers_mut()
            .insert("sap-server", HeaderValue::from_static("true"));
        resp
    };
    let csrf = match auth::check_csrf(&parts.method, headers, &identity.session) {
        Ok(Csrf::Fetch) => Some(identity.session.csrf_token.clone()),
        Ok(Csrf::Pass) => None,
        Err(r) => return finish(r.into_response(), &extra_cookies, None),
    };
    let user = identity.session.user.clone();

    // Stateful context.
    let session_type = auth::header_str(headers, "x-sap-adt-sessiontype")
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let existing =
        auth::cookie(&cookies, CONTEXT_COOKIE).and_then(|id| shared.sessions.context(id, &user));
    let context: Option<Arc<Context>> = match (session_type.as_str(), existing) {
        ("stateless", Some(ctx)) => {
            end_context(shared, &ctx, true);
            extra_cookies.push(format!(
                "{CONTEXT_COOKIE}=; path=/sap/bc/adt; expires=Thu, 01 Jan 1970 00:00:00 GMT"
            ));
            None
        }
        (_, Some(ctx)) => Some(ctx),
        ("stateful", None) => {
            let ctx = shared.sessions.new_context(&user);
            extra_cookies.push(format!("{CONTEXT_COOKIE}={}; path=/sap/bc/adt", ctx.id));
            Some(ctx)
        }
        _ => None,
    };
    ids.context = context.as_ref().map(|c| c.id.clone());

    let body = match axum::body::to_bytes(body, MAX_BODY).await {
        // Taken as the UTF-8 text it should be; only a body that is not is decoded lossily
        // (character by character).
        Ok(b) => String::from_utf8(Vec::from(b))
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        Err(_) => {
            let r = (StatusCode::PAYLOAD_TOO_LARGE, "request body too large").into_response();
            return finish(r, &extra_cookies, csrf.as_deref());
        }
    };

    // Requests of one stateful context run one at a time.
    let mut scratch = DebugSession::default();
    let mut guard = match &context {
        Some(ctx) => Some(ctx.debug.clone().lock_owned().await),
        None => None,
    };
    let dbg: &mut DebugSession = match guard.as_deref_mut() {
        Some(d) => d,
        None => &mut scratch,
    };
    if let Some(ctx) = &context {
        ctx.touch();
    }
    let path = parts.uri.path();
    let resp = if parts.method == Method::POST && path.trim_end_matches('/') == BATCH {
        let ct = auth::header_str(headers, "content-type").unwrap_or("");
        crate::batch::run(
            shared,
            ct,
            &body,
            &crate::batch::Outer {
                user: &user,
                session: &identity.session.id,
                session_type: &session_type,
            },
            context.as_ref(),
            dbg,
        )
        .await
    } else {
        route(
            shared,
            &parts.method,
            path,
            &query,
            headers,
            &body,
            &user,
            context.as_ref(),
            dbg,
        )
        .await
    };
    let lost = std::mem::take(&mut dbg.lost);
    drop(guard);
    if let Some(ctx) = &context {
        ctx.touch();
        if lost {
            // The request destroyed its stateful session (§9.8).
            end_context(shared, ctx, true);
        }
    }
    if parts.method == Method::HEAD {
        let (p, _) = resp.into_parts();
        return finish(
            Response::from_parts(p, Body::empty()),
            &extra_cookies,
            csrf.as_deref(),
        );
    }
    if path == "/sap/public/bc/icf/logoff" {
        shared.sessions.end_security(&identity.session.id);
    }
    finish(resp, &extra_cookies, csrf.as_deref())
}

/// The context ends (a stateless request, or a request that destroyed it): when `release`,
/// its debuggee runs on, detached.
pub(crate) fn end_context(shared: &Shared, ctx: &Arc<Context>, release: bool) {
    shared.sessions.remove_context(&ctx.id);
    if !release {
        return;
    }
    if let Ok(mut dbg) = ctx.debug.try_lock() {
        if let Some(attached) = dbg.attached.take() {
            attached.entry.send(Command::Release);
        }
    } else {
        // A request of the context is still running (e.g. a blocking step); release when it
        // is done.
        let debug = ctx.debug.clone();
        tokio::spawn(async move {
            let mut dbg = debug.lock().await;
            if let Some(attached) = dbg.attached.take() {
                attached.entry.send(Command::Release);
            }
        });
    }
}

const DEBUGGER: &str = "/sap/bc/adt/debugger";
const BATCH: &str = "/sap/bc/adt/debugger/batch";

fn xml_text(body: impl IntoResponse) -> Response {
    let mut r = (StatusCode::OK, body).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/xml; charset=utf-8"),
    );
    r
}

const GRAPH: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?><compatibility:graph xmlns:compatibility=\"http://www.sap.com/adt/compatibility\"/>";

const MESSAGE_TYPES: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?><nameditem:namedItemList xmlns:nameditem=\"http://www.sap.com/adt/nameditem\"><nameditem:totalItemCount>6</nameditem:totalItemCount><nameditem:namedItem><nameditem:name>A</nameditem:name><nameditem:description>Termination</nameditem:description></nameditem:namedItem><nameditem:namedItem><nameditem:name>E</nameditem:name><nameditem:description>Error</nameditem:description></nameditem:namedItem><nameditem:namedItem><nameditem:name>I</nameditem:name><nameditem:description>Information</nameditem:description></nameditem:namedItem><nameditem:namedItem><nameditem:name>S</nameditem:name><nameditem:description>Status</nameditem:description></nameditem:namedItem><nameditem:namedItem><nameditem:name>W</nameditem:name><nameditem:description>Warning</nameditem:description></nameditem:namedItem><nameditem:namedItem><nameditem:name>X</nameditem:name><nameditem:description>Exit</nameditem:description></nameditem:namedItem></nameditem:namedItemList>";

#[allow(clippy::too_many_arguments)]
pub(crate) async fn route(
    shared: &Arc<Shared>,
    method: &Method,
    path: &str,
    query: &[(String, String)],
    headers: &HeaderMap,
    body: &str,
    user: &str,
    context: Option<&Arc<Context>>,
    dbg: &mut DebugSession,
) -> Response {
    let path = if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    };
    if let Err(e) = crate::accept::check(method, path, query, headers) {
        return e.into_response();
    }
    let get = *method == Method::GET || *method == Method::HEAD;
    match path {
        "/sap/bc/adt/discovery" | "/sap/bc/adt/core/discovery" if get => xml_text(
            crate::discovery::document(&shared.faults.get().0.discovery_without),
        ),
        "/sap/bc/adt/system/components" if get => crate::discovery::components(),
        "/sap/bc/adt/compatibility/graph" if get => xml_text(GRAPH),
        "/sap/public/bc/icf/logoff" if get => StatusCode::OK.into_response(),
        "/sap/bc/adt/debugger/breakpoints/messagetypes" if get => xml_text(MESSAGE_TYPES),
        "/sap/bc/adt/debugger/breakpoints/statements" if get => breakpoints::statements(),
        "/sap/bc/adt/debugger/breakpoints/validations" if get => StatusCode::OK.into_response(),
        "/sap/bc/adt/debugger/breakpoints" => match *method {
            Method::POST => breakpoints::set(shared, user, body, dbg),
            Method::GET | Method::HEAD => StatusCode::OK.into_response(),
            _ => method_not_allowed(),
        },
        "/sap/bc/adt/debugger/listeners" => match *method {
            Method::POST => listener::listen(shared.clone(), user, query).await,
            Method::GET | Method::HEAD => listener::check(shared, user, query),
            Method::DELETE => listener::stop(shared, user, query),
            _ => method_not_allowed(),
        },
        DEBUGGER => match *method {
            Method::POST => debugger::dispatch(shared, context, dbg, query, body).await,
            _ => method_not_allowed(),
        },
        "/sap/bc/adt/debugger/stack" => match *method {
            Method::GET | Method::HEAD => debugger::get_stack(dbg).await,
            _ => errors::AdtError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "ExceptionMethodNotSupported",
                "Resource controller does not support method POST",
            )
            .into_response(),
        },
        "/sap/bc/adt/debugger/watchpoints" => match *method {
            Method::POST => watchpoints::create(dbg, query).await,
            Method::GET | Method::HEAD => watchpoints::list(dbg, None),
            _ => method_not_allowed(),
        },
        "/sap/bc/adt/debugger/memorysizes" if get => debugger::memory_sizes(dbg),
        "/sap/bc/adt/runtime/dumps" if get => crate::dumps::feed(shared, query),
        crate::search::PATH if get => crate::search::quick_search(shared, query),
        "/sap/bc/adt/debugger/actions" if *method == Method::POST => debugger::action(dbg, query),
        "/sap/bc/adt/abapunit/testruns" if *method == Method::POST => {
            classrun::unit_tests(shared.clone(), user, body).await
        }
        _ => {
            if let Some(id) = path.strip_prefix("/sap/bc/adt/debugger/breakpoints/")
                && *method == Method::DELETE
            {
                let id = percent_decode_str(id).decode_utf8_lossy().into_owned();
                return breakpoints::delete(shared, user, &id, query, dbg);
            }
            if let Some(pos) = path.strip_prefix("/sap/bc/adt/debugger/stack/type/ABAP/position/")
                && *method == Method::PUT
            {
                return debugger::switch_frame(dbg, pos).await;
            }
            if let Some(id) = path.strip_prefix("/sap/bc/adt/debugger/watchpoints/") {
                return match *method {
                    Method::GET | Method::HEAD => watchpoints::list(dbg, Some(id)),
                    Method::PUT => watchpoints::modify(dbg, id, query),
                    Method::DELETE => watchpoints::delete(dbg, id),
                    _ => method_not_allowed(),
                };
            }
            if let Some(rest) = path.strip_prefix("/sap/bc/adt/runtime/dump/")
                && get
            {
                return crate::dumps::resource(shared, rest);
            }
            if path.starts_with("/sap/bc/adt/debugger/variables/") {
                return debugger::variables_resource(dbg, path);
            }
            if let Some(class) = path.strip_prefix("/sap/bc/adt/oo/classrun/")
                && *method == Method::POST
                && !class.is_empty()
                && !class.contains('/')
            {
                return classrun::run(shared.clone(), user, class).await;
            }
            if let Some(program) = path.strip_prefix("/sap/bc/adt/abapdbg/reportrun/")
                && *method == Method::POST
                && !program.is_empty()
                && !program.contains('/')
            {
                return classrun::report(shared.clone(), user, program).await;
            }
            if get
                && (((path.starts_with("/sap/bc/adt/oo/")
                    || path.starts_with("/sap/bc/adt/programs/programs/"))
                    && (path.ends_with("/source/main") || path.contains("/includes/")))
                    || (path.starts_with("/sap/bc/adt/functions/groups/")
                        && path.ends_with("/source/main")))
            {
                return classrun::source(shared, path);
            }
            errors::not_found(format!("Resource {path} does not exist.")).into_response()
        }
    }
}

fn method_not_allowed() -> Response {
    errors::AdtError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "ExceptionMethodNotSupported",
        "Method not supported",
    )
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn query() {
        let q = parse_query(Some("method=attach&debuggeeId=AB%3DC&x&=y&a+b=1"));
        assert_eq!(q[0], ("method".into(), "attach".into()));
        assert_eq!(q[1], ("debuggeeId".into(), "AB=C".into()));
        assert_eq!(q[2], ("x".into(), "".into()));
        assert_eq!(q[4], ("a+b".into(), "1".into()));
        assert!(parse_query(None).is_empty());
    }

    proptest! {
        #[test]
        fn query_never_panics(s in ".{0,200}") {
            let _ = parse_query(Some(&s));
        }
    }
}

//! Basic authentication, security-session cookies and CSRF tokens (§1.1, §1.2).

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;

use crate::sessions::{SecurityLookup, SecuritySession};
use crate::state::Shared;

/// Cookie names.
pub(crate) fn security_cookie_name(client: &str) -> String {
    format!("SAP_SESSIONID_{}_{}", crate::state::SID, client)
}
pub(crate) const CONTEXT_COOKIE: &str = "sap-contextid";

/// All `name=value` pairs of the request's `Cookie` headers.
pub(crate) fn cookies(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| {
            let (k, v) = pair.split_once('=')?;
            Some((k.trim().to_string(), v.trim().trim_matches('"').to_string()))
        })
        .collect()
}

pub(crate) fn cookie<'a>(cookies: &'a [(String, String)], name: &str) -> Option<&'a str> {
    cookies
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// A header as text (`None` if absent or not visible ASCII).
pub(crate) fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// `Authorization: Basic …` → (user upper-cased, password). `Some(None)` = present but
/// unreadable.
fn basic_credentials(headers: &HeaderMap) -> Option<Option<(String, String)>> {
    let value = headers.get(header::AUTHORIZATION)?;
    let parsed = (|| {
        let text = value.to_str().ok()?.trim();
        let (scheme, rest) = text.split_once(' ')?;
        if !scheme.eq_ignore_ascii_case("basic") {
            return None;
        }
        let raw = base64::engine::general_purpose::STANDARD
            .decode(rest.trim())
            .ok()?;
        let text = String::from_utf8(raw).ok()?;
        let (user, pass) = text.split_once(':')?;
        Some((user.trim().to_uppercase(), pass.to_string()))
    })();
    Some(parsed)
}

/// Why a request is turned away before routing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reject {
    /// 401 with the Basic challenge.
    Unauthorized { client: String },
    /// 403 `CSRF token validation failed`.
    CsrfRequired,
    /// 400 with the status text `Session timed out`: the request's security session expired
    /// (adt-wire.md §13.2).
    SessionTimedOut,
}

impl IntoResponse for Reject {
    fn into_response(self) -> Response {
        match self {
            Reject::Unauthorized { client } => unauthorized(&client),
            Reject::CsrfRequired => csrf_required(),
            Reject::SessionTimedOut => session_timed_out(),
        }
    }
}

fn session_timed_out() -> Response {
    let mut r = (StatusCode::BAD_REQUEST, "Session timed out").into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    // The status text is what clients look at (HTTP/1.1 400 Session timed out).
    r.extensions_mut()
        .insert(hyper::ext::ReasonPhrase::from_static(b"Session timed out"));
    r
}

fn csrf_required() -> Response {
    let mut r = (StatusCode::FORBIDDEN, "CSRF token validation failed").into_response();
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
    r.headers_mut()
        .insert("x-csrf-token", HeaderValue::from_static("Required"));
    r
}

fn unauthorized(client: &str) -> Response {
    let mut r = (StatusCode::UNAUTHORIZED, "Logon failed").into_response();
    let realm = format!(
        "Basic realm=\"SAP NetWeaver Application Server [{}/{}]\"",
        crate::state::SID,
        client
    );
    if let Ok(v) = HeaderValue::from_str(&realm) {
        r.headers_mut().insert(header::WWW_AUTHENTICATE, v);
    }
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

/// Who sent the request.
pub(crate) struct Identity {
    pub session: SecuritySession,
    /// The session was created by this request (set its cookie).
    pub new_session: bool,
}

/// Authenticate: Basic credentials on the request, or a valid security-session cookie.
pub(crate) fn authenticate(
    shared: &Shared,
    headers: &HeaderMap,
    query_client: Option<&str>,
    cookies: &[(String, String)],
) -> Result<Identity, Reject> {
    let client = &shared.config.client;
    let deny = || Reject::Unauthorized {
        client: client.clone(),
    };
    let asked_client = query_client.or_else(|| header_str(headers, "sap-client"));
    if let Some(c) = asked_client
        && !c.trim().is_empty()
        && c.trim() != client
    {
        return Err(deny());
    }
    let timeout = shared.config.security_session_timeout;
    let existing = match cookie(cookies, &security_cookie_name(client))
        .map(|id| shared.sessions.security(id, timeout))
    {
        Some(SecurityLookup::Valid(s)) => Some(s),
        Some(SecurityLookup::Expired) => return Err(Reject::SessionTimedOut),
        Some(SecurityLookup::Unknown) | None => None,
    };
    match basic_credentials(headers) {
        Some(Some((user, pass))) => {
            let ok = shared
                .config
                .users
                .iter()
                .any(|(u, p)| u.eq_ignore_ascii_case(&user) && *p == pass);
            if !ok {
                return Err(deny());
            }
            match existing {
                Some(s) if s.user == user => Ok(Identity {
                    session: s,
                    new_session: false,
                }),
                _ => Ok(Identity {
                    session: shared.sessions.new_security(&user),
                    new_session: true,
                }),
            }
        }
        Some(None) => Err(deny()),
        None => match existing {
            Some(s) => Ok(Identity {
                session: s,
                new_session: false,
            }),
            None => Err(deny()),
        },
    }
}

/// What the CSRF check decided.
pub(crate) enum Csrf {
    /// Nothing to add.
    Pass,
    /// A fetch: answer with the token header.
    Fetch,
}

/// Modifying requests need the session's token; a GET/HEAD with `x-csrf-token: fetch` gets it.
pub(crate) fn check_csrf(
    method: &axum::http::Method,
    headers: &HeaderMap,
    session: &SecuritySession,
) -> Result<Csrf, Reject> {
    let sent = header_str(headers, "x-csrf-token").map(str::trim);
    let safe = matches!(
        *method,
        axum::http::Method::GET | axum::http::Method::HEAD | axum::http::Method::OPTIONS
    );
    if safe {
        return Ok(match sent {
            Some(t) if t.eq_ignore_ascii_case("fetch") => Csrf::Fetch,
            _ => Csrf::Pass,
        });
    }
    if sent == Some(session.csrf_token.as_str()) {
        return Ok(Csrf::Pass);
    }
    Err(Reject::CsrfRequired)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookie_parsing() {
        let mut h = HeaderMap::new();
        h.append(
            header::COOKIE,
            HeaderValue::from_static("a=1; b = 2 ;junk; c=\"3\""),
        );
        h.append(header::COOKIE, HeaderValue::from_static("a=4"));
        let c = cookies(&h);
        assert_eq!(cookie(&c, "a"), Some("4"));
        assert_eq!(cookie(&c, "b"), Some("2"));
        assert_eq!(cookie(&c, "c"), Some("3"));
        assert_eq!(cookie(&c, "junk"), None);
    }

    #[test]
    fn basic_parsing() {
        let mut h = HeaderMap::new();
        assert!(basic_credentials(&h).is_none());
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Basic ZGV2ZWxvcGVyOmFiYXA="),
        );
        assert_eq!(
            basic_credentials(&h),
            Some(Some(("DEVELOPER".into(), "abap".into())))
        );
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic !!!"));
        assert_eq!(basic_credentials(&h), Some(None));
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer x"));
        assert_eq!(basic_credentials(&h), Some(None));
    }
}

//! `POST /sap/bc/adt/debugger/batch` (§12): a `multipart/mixed` body of `application/http`
//! parts, each a complete inner HTTP request. The inner requests run in order on the outer
//! request's stateful session (its lock is already held); the answer is 202 `multipart/mixed`
//! with one `application/http` part per inner request. A part that cannot be read or fails
//! answers only for itself.

use std::sync::Arc;
use std::time::Instant;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::LoggedRequest;
use crate::errors;
use crate::ids;
use crate::pieces::Pieces;
use crate::sessions::{Context, DebugSession};
use crate::state::Shared;

/// Most parts accepted in one batch.
const MAX_PARTS: usize = 200;
/// Largest inner answer copied into the batch answer.
const MAX_INNER_BODY: usize = 16 * 1024 * 1024;

/// One inner request of a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InnerRequest {
    pub method: String,
    /// Path plus query, as written in the request line.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// Why a batch (or one of its parts) cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BatchError(pub String);

/// The `boundary` parameter of a `multipart/mixed` content type.
pub(crate) fn boundary(content_type: &str) -> Result<String, BatchError> {
    let mut items = content_type.split(';');
    let media = items.next().unwrap_or("").trim();
    if !media.eq_ignore_ascii_case("multipart/mixed") {
        return Err(BatchError(format!(
            "Content type {media} is not supported; expected multipart/mixed"
        )));
    }
    for item in items {
        if let Some((k, v)) = item.split_once('=')
            && k.trim().eq_ignore_ascii_case("boundary")
        {
            let b = v.trim().trim_matches('"');
            if b.is_empty() || b.len() > 200 {
                break;
            }
            return Ok(b.to_string());
        }
    }
    Err(BatchError("multipart/mixed without a boundary".into()))
}

/// Split a line-oriented block into (first line, rest) accepting CRLF or LF.
fn split_line(s: &str) -> (&str, &str) {
    match s.find('\n') {
        Some(i) => (s[..i].trim_end_matches('\r'), &s[i + 1..]),
        None => (s.trim_end_matches('\r'), ""),
    }
}

/// Header lines up to the first empty line; returns (headers, remainder).
fn headers_block(mut s: &str) -> (Vec<(String, String)>, &str) {
    let mut headers = Vec::new();
    loop {
        if s.is_empty() {
            return (headers, s);
        }
        let (line, rest) = split_line(s);
        s = rest;
        if line.is_empty() {
            return (headers, s);
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
}

/// The parts of a multipart body (each: its raw text without MIME framing). At most
/// [`MAX_PARTS`]; text before the first delimiter and after the closing one is ignored.
pub(crate) fn split_parts(body: &str, boundary: &str) -> Result<Vec<String>, BatchError> {
    let delimiter = format!("--{boundary}");
    let mut parts = Vec::new();
    let Some(first) = body.find(&delimiter) else {
        return Err(BatchError("no multipart delimiter found".into()));
    };
    let mut rest = &body[first + delimiter.len()..];
    loop {
        if rest.starts_with("--") {
            return Ok(parts);
        }
        // Transport padding up to the end of the delimiter line.
        let (_, after) = split_line(rest);
        let Some(next) = after.find(&delimiter) else {
            // No closing delimiter: take what is there.
            if !after.trim().is_empty() {
                parts.push(after.to_string());
            }
            return Ok(parts);
        };
        let mut content = &after[..next];
        // The CRLF before a delimiter belongs to the delimiter.
        content = content
            .strip_suffix("\r\n")
            .or_else(|| content.strip_suffix('\n'))
            .unwrap_or(content);
        parts.push(content.to_string());
        if parts.len() > MAX_PARTS {
            return Err(BatchError(format!("more than {MAX_PARTS} parts")));
        }
        rest = &after[next + delimiter.len()..];
    }
}

/// One part: MIME headers, blank line, inner HTTP request.
pub(crate) fn parse_part(part: &str) -> Result<InnerRequest, BatchError> {
    let (mime, http) = headers_block(part);
    if let Some((_, ct)) = mime
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        && !ct.to_ascii_lowercase().starts_with("application/http")
    {
        return Err(BatchError(format!(
            "part content type {ct} is not application/http"
        )));
    }
    let http = http.trim_start_matches(['\r', '\n']);
    let (request_line, rest) = split_line(http);
    let mut words = request_line.split_whitespace();
    let (Some(method), Some(target)) = (words.next(), words.next()) else {
        return Err(BatchError(format!("invalid request line '{request_line}'")));
    };
    if !method.bytes().all(|b| b.is_ascii_uppercase()) || method.len() > 10 {
        return Err(BatchError(format!("invalid method '{method}'")));
    }
    let (headers, body) = headers_block(rest);
    // Absolute form (`http://host/path`) → path.
    let target = match target.split_once("://") {
        Some((_, after)) => match after.find('/') {
            Some(i) => &after[i..],
            None => "/",
        },
        None => target,
    };
    let target = if target.starts_with('/') {
        target.to_string()
    } else {
        format!("/sap/bc/adt/{target}")
    };
    Ok(InnerRequest {
        method: method.to_string(),
        target,
        headers,
        body: body.to_string(),
    })
}

/// Who sent the outer request.
pub(crate) struct Outer<'a> {
    pub user: &'a str,
    pub session: &'a str,
    pub session_type: &'a str,
}

/// What comes before a part's answer: the delimiter (after the line end that closes the
/// part before), the part's MIME headers, and the answer's status line and headers.
fn part_head(
    out: &mut String,
    boundary: &str,
    status: StatusCode,
    headers: &HeaderMap,
    len: usize,
) {
    out.push_str("--");
    out.push_str(boundary);
    out.push_str("\r\nContent-Type: application/http\r\ncontent-transfer-encoding: binary\r\n\r\n");
    out.push_str("HTTP/1.1 ");
    out.push_str(status.as_str());
    out.push(' ');
    out.push_str(status.canonical_reason().unwrap_or(""));
    out.push_str("\r\n");
    if let Some(ct) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    {
        out.push_str("content-type: ");
        out.push_str(ct);
        out.push_str("\r\n");
    }
    out.push_str("content-length: ");
    out.push_str(&len.to_string());
    out.push_str("\r\n\r\n");
}

/// Run a batch.
pub(crate) async fn run(
    shared: &Arc<Shared>,
    content_type: &str,
    body: &str,
    outer: &Outer<'_>,
    context: Option<&Arc<Context>>,
    dbg: &mut DebugSession,
) -> Response {
    let parts = match boundary(content_type).and_then(|b| split_parts(body, &b)) {
        Ok(p) => p,
        Err(e) => return errors::invalid_data(e.0).into_response(),
    };
    let answer_boundary = format!("ejjeeffe{}", &ids::hex32()[..16].to_ascii_lowercase());
    let mut answers = Vec::with_capacity(parts.len());
    for (index, raw) in parts.iter().enumerate() {
        let started = Instant::now();
        let (status, headers, text, logged) = match parse_part(raw) {
            Err(e) => {
                let r = errors::invalid_data(e.0).into_response();
                let status = r.status();
                let headers = r.headers().clone();
                let text = body_text(r).await;
                (status, headers, text, None)
            }
            Ok(inner) => {
                let method = Method::from_bytes(inner.method.as_bytes()).unwrap_or(Method::GET);
                let (path, query) = match inner.target.split_once('?') {
                    Some((p, q)) => (p.to_string(), Some(q.to_string())),
                    None => (inner.target.clone(), None),
                };
                let query = crate::server::parse_query(query.as_deref());
                let mut hm = HeaderMap::new();
                for (k, v) in &inner.headers {
                    if let (Ok(k), Ok(v)) = (
                        HeaderName::from_bytes(k.as_bytes()),
                        HeaderValue::from_str(v),
                    ) {
                        hm.append(k, v);
                    }
                }
                let r = crate::server::route(
                    shared,
                    &method,
                    &path,
                    &query,
                    &hm,
                    &inner.body,
                    outer.user,
                    context,
                    dbg,
                )
                .await;
                let status = r.status();
                let headers = r.headers().clone();
                let text = body_text(r).await;
                (status, headers, text, Some((inner.method, inner.target)))
            }
        };
        let (method, path) = logged.unwrap_or_else(|| (String::new(), String::new()));
        shared.log_request(LoggedRequest {
            method,
            path,
            status: status.as_u16(),
            session: Some(outer.session.to_string()),
            context: context.map(|c| c.id.clone()),
            session_type: outer.session_type.to_string(),
            batch_part: Some(index),
            duration: started.elapsed(),
        });
        answers.push((status, headers, text));
    }
    // The parts' answers go out as they are, between the heads written here: a page of
    // table rows is a megabyte, not to be copied into one string.
    let mut body = Pieces::default();
    let mut head = String::new();
    for (status, headers, text) in answers {
        part_head(&mut head, &answer_boundary, status, &headers, text.len());
        body.push(std::mem::take(&mut head));
        body.push(text);
        head.push_str("\r\n");
    }
    head.push_str("--");
    head.push_str(&answer_boundary);
    head.push_str("--\r\n");
    body.push(head);
    let mut r = (StatusCode::ACCEPTED, Body::new(body)).into_response();
    if let Ok(v) = HeaderValue::from_str(&format!("multipart/mixed; boundary={answer_boundary}")) {
        r.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    r
}

/// Marks a response whose body was made from a `String`, so UTF-8 by its type: a batch takes
/// it as it is, without checking the megabyte of a page of table rows again. Set only where
/// the `String` becomes the body.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextBody;

/// The answer's body as it is: the answers are UTF-8 text (a page of table rows is a
/// megabyte, not copied; checked unless marked [`TextBody`]); anything else is converted
/// with replacement characters.
async fn body_text(r: Response) -> Bytes {
    let text = r.extensions().get::<TextBody>().is_some();
    match axum::body::to_bytes(r.into_body(), MAX_INNER_BODY).await {
        Ok(b) if text || std::str::from_utf8(&b).is_ok() => b,
        Ok(b) => Bytes::from(String::from_utf8_lossy(&b).into_owned()),
        Err(_) => Bytes::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const BODY: &str = "--batch_5b1d\r\nContent-Type: application/http\r\ncontent-transfer-encoding: binary\r\n\r\nPOST /sap/bc/adt/debugger?method=stepOver HTTP/1.1\r\nAccept:application/xml\r\n\r\n\r\n--batch_5b1d\r\nContent-Type: application/http\r\ncontent-transfer-encoding: binary\r\n\r\nPOST /sap/bc/adt/debugger?method=getChildVariables HTTP/1.1\r\nContent-Type:application/vnd.sap.as+xml\r\n\r\n<a/>\r\n--batch_5b1d--\r\n";

    #[test]
    fn parses_eclipse_shape() {
        let b = boundary("multipart/mixed; boundary=batch_5b1d").unwrap();
        let parts = split_parts(BODY, &b).unwrap();
        assert_eq!(parts.len(), 2);
        let p0 = parse_part(&parts[0]).unwrap();
        assert_eq!(p0.method, "POST");
        assert_eq!(p0.target, "/sap/bc/adt/debugger?method=stepOver");
        assert_eq!(
            p0.headers,
            vec![("Accept".into(), "application/xml".into())]
        );
        assert_eq!(p0.body, "");
        let p1 = parse_part(&parts[1]).unwrap();
        assert_eq!(p1.body, "<a/>");
        assert!(boundary("text/plain").is_err());
        assert!(boundary("multipart/mixed").is_err());
        assert_eq!(
            boundary("Multipart/Mixed; charset=x; boundary=\"q q\"").unwrap(),
            "q q"
        );
    }

    #[test]
    fn lf_only_and_relative_targets() {
        let body = "--b\nContent-Type: application/http\n\nGET debugger/stack?method=getStack HTTP/1.1\n\n--b--";
        let parts = split_parts(body, "b").unwrap();
        let p = parse_part(&parts[0]).unwrap();
        assert_eq!(p.target, "/sap/bc/adt/debugger/stack?method=getStack");
        assert!(parse_part("Content-Type: text/plain\r\n\r\nGET / HTTP/1.1").is_err());
        assert!(parse_part("\r\n\r\n").is_err());
    }

    #[tokio::test]
    async fn answers_are_taken_as_text_and_other_bytes_converted() {
        let marked = crate::variables::asx_response(Some("<a>é</a>".into()), "X");
        assert_eq!(&body_text(marked).await[..], "<a>é</a>".as_bytes());
        let unmarked = (StatusCode::OK, "<b>ü</b>").into_response();
        assert_eq!(&body_text(unmarked).await[..], "<b>ü</b>".as_bytes());
        let bytes = (StatusCode::OK, vec![b'a', 0xFF, b'b']).into_response();
        assert_eq!(&body_text(bytes).await[..], "a\u{FFFD}b".as_bytes());
    }

    proptest! {
        #[test]
        fn never_panics(body in ".{0,600}", b in "[a-z_]{1,8}") {
            if let Ok(parts) = split_parts(&body, &b) {
                for p in parts {
                    let _ = parse_part(&p);
                }
            }
            let _ = boundary(&body);
        }

        #[test]
        fn never_panics_on_multipartish(
            chunks in proptest::collection::vec(
                "(--b|--b--|\r\n|\n|Content-Type: application/http|GET /x HTTP/1.1|POST|:|[a-z ]{0,5})",
                0..40,
            )
        ) {
            let body: String = chunks.concat();
            if let Ok(parts) = split_parts(&body, "b") {
                for p in parts {
                    let _ = parse_part(&p);
                }
            }
        }
    }
}

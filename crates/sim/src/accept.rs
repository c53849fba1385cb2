//! Content negotiation (§1.4): a request whose `Accept` names only concrete types the resource
//! does not produce gets 406 `ExceptionResourceNotAcceptable`. No `Accept`, `*/*`, `type/*`
//! and the documented type of the resource always pass; parameters (`charset`, `dataname`) are
//! not compared. Resources without an entry here are not checked.

use axum::http::{HeaderMap, Method, StatusCode};

use crate::errors::AdtError;

const XML: &str = "application/xml";
const ASX: &str = "application/vnd.sap.as+xml";
const MEMORY: &str = "application/vnd.sap.adt.debugger.memory.sizes.v1+xml";

/// The media type a resource produces (`None`: not checked).
fn produces(method: &Method, path: &str, query: &[(String, String)]) -> Option<&'static str> {
    let dbg_method = query
        .iter()
        .find(|(k, _)| k == "method")
        .map(|(_, v)| v.as_str());
    let get = *method == Method::GET;
    match path {
        "/sap/bc/adt/debugger" if *method == Method::POST => match dbg_method? {
            "attach"
            | "getStack"
            | "setDebuggerSettings"
            | "stepInto"
            | "stepOver"
            | "stepReturn"
            | "stepContinue"
            | "stepRunToLine"
            | "stepJumpToLine"
            | "terminateDebuggee" => Some(XML),
            "getChildVariables" | "getVariables" => Some(ASX),
            _ => None,
        },
        "/sap/bc/adt/debugger/listeners" if *method == Method::POST => Some(ASX),
        "/sap/bc/adt/debugger/breakpoints" if *method == Method::POST => Some(XML),
        "/sap/bc/adt/debugger/breakpoints/statements"
        | "/sap/bc/adt/debugger/breakpoints/messagetypes"
            if get =>
        {
            Some(XML)
        }
        "/sap/bc/adt/debugger/stack" if get => Some(XML),
        "/sap/bc/adt/debugger/memorysizes" if get => Some(MEMORY),
        "/sap/bc/adt/debugger/actions" if *method == Method::POST => Some(XML),
        "/sap/bc/adt/debugger/watchpoints" if get || *method == Method::POST => Some(XML),
        _ if path.starts_with("/sap/bc/adt/debugger/stack/type/") && *method == Method::PUT => {
            Some(XML)
        }
        _ if path.starts_with("/sap/bc/adt/debugger/watchpoints/")
            && (get || *method == Method::PUT) =>
        {
            Some(XML)
        }
        _ => None,
    }
}

/// Does an `Accept` value allow `produced`?
fn acceptable(accept: &str, produced: &str) -> bool {
    let (p_type, _) = produced.split_once('/').unwrap_or((produced, ""));
    let mut any = false;
    for range in accept.split(',') {
        let base = range
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if base.is_empty() {
            continue;
        }
        any = true;
        if base == "*/*" || base == "*" || base == produced {
            return true;
        }
        if let Some(t) = base.strip_suffix("/*")
            && t == p_type
        {
            return true;
        }
    }
    // An empty or unreadable header accepts everything.
    !any
}

/// 406 when the request's `Accept` excludes what the resource produces.
pub(crate) fn check(
    method: &Method,
    path: &str,
    query: &[(String, String)],
    headers: &HeaderMap,
) -> Result<(), AdtError> {
    let Some(produced) = produces(method, path, query) else {
        return Ok(());
    };
    let accept: Vec<&str> = headers
        .get_all(axum::http::header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    if accept.is_empty() || accept.iter().any(|a| acceptable(a, produced)) {
        return Ok(());
    }
    Err(AdtError::new(
        StatusCode::NOT_ACCEPTABLE,
        "ExceptionResourceNotAcceptable",
        format!("Resource not acceptable: the resource supports the content type {produced}"),
    )
    .prop("SUPPORTED_CONTENT_TYPE", produced))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert!(acceptable("*/*", XML));
        assert!(acceptable("application/*", ASX));
        assert!(acceptable(
            "application/vnd.sap.as+xml; charset=UTF-8; dataname=com.sap.adt.debugger.ChildVariables",
            ASX
        ));
        assert!(acceptable("text/html, application/xml;q=0.9", XML));
        assert!(acceptable("application/json, text/plain, */*", ASX));
        assert!(acceptable("", XML));
        assert!(acceptable(" , ", XML));
        assert!(!acceptable("application/json", XML));
        assert!(!acceptable("text/*", XML));
        assert!(!acceptable("application/xml", ASX));
    }
}

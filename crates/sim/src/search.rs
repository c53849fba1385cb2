//! The repository quick search (`GET /sap/bc/adt/repository/informationsystem/search
//! ?operation=quickSearch&query=ZCL_*&maxResults=50`) over the objects the simulator holds:
//! an `adtcore:objectReferences` document, names matched case-insensitively with `*`
//! wildcards, sorted by name.

use abap::{ObjectKind, SourcePart};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::errors;
use crate::state::Shared;
use crate::xml::{XML_DECL, attr};

pub(crate) const PATH: &str = "/sap/bc/adt/repository/informationsystem/search";

/// Results when the request names no `maxResults`.
const DEFAULT_MAX: usize = 100;

pub(crate) fn quick_search(shared: &Shared, query: &[(String, String)]) -> Response {
    let param = |name: &str| {
        query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    if param("operation") != Some("quickSearch") {
        return errors::invalid_data("operation must be quickSearch").into_response();
    }
    let Some(pattern) = param("query") else {
        return errors::parameter_not_found("query").into_response();
    };
    let max = param("maxResults")
        .and_then(|m| m.trim().parse::<usize>().ok())
        .unwrap_or(DEFAULT_MAX);
    let pattern = pattern.trim().to_ascii_uppercase();
    let mut found: Vec<(String, ObjectKind)> = shared
        .repo
        .objects()
        .into_iter()
        .filter(|(name, _)| matches(&pattern, name))
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found.truncate(max);
    let mut out = String::from(XML_DECL);
    out.push_str("<adtcore:objectReferences xmlns:adtcore=\"http://www.sap.com/adt/core\">");
    for (name, kind) in found {
        let (ty, what) = match kind {
            ObjectKind::Class => ("CLAS/OC", "Class"),
            ObjectKind::Interface => ("INTF/OI", "Interface"),
            ObjectKind::Program => ("PROG/P", "Program"),
            ObjectKind::FunctionGroup => ("FUGR/F", "Function group"),
            ObjectKind::FunctionModule => ("FUGR/FF", "Function module"),
            ObjectKind::FunctionInclude => ("FUGR/I", "Function group include"),
        };
        let group = shared.repo.function_group(&name).unwrap_or_default();
        let uri = crate::uri::object_source_uri(kind, &name, SourcePart::Main, group);
        let uri = uri.trim_end_matches("/source/main");
        out.push_str("<adtcore:objectReference");
        attr(&mut out, "adtcore:uri", uri);
        attr(&mut out, "adtcore:type", ty);
        attr(&mut out, "adtcore:name", &name);
        attr(&mut out, "adtcore:packageName", "$ABAPDBG_SIM");
        attr(
            &mut out,
            "adtcore:description",
            &format!("{what} {name} (simulator)"),
        );
        out.push_str("/>");
    }
    out.push_str("</adtcore:objectReferences>");
    let mut r = (StatusCode::OK, out).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/xml; charset=utf-8"),
    );
    r
}

/// `*` matches any run of characters; everything else itself. A pattern without `*` must be
/// the whole name.
fn matches(pattern: &str, name: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn wildcards() {
        assert!(matches("ZCL_*", "ZCL_ABAPDBG_ORDERS"));
        assert!(matches("*ORDERS", "ZCL_ABAPDBG_ORDERS"));
        assert!(matches("Z*DBG*S", "ZCL_ABAPDBG_ORDERS"));
        assert!(matches("*", "X"));
        assert!(matches("ZCL_X", "ZCL_X"));
        assert!(!matches("ZCL_X", "ZCL_XY"));
        assert!(!matches("ZIF_*", "ZCL_X"));
        assert!(!matches("A*A", "A"));
        assert!(matches("A*A", "AA"));
    }
}

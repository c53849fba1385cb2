//! External breakpoints (§4): the per-user store, `POST /breakpoints` and
//! `DELETE /breakpoints/{id}`.

use std::collections::HashMap;
use std::sync::Mutex;

use abap::{Location, ObjectKind, SourcePart};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::errors;
use crate::state::{Shared, lock};
use crate::uri::{adt_type, parse_source_uri};
use crate::xml::{BreakpointsRequest, SyncScope, XML_DECL, attr, parse_breakpoints_request};

const ADTCORE_NS: &str = "http://www.sap.com/adt/core";
const REFUSED_POSITION: &str = "Cannot create a breakpoint at this position";

/// One stored line breakpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Breakpoint {
    pub id: String,
    pub ide_id: String,
    pub object: String,
    pub part: SourcePart,
    /// Line in the object source named by `part`.
    pub line: u32,
    /// Stored, not evaluated yet.
    pub condition: String,
    pub active: bool,
}

/// External breakpoints per user (they survive HTTP sessions).
#[derive(Default)]
pub(crate) struct BreakpointStore {
    by_user: Mutex<HashMap<String, Vec<Breakpoint>>>,
}

impl BreakpointStore {
    /// Ids of the active breakpoints of `user` at that stop location.
    pub fn hits(&self, user: &str, loc: &Location) -> Vec<String> {
        let map = lock(&self.by_user);
        let Some(list) = map.get(user) else {
            return Vec::new();
        };
        let mut ids: Vec<String> = Vec::new();
        for b in list {
            if b.active
                && b.line == loc.line
                && b.part == loc.part
                && b.object == loc.object
                && !ids.contains(&b.id)
            {
                ids.push(b.id.clone());
            }
        }
        ids
    }

    /// Remove by id; true if something was removed.
    pub fn delete(&self, user: &str, id: &str) -> bool {
        let mut map = lock(&self.by_user);
        let Some(list) = map.get_mut(user) else {
            return false;
        };
        let before = list.len();
        list.retain(|b| b.id != id);
        before != list.len()
    }
}

/// The server id of a line breakpoint.
pub(crate) fn line_id(loc: &Location) -> String {
    format!(
        "KIND=0.SOURCETYPE=ABAP.MAIN_PROGRAM={}.INCLUDE={}.LINE_NR={}",
        loc.program, loc.include, loc.include_line
    )
}

enum Verdict {
    Refused {
        kind: String,
        client_id: String,
        message: String,
    },
    Accepted {
        client_id: String,
        id: String,
        condition: String,
        uri: String,
        kind: ObjectKind,
        name: String,
    },
}

/// The user a request acts for: `requestUser` unless blank/`undefined`.
pub(crate) fn effective_user(request_user: &str, auth_user: &str) -> String {
    let u = request_user.trim();
    if u.is_empty() || u == "undefined" {
        auth_user.to_string()
    } else {
        u.to_uppercase()
    }
}

/// `POST /sap/bc/adt/debugger/breakpoints`.
pub(crate) fn set(shared: &Shared, auth_user: &str, body: &str) -> Response {
    let req = match parse_breakpoints_request(body) {
        Ok(r) => r,
        Err(e) => return errors::invalid_data(e.0).into_response(),
    };
    let user = effective_user(&req.request_user, auth_user);
    if req.sync_scope.is_none() {
        tracing::debug!("breakpoints POST without syncScope (additive)");
    }
    let verdicts = apply(shared, &user, &req);
    let mut s = String::from(XML_DECL);
    s.push_str("<dbg:breakpoints xmlns:dbg=\"http://www.sap.com/adt/debugger\"");
    if verdicts.is_empty() {
        s.push_str("/>");
    } else {
        s.push('>');
        // Refusals first, then the accepted ones (request order within each group).
        for v in verdicts
            .iter()
            .filter(|v| matches!(v, Verdict::Refused { .. }))
        {
            write_verdict(&mut s, v);
        }
        for v in verdicts
            .iter()
            .filter(|v| matches!(v, Verdict::Accepted { .. }))
        {
            write_verdict(&mut s, v);
        }
        s.push_str("</dbg:breakpoints>");
    }
    xml_ok(s)
}

pub(crate) fn xml_ok(body: String) -> Response {
    let mut r = (StatusCode::OK, body).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/xml; charset=utf-8"),
    );
    r
}

fn write_verdict(s: &mut String, v: &Verdict) {
    match v {
        Verdict::Refused {
            kind,
            client_id,
            message,
        } => {
            s.push_str("<breakpoint");
            attr(s, "kind", kind);
            attr(s, "clientId", client_id);
            attr(s, "errorMessage", message);
            attr(s, "nonAbapFlavour", "");
            s.push_str("/>");
        }
        Verdict::Accepted {
            client_id,
            id,
            condition,
            uri,
            kind,
            name,
        } => {
            s.push_str("<breakpoint");
            attr(s, "kind", "line");
            attr(s, "clientId", client_id);
            attr(s, "id", id);
            attr(s, "nonAbapFlavour", "");
            attr(s, "condition", condition);
            attr(s, "adtcore:uri", uri);
            attr(s, "adtcore:type", adt_type(*kind));
            attr(s, "adtcore:name", name);
            attr(s, "xmlns:adtcore", ADTCORE_NS);
            s.push_str("/>");
        }
    }
}

fn apply(shared: &Shared, user: &str, req: &BreakpointsRequest) -> Vec<Verdict> {
    let mut verdicts = Vec::new();
    let mut new: Vec<Breakpoint> = Vec::new();
    for spec in &req.breakpoints {
        if spec.kind != "line" {
            verdicts.push(Verdict::Refused {
                kind: spec.kind.clone(),
                client_id: spec.client_id.clone(),
                message: format!("Invalid breakpoint kind  {}", spec.kind),
            });
            continue;
        }
        let resolved = parse_source_uri(&spec.uri).and_then(|r| {
            let line = r.line?;
            let loc = shared.repo.stop_point(&r.object, r.part, line)?;
            Some((r, line, loc))
        });
        let Some((r, line, loc)) = resolved else {
            verdicts.push(Verdict::Refused {
                kind: spec.kind.clone(),
                client_id: spec.client_id.clone(),
                message: REFUSED_POSITION.to_string(),
            });
            continue;
        };
        let id = line_id(&loc);
        if !spec.validation_only {
            new.push(Breakpoint {
                id: id.clone(),
                ide_id: req.ide_id.clone(),
                object: r.object.clone(),
                part: r.part,
                line,
                condition: spec.condition.clone(),
                active: !req.deactivated,
            });
        }
        verdicts.push(Verdict::Accepted {
            client_id: spec.client_id.clone(),
            id,
            condition: spec.condition.clone(),
            uri: spec.uri.clone(),
            kind: r.kind,
            name: r.object,
        });
    }
    let mut map = lock(&shared.breakpoints.by_user);
    let list = map.entry(user.to_string()).or_default();
    match &req.sync_scope {
        None => {}
        Some(SyncScope::Full) => list.retain(|b| b.ide_id != req.ide_id),
        Some(SyncScope::Partial(uris)) => {
            let objects: Vec<(String, SourcePart)> = uris
                .iter()
                .filter_map(|u| parse_source_uri(u))
                .map(|r| (r.object, r.part))
                .collect();
            list.retain(|b| {
                b.ide_id != req.ide_id
                    || !objects.iter().any(|(o, p)| *o == b.object && *p == b.part)
            });
        }
    }
    for b in new {
        // Same position again: the newer definition wins.
        list.retain(|old| old.id != b.id);
        list.push(b);
    }
    verdicts
}

/// `DELETE /sap/bc/adt/debugger/breakpoints/{id}`.
pub(crate) fn delete(
    shared: &Shared,
    auth_user: &str,
    id: &str,
    query: &[(String, String)],
) -> Response {
    let get = |k: &str| query.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    for required in [
        "scope",
        "debuggingMode",
        "requestUser",
        "terminalId",
        "ideId",
    ] {
        if get(required).is_none() {
            return errors::parameter_not_found(required).into_response();
        }
    }
    let user = effective_user(get("requestUser").unwrap_or(""), auth_user);
    if !shared.breakpoints.delete(&user, id) {
        tracing::debug!("DELETE of unknown breakpoint {id}");
    }
    StatusCode::OK.into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users() {
        assert_eq!(effective_user("", "DEV"), "DEV");
        assert_eq!(effective_user("undefined", "DEV"), "DEV");
        assert_eq!(effective_user("jdoe", "DEV"), "JDOE");
    }
}

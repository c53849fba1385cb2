//! External breakpoints (§4): the per-user store, `POST /breakpoints` and
//! `DELETE /breakpoints/{id}`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use abap::{Location, ObjectKind, SourcePart};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::errors;
use crate::sessions::DebugSession;
use crate::state::{Shared, lock};
use crate::uri::{adt_type, parse_source_uri};
use crate::xml::{
    BreakpointSpec, BreakpointsRequest, SyncScope, XML_DECL, attr, parse_breakpoints_request,
};

const ADTCORE_NS: &str = "http://www.sap.com/adt/core";
const REFUSED_POSITION: &str = "Cannot create a breakpoint at this position";

/// What a breakpoint stops at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// A source line (in the object source named by `part`).
    Line {
        object: String,
        part: SourcePart,
        line: u32,
    },
    /// Every statement with that keyword (upper case, single blanks).
    Statement(String),
    /// A class-based exception caught by a handler (upper case).
    Exception(String),
    /// `MESSAGE` with that id, number and type.
    Message { id: String, no: String, ty: String },
}

/// One stored breakpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Breakpoint {
    pub id: String,
    pub ide_id: String,
    pub target: Target,
    /// ABAP logical expression (empty: none), evaluated when reached.
    pub condition: String,
    pub active: bool,
}

impl Breakpoint {
    fn kind(&self) -> &'static str {
        match self.target {
            Target::Line { .. } => "line",
            Target::Statement(_) => "statement",
            Target::Exception(_) => "exception",
            Target::Message { .. } => "message",
        }
    }
}

/// What the debuggee is about to do, for matching breakpoints.
pub(crate) struct Probe<'a> {
    pub location: &'a Location,
    /// Keyword of the next statement.
    pub statement: Option<String>,
    /// At a `CATCH`: the class being caught.
    pub exception: Option<String>,
    /// At a `MESSAGE`: (id, number, type).
    pub message: Option<(String, String, String)>,
}

/// A breakpoint that fired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reached {
    pub id: String,
    pub kind: &'static str,
    /// The condition could not be evaluated (unknown variable): it stopped anyway.
    pub unresolvable: bool,
}

/// External breakpoints per user (they survive HTTP sessions) and debugger-scope breakpoints
/// per attached debuggee (they die with it).
#[derive(Default)]
pub(crate) struct BreakpointStore {
    by_user: Mutex<HashMap<String, Vec<Breakpoint>>>,
    by_debuggee: Mutex<HashMap<String, Vec<Breakpoint>>>,
    /// Bumped after every change: a running program's hook keeps what
    /// [`BreakpointStore::may_hit`] said about a procedure while this does not move.
    version: AtomicU64,
}

fn matches(b: &Breakpoint, probe: &Probe<'_>) -> bool {
    if !b.active {
        return false;
    }
    let loc = probe.location;
    match &b.target {
        Target::Line { object, part, line } => {
            *line == loc.line && *part == loc.part && *object == loc.object
        }
        Target::Statement(kw) => probe.statement.as_deref().is_some_and(|s| {
            let s = normalise_keyword(s);
            s == *kw || s.starts_with(&format!("{kw} "))
        }),
        Target::Exception(class) => probe
            .exception
            .as_deref()
            .is_some_and(|c| c.eq_ignore_ascii_case(class)),
        Target::Message { id, no, ty } => probe.message.as_ref().is_some_and(|(mi, mn, mt)| {
            mi.eq_ignore_ascii_case(id)
                && mn.trim().parse::<u32>().ok() == no.trim().parse::<u32>().ok()
                && mt.eq_ignore_ascii_case(ty)
        }),
    }
}

fn normalise_keyword(s: &str) -> String {
    s.split_whitespace()
        .map(str::to_ascii_uppercase)
        .collect::<Vec<_>>()
        .join(" ")
}

impl BreakpointStore {
    /// Changes so far (read it before [`BreakpointStore::may_hit`]).
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    fn changed(&self) {
        self.version.fetch_add(1, Ordering::AcqRel);
    }

    /// Could an external breakpoint of `user` fire anywhere in this object's source part: an
    /// active line breakpoint there, or an active breakpoint of another kind (they match
    /// statements, not places)? False lets a program run without looking at each statement.
    pub fn may_hit(&self, user: &str, object: &str, part: SourcePart) -> bool {
        lock(&self.by_user).get(user).is_some_and(|list| {
            list.iter().filter(|b| b.active).any(|b| match &b.target {
                Target::Line {
                    object: o, part: p, ..
                } => o == object && *p == part,
                _ => true,
            })
        })
    }

    /// The breakpoints of `user` (external) and of `debuggee` (debugger scope) that fire at
    /// this probe, conditions judged by `holds` (in the top frame).
    pub fn hits(
        &self,
        user: &str,
        debuggee: Option<&str>,
        probe: &Probe<'_>,
        holds: &dyn Fn(&str) -> Result<bool, String>,
    ) -> Vec<Reached> {
        let mut candidates: Vec<Breakpoint> = Vec::new();
        if let Some(list) = lock(&self.by_user).get(user) {
            candidates.extend(list.iter().filter(|b| matches(b, probe)).cloned());
        }
        if let Some(d) = debuggee
            && let Some(list) = lock(&self.by_debuggee).get(d)
        {
            candidates.extend(list.iter().filter(|b| matches(b, probe)).cloned());
        }
        let mut out: Vec<Reached> = Vec::new();
        for b in candidates {
            if out.iter().any(|r| r.id == b.id) {
                continue;
            }
            let mut unresolvable = false;
            if !b.condition.trim().is_empty() {
                match holds(&b.condition) {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(_) => unresolvable = true,
                }
            }
            out.push(Reached {
                id: b.id.clone(),
                kind: b.kind(),
                unresolvable,
            });
        }
        out
    }

    /// Remove by id; true if something was removed.
    pub fn delete(&self, user: &str, id: &str) -> bool {
        let mut map = lock(&self.by_user);
        let Some(list) = map.get_mut(user) else {
            return false;
        };
        let before = list.len();
        list.retain(|b| b.id != id);
        let removed = before != list.len();
        drop(map);
        self.changed();
        removed
    }

    fn delete_debugger(&self, debuggee: &str, id: &str) -> bool {
        let mut map = lock(&self.by_debuggee);
        let Some(list) = map.get_mut(debuggee) else {
            return false;
        };
        let before = list.len();
        list.retain(|b| b.id != id);
        let removed = before != list.len();
        drop(map);
        self.changed();
        removed
    }

    /// Another tool of the same users deletes their external breakpoints (fault injection).
    pub fn remove_all_external(&self) {
        lock(&self.by_user).clear();
        self.changed();
    }

    /// The debuggee ended: its debugger-scope breakpoints go.
    pub fn drop_debuggee(&self, debuggee: &str) {
        lock(&self.by_debuggee).remove(debuggee);
        self.changed();
    }

    /// (owner, ids) for the admin API: users, and `debuggee:<id>` for debugger scope.
    pub fn snapshot(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = lock(&self.by_user)
            .iter()
            .filter(|(_, l)| !l.is_empty())
            .map(|(u, l)| (u.clone(), l.iter().map(|b| b.id.clone()).collect()))
            .collect();
        out.extend(
            lock(&self.by_debuggee)
                .iter()
                .filter(|(_, l)| !l.is_empty())
                .map(|(d, l)| {
                    (
                        format!("debuggee:{d}"),
                        l.iter().map(|b| b.id.clone()).collect(),
                    )
                }),
        );
        out.sort();
        out
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
        /// Line breakpoints: (uri echo, object kind, object name).
        line: Option<(String, ObjectKind, String)>,
        kind: String,
        /// Kind-specific attributes echoed (statement, exceptionClass, msgId/msgNo/msgTy).
        extra: Vec<(&'static str, String)>,
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

/// Statement keywords accepted by statement breakpoints (`GET /breakpoints/statements`).
pub(crate) const STATEMENTS: &[&str] = &[
    "ADD",
    "APPEND",
    "ASSERT",
    "ASSIGN",
    "AUTHORITY-CHECK",
    "BREAK-POINT",
    "CALL FUNCTION",
    "CALL METHOD",
    "CALL SCREEN",
    "CALL TRANSACTION",
    "CASE",
    "CATCH",
    "CHECK",
    "CLASS",
    "CLEAR",
    "CLOSE DATASET",
    "COLLECT",
    "COMMIT WORK",
    "COMPUTE",
    "CONCATENATE",
    "CONDENSE",
    "CONTINUE",
    "CONVERT",
    "CREATE DATA",
    "CREATE OBJECT",
    "DATA",
    "DELETE",
    "DESCRIBE",
    "DIVIDE",
    "DO",
    "ELSE",
    "ELSEIF",
    "ENDCASE",
    "ENDDO",
    "ENDIF",
    "ENDLOOP",
    "ENDMETHOD",
    "ENDTRY",
    "ENDWHILE",
    "EXIT",
    "EXPORT",
    "FETCH",
    "FIND",
    "FORM",
    "FREE",
    "GET PARAMETER",
    "GET REFERENCE",
    "GET TIME",
    "IF",
    "IMPORT",
    "INSERT",
    "LEAVE",
    "LOOP",
    "MESSAGE",
    "METHOD",
    "MODIFY",
    "MOVE",
    "MOVE-CORRESPONDING",
    "MULTIPLY",
    "OPEN DATASET",
    "OVERLAY",
    "PERFORM",
    "RAISE",
    "RAISE EVENT",
    "RAISE EXCEPTION",
    "READ DATASET",
    "READ TABLE",
    "REFRESH",
    "REPLACE",
    "RETURN",
    "ROLLBACK WORK",
    "SELECT",
    "SET HANDLER",
    "SET PARAMETER",
    "SHIFT",
    "SORT",
    "SPLIT",
    "SUBMIT",
    "SUBTRACT",
    "TRANSFER",
    "TRANSLATE",
    "TRY",
    "UNASSIGN",
    "UPDATE",
    "WAIT",
    "WHEN",
    "WHILE",
    "WRITE",
];

const MESSAGE_TYPES: &[&str] = &["A", "E", "I", "S", "W", "X"];

/// `GET /sap/bc/adt/debugger/breakpoints/statements`.
pub(crate) fn statements() -> Response {
    let mut s = String::from(XML_DECL);
    s.push_str("<nameditem:namedItemList xmlns:nameditem=\"http://www.sap.com/adt/nameditem\">");
    s.push_str(&format!(
        "<nameditem:totalItemCount>{}</nameditem:totalItemCount>",
        STATEMENTS.len()
    ));
    for kw in STATEMENTS {
        s.push_str("<nameditem:namedItem>");
        s.push_str("<nameditem:name>");
        s.push_str(&crate::xml::esc(kw));
        s.push_str("</nameditem:name><nameditem:description>");
        s.push_str(&crate::xml::esc(kw));
        s.push_str("</nameditem:description></nameditem:namedItem>");
    }
    s.push_str("</nameditem:namedItemList>");
    xml_ok(s)
}

/// `POST /sap/bc/adt/debugger/breakpoints`.
pub(crate) fn set(shared: &Shared, auth_user: &str, body: &str, dbg: &DebugSession) -> Response {
    let req = match parse_breakpoints_request(body) {
        Ok(r) => r,
        Err(e) => return errors::invalid_data(e.0).into_response(),
    };
    // A malformed message breakpoint fails the whole request (§4.1).
    for (i, spec) in req.breakpoints.iter().enumerate() {
        if spec.kind == "message" {
            for a in ["msgId", "msgNo", "msgTy"] {
                if spec.attr(a).is_none() {
                    return errors::AdtError::new(
                        StatusCode::BAD_REQUEST,
                        "ExceptionInvalidData",
                        format!("Attribute '{a}' expected"),
                    )
                    .prop("XML_PATH", format!("/breakpoints/breakpoint[{}]", i + 1))
                    .into_response();
                }
            }
        }
    }
    let user = effective_user(&req.request_user, auth_user);
    let owner = if req.scope == "debugger" {
        match dbg.attached.as_ref() {
            Some(a) => Owner::Debuggee(a.entry.id.clone()),
            None => return errors::no_session_other().into_response(),
        }
    } else {
        Owner::User(user)
    };
    if req.sync_scope.is_none() {
        tracing::debug!("breakpoints POST without syncScope (additive)");
    }
    let verdicts = apply(shared, &owner, &req);
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

enum Owner {
    User(String),
    Debuggee(String),
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
            line,
            kind,
            extra,
        } => {
            s.push_str("<breakpoint");
            attr(s, "kind", kind);
            attr(s, "clientId", client_id);
            attr(s, "id", id);
            attr(s, "nonAbapFlavour", "");
            attr(s, "condition", condition);
            for (k, v) in extra {
                attr(s, k, v);
            }
            if let Some((uri, okind, name)) = line {
                attr(s, "adtcore:uri", uri);
                attr(s, "adtcore:type", adt_type(*okind));
                attr(s, "adtcore:name", name);
                attr(s, "xmlns:adtcore", ADTCORE_NS);
            }
            s.push_str("/>");
        }
    }
}

/// Decide one breakpoint: `Ok((stored, verdict))` or a refusal.
fn resolve(shared: &Shared, spec: &BreakpointSpec) -> Result<(Target, Verdict), String> {
    if !spec.condition.trim().is_empty()
        && let Err(e) = abap::check_condition(&spec.condition)
    {
        return Err(format!("Condition is invalid: {e}"));
    }
    let accepted = |id: String, line, extra| Verdict::Accepted {
        client_id: spec.client_id.clone(),
        id,
        condition: spec.condition.clone(),
        line,
        kind: spec.kind.clone(),
        extra,
    };
    match spec.kind.as_str() {
        "line" => {
            let resolved = parse_source_uri(&spec.uri).and_then(|r| {
                let line = r.line?;
                let loc = shared.repo.stop_point(&r.object, r.part, line)?;
                Some((r, line, loc))
            });
            let Some((r, line, loc)) = resolved else {
                return Err(REFUSED_POSITION.to_string());
            };
            let target = Target::Line {
                object: r.object.clone(),
                part: r.part,
                line,
            };
            Ok((
                target,
                accepted(
                    line_id(&loc),
                    Some((spec.uri.clone(), r.kind, r.object)),
                    Vec::new(),
                ),
            ))
        }
        "statement" => {
            let kw = normalise_keyword(spec.attr("statement").unwrap_or(""));
            if !STATEMENTS.contains(&kw.as_str()) {
                return Err(format!("Statement {kw} is not supported"));
            }
            Ok((
                Target::Statement(kw.clone()),
                accepted(
                    format!("KIND=1.STATEMENT={kw}"),
                    None,
                    vec![("statement", kw)],
                ),
            ))
        }
        "exception" => {
            let class = spec
                .attr("exceptionClass")
                .unwrap_or("")
                .trim()
                .to_ascii_uppercase();
            if class.is_empty() {
                return Err("Exception class is missing".to_string());
            }
            Ok((
                Target::Exception(class.clone()),
                accepted(
                    format!("KIND=5.EXCEPTION_CLASS={class}"),
                    None,
                    vec![("exceptionClass", class)],
                ),
            ))
        }
        "message" => {
            let get = |a: &str| spec.attr(a).unwrap_or("").trim().to_ascii_uppercase();
            let (id, no, ty) = (get("msgId"), get("msgNo"), get("msgTy"));
            if !MESSAGE_TYPES.contains(&ty.as_str()) {
                return Err(format!("Message type {ty} is invalid"));
            }
            if id.is_empty() || no.is_empty() {
                return Err("Message id and number are required".to_string());
            }
            Ok((
                Target::Message {
                    id: id.clone(),
                    no: no.clone(),
                    ty: ty.clone(),
                },
                accepted(
                    format!("KIND=12.MSGID={id}.MSGNO={no}.MSGTY={ty}"),
                    None,
                    vec![("msgId", id), ("msgNo", no), ("msgTy", ty)],
                ),
            ))
        }
        other => Err(format!("Invalid breakpoint kind  {other}")),
    }
}

fn apply(shared: &Shared, owner: &Owner, req: &BreakpointsRequest) -> Vec<Verdict> {
    let mut verdicts = Vec::new();
    let mut new: Vec<Breakpoint> = Vec::new();
    for spec in &req.breakpoints {
        match resolve(shared, spec) {
            Err(message) => verdicts.push(Verdict::Refused {
                kind: spec.kind.clone(),
                client_id: spec.client_id.clone(),
                message,
            }),
            Ok((target, verdict)) => {
                if !spec.validation_only
                    && let Verdict::Accepted { id, .. } = &verdict
                {
                    new.push(Breakpoint {
                        id: id.clone(),
                        ide_id: req.ide_id.clone(),
                        target,
                        condition: spec.condition.clone(),
                        active: !req.deactivated,
                    });
                }
                verdicts.push(verdict);
            }
        }
    }
    let mut by_user;
    let mut by_debuggee;
    let list = match owner {
        Owner::User(u) => {
            by_user = lock(&shared.breakpoints.by_user);
            by_user.entry(u.clone()).or_default()
        }
        Owner::Debuggee(d) => {
            by_debuggee = lock(&shared.breakpoints.by_debuggee);
            by_debuggee.entry(d.clone()).or_default()
        }
    };
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
                    || match &b.target {
                        Target::Line { object, part, .. } => {
                            !objects.iter().any(|(o, p)| o == object && p == part)
                        }
                        _ => true,
                    }
            });
        }
    }
    for b in new {
        // Same position again: the newer definition wins.
        list.retain(|old| old.id != b.id);
        list.push(b);
    }
    // Still under the lock: a hook that reads the new version finds the new breakpoints.
    shared.breakpoints.changed();
    verdicts
}

/// `DELETE /sap/bc/adt/debugger/breakpoints/{id}`.
pub(crate) fn delete(
    shared: &Shared,
    auth_user: &str,
    id: &str,
    query: &[(String, String)],
    dbg: &DebugSession,
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
    let removed = if get("scope") == Some("debugger") {
        match dbg.attached.as_ref() {
            Some(a) => shared.breakpoints.delete_debugger(&a.entry.id, id),
            None => return errors::no_session_other().into_response(),
        }
    } else {
        let user = effective_user(get("requestUser").unwrap_or(""), auth_user);
        shared.breakpoints.delete(&user, id)
    };
    if !removed {
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

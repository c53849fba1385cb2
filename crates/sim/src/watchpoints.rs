//! Watchpoints (§10): CRUD on the attached session, and the change check the debug hook runs
//! before every statement.

use std::sync::Mutex;

use abap::StopContext;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::breakpoints::xml_ok;
use crate::debuggee::Command;
use crate::errors::{self, AdtError};
use crate::sessions::DebugSession;
use crate::state::lock;
use crate::xml::{XML_DECL, attr, esc};

/// One watchpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Watchpoint {
    pub id: u32,
    pub variable: String,
    pub condition: String,
    pub active: bool,
    pub expired: bool,
    /// Procedure (event name) of the frame the variable belongs to.
    pub procedure: String,
    /// Depth of that frame (1 = outermost).
    pub depth: usize,
    pub old_value: String,
    pub current_value: String,
}

/// A watchpoint that fired during a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WatchHit {
    pub id: u32,
    pub variable: String,
    pub expired: bool,
    pub current_value: String,
}

/// The watchpoints of one debug session (they die with it).
#[derive(Debug, Default)]
pub(crate) struct WatchList {
    items: Vec<Watchpoint>,
}

/// Most watchpoints per session.
const MAX_WATCHPOINTS: usize = 64;

impl WatchList {
    /// Smallest unused id (ids are reused, §10).
    fn next_id(&self) -> u32 {
        (1..)
            .find(|n| !self.items.iter().any(|w| w.id == *n))
            .unwrap_or(1)
    }
}

/// Before a statement: refresh the watched values; the ones that changed (and whose
/// condition holds) fire.
pub(crate) fn check(list: &Mutex<WatchList>, ctx: &dyn StopContext) -> Vec<WatchHit> {
    let mut list = lock(list);
    if list.items.is_empty() {
        return Vec::new();
    }
    let depth = ctx.depth();
    let mut hits = Vec::new();
    for w in list.items.iter_mut() {
        if w.expired {
            continue;
        }
        if depth < w.depth {
            // The frame of the variable has returned.
            w.expired = true;
            continue;
        }
        let frame = depth - w.depth;
        let Some(rec) = ctx
            .variables(frame, std::slice::from_ref(&w.variable))
            .into_iter()
            .next()
        else {
            continue;
        };
        if rec.value == w.current_value {
            continue;
        }
        w.old_value = std::mem::replace(&mut w.current_value, rec.value);
        if !w.active {
            continue;
        }
        if !w.condition.trim().is_empty() {
            match ctx.condition_holds(frame, &w.condition) {
                Ok(true) => {}
                Ok(false) | Err(_) => continue,
            }
        }
        hits.push(WatchHit {
            id: w.id,
            variable: w.variable.clone(),
            expired: w.expired,
            current_value: w.current_value.clone(),
        });
    }
    hits
}

fn q<'a>(query: &'a [(String, String)], name: &str) -> Option<&'a str> {
    query
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn link(s: &mut String, id: u32, variable: &str) {
    s.push_str("<atom:link xmlns:atom=\"http://www.w3.org/2005/Atom\"");
    attr(s, "href", &format!("/sap/bc/adt/debugger/watchpoints/{id}"));
    attr(s, "rel", "self");
    attr(s, "type", "application/xml");
    attr(s, "title", &format!("Watchpoint for {variable}"));
    s.push_str("/>");
}

fn text_elem(s: &mut String, name: &str, value: &str) {
    if value.is_empty() {
        s.push_str(&format!("<{name}/>"));
    } else {
        s.push_str(&format!("<{name}>{}</{name}>", esc(value)));
    }
}

fn watchpoint_xml(s: &mut String, w: &Watchpoint) {
    let id = w.id;
    s.push_str("<watchpoint");
    attr(s, "id", &id.to_string());
    attr(s, "variableName", &w.variable);
    attr(s, "kind", "local");
    attr(s, "active", if w.active { "true" } else { "false" });
    attr(s, "expired", if w.expired { "true" } else { "false" });
    attr(s, "procedure", &w.procedure);
    s.push('>');
    text_elem(s, "condition", &w.condition);
    text_elem(s, "oldVariable", "{A:8*\\KERNEL_WATCHPOINT_CLONE}");
    text_elem(s, "currentVariable", "{A:13*\\KERNEL_WATCHPOINT_WPREF}");
    text_elem(s, "oldValue", &w.old_value);
    text_elem(s, "currentValue", &w.current_value);
    link(s, id, &w.variable);
    s.push_str("<adtcomp:templateLinks xmlns:adtcomp=\"http://www.sap.com/adt/compatibility\">");
    let base = format!("/sap/bc/adt/debugger/watchpoints/{id}");
    for (title, rel, template) in [
        ("Self", "self".to_string(), base.clone()),
        (
            "Modify",
            "http://www.sap.com/adt/debugger/relations/modify".to_string(),
            format!("{base}{{?condition,active}}"),
        ),
        (
            "Delete",
            "http://www.sap.com/adt/debugger/relations/delete".to_string(),
            base.clone(),
        ),
    ] {
        s.push_str("<adtcomp:templateLink");
        attr(s, "title", title);
        attr(s, "rel", &rel);
        attr(s, "template", &template);
        s.push_str("/>");
    }
    s.push_str("</adtcomp:templateLinks></watchpoint>");
}

fn watchpoints_doc(items: &[Watchpoint]) -> String {
    let mut s = String::from(XML_DECL);
    s.push_str("<dbg:watchpoints xmlns:dbg=\"http://www.sap.com/adt/debugger\"");
    if items.is_empty() {
        s.push_str("/>");
        return s;
    }
    s.push('>');
    for w in items {
        watchpoint_xml(&mut s, w);
    }
    s.push_str("</dbg:watchpoints>");
    s
}

/// The unprefixed `reachedWatchpoints` element of a `dbg:step` (empty input: nothing).
pub(crate) fn reached_xml(s: &mut String, hits: &[WatchHit]) {
    if hits.is_empty() {
        return;
    }
    s.push_str("<reachedWatchpoints>");
    for h in hits {
        s.push_str("<watchpoint");
        attr(s, "id", &h.id.to_string());
        attr(s, "expired", if h.expired { "true" } else { "false" });
        attr(s, "variableName", &h.variable);
        s.push('>');
        text_elem(s, "currentValue", &h.current_value);
        link(s, h.id, &h.variable);
        s.push_str("</watchpoint>");
    }
    s.push_str("</reachedWatchpoints>");
}

fn not_found() -> AdtError {
    AdtError::new(
        StatusCode::NOT_FOUND,
        "AdtFailed",
        "Cannot retrieve watchpoint data: Watchpoint not found",
    )
    .t100("TPDA_ADT", "013")
    .prop("T100KEY-V1", "Watchpoint not found")
}

/// `POST /sap/bc/adt/debugger/watchpoints?variableName=X[&condition=…]`.
pub(crate) async fn create(dbg: &mut DebugSession, query: &[(String, String)]) -> Response {
    let Some(name) = q(query, "variableName")
        .map(|n| n.trim().to_ascii_uppercase())
        .filter(|n| !n.is_empty())
    else {
        return errors::parameter_not_found("variableName").into_response();
    };
    let condition = q(query, "condition").unwrap_or("").to_string();
    if !condition.trim().is_empty()
        && let Err(e) = abap::check_condition(&condition)
    {
        return errors::invalid_data(format!("Condition is invalid: {e}")).into_response();
    }
    let Some(attached) = dbg.attached.clone() else {
        return errors::no_session_other().into_response();
    };
    let frame = dbg.selected_frame;
    let (tx, rx) = tokio::sync::oneshot::channel();
    let sent = attached.entry.send(Command::Watch {
        frame,
        name: name.clone(),
        reply: tx,
    });
    let answer = if sent { rx.await.ok() } else { None };
    let Some(answer) = answer else {
        return errors::no_session_other().into_response();
    };
    let Some((record, procedure, depth)) = answer else {
        return errors::invalid_data(format!("Variable {name} does not exist")).into_response();
    };
    let mut list = lock(&attached.entry.watchpoints);
    if list.items.len() >= MAX_WATCHPOINTS {
        return errors::invalid_data("Too many watchpoints").into_response();
    }
    let w = Watchpoint {
        id: list.next_id(),
        variable: name,
        condition,
        active: true,
        expired: false,
        procedure,
        depth,
        old_value: record.value.clone(),
        current_value: record.value,
    };
    list.items.push(w.clone());
    xml_ok(watchpoints_doc(&[w]))
}

/// `GET /watchpoints` and `GET /watchpoints/{id}`.
pub(crate) fn list(dbg: &DebugSession, id: Option<&str>) -> Response {
    let Some(attached) = dbg.attached.as_ref() else {
        return errors::no_session_other().into_response();
    };
    let list = lock(&attached.entry.watchpoints);
    match id {
        None => xml_ok(watchpoints_doc(&list.items)),
        Some(id) => match id
            .trim()
            .parse::<u32>()
            .ok()
            .and_then(|n| list.items.iter().find(|w| w.id == n))
        {
            Some(w) => xml_ok(watchpoints_doc(std::slice::from_ref(w))),
            None => not_found().into_response(),
        },
    }
}

/// `PUT /watchpoints/{id}?condition=…&active=…`: answered under a new id.
pub(crate) fn modify(dbg: &DebugSession, id: &str, query: &[(String, String)]) -> Response {
    let Some(attached) = dbg.attached.as_ref() else {
        return errors::no_session_other().into_response();
    };
    let mut list = lock(&attached.entry.watchpoints);
    let Some(pos) = id
        .trim()
        .parse::<u32>()
        .ok()
        .and_then(|n| list.items.iter().position(|w| w.id == n))
    else {
        return not_found().into_response();
    };
    if let Some(c) = q(query, "condition") {
        if !c.trim().is_empty()
            && let Err(e) = abap::check_condition(c)
        {
            return errors::invalid_data(format!("Condition is invalid: {e}")).into_response();
        }
        list.items[pos].condition = c.to_string();
    }
    if let Some(a) = q(query, "active") {
        list.items[pos].active = a == "true";
    }
    // The old id is retired; the row comes back under the next free id.
    let mut w = list.items.remove(pos);
    let old = w.id;
    w.id = (1..)
        .find(|n| *n != old && !list.items.iter().any(|x| x.id == *n))
        .unwrap_or(old);
    list.items.push(w.clone());
    xml_ok(watchpoints_doc(&[w]))
}

/// `DELETE /watchpoints/{id}`.
pub(crate) fn delete(dbg: &DebugSession, id: &str) -> Response {
    let Some(attached) = dbg.attached.as_ref() else {
        return errors::no_session_other().into_response();
    };
    let mut list = lock(&attached.entry.watchpoints);
    let before = list.items.len();
    if let Ok(n) = id.trim().parse::<u32>() {
        list.items.retain(|w| w.id != n);
    }
    if list.items.len() == before {
        return not_found().into_response();
    }
    StatusCode::OK.into_response()
}

//! Request bodies out and response documents in, as the wire carries them (adt-wire.md §3–§9).
//!
//! Readers accept unknown elements and attributes in any order and return
//! [`CodecError`] (never panic) on input they cannot read. `VALUE` texts are never trimmed.

use std::sync::Arc;

use crate::types::{
    ActionResult, AttachInfo, BatchAnswer, BatchCall, BreakpointDetail, BreakpointKind,
    BreakpointResult, BreakpointScope, BreakpointSpec, ChildVariables, Debuggee, DebuggerAction,
    DebuggerSettings, Identity, MemorySizes, PartBody, ReachedWatchpoint, Stack, StackEntry,
    StepInfo, StepKind, SyncScope, UnitAlert, UnitLocation, UnitProgram, UnitRunResult,
    UnitTestClass, UnitTestMethod, Variable, Watchpoint,
};
use crate::xml::{self, Element, escape};

/// A document that does not have the expected shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CodecError(pub String);

impl From<xml::XmlError> for CodecError {
    fn from(e: xml::XmlError) -> Self {
        CodecError(e.0)
    }
}

fn root(body: &str, expected: &str) -> Result<Element, CodecError> {
    let el = xml::parse(body)?;
    if el.name != expected {
        return Err(CodecError(format!(
            "expected a {expected} document, got <{}>",
            el.name
        )));
    }
    Ok(el)
}

fn flag(v: Option<&str>) -> bool {
    matches!(v, Some("true") | Some("X"))
}

fn number(v: &str) -> u32 {
    v.trim().parse().unwrap_or(0)
}

/// (name, text) of the child elements not named in `known`, in document order.
fn other_children(el: &Element, known: &[&str]) -> Vec<(String, String)> {
    el.children
        .iter()
        .filter(|c| !known.contains(&c.name.as_str()))
        .map(|c| (c.name.clone(), c.text.clone()))
        .collect()
}

/// (local name, value) of the attributes not named in `known`, in document order.
fn other_attrs(el: &Element, known: &[&str]) -> Vec<(String, String)> {
    el.attrs
        .iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .cloned()
        .collect()
}

/// The `asx:abap/asx:values/DATA` element of an asXML document, moved out of the document
/// (a page of table rows is megabytes: never copied).
fn asx_data(body: &str) -> Result<Element, CodecError> {
    let mut el = root(body, "abap")?;
    for name in ["values", "DATA"] {
        let i = el
            .children
            .iter()
            .position(|c| c.name == name)
            .ok_or_else(|| CodecError("asXML document without values/DATA".into()))?;
        el = el.children.swap_remove(i);
    }
    Ok(el)
}

const ASX_HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><asx:abap xmlns:asx=\"http://www.sap.com/abapxml\" version=\"1.0\"><asx:values><DATA>";
const ASX_TAIL: &str = "</DATA></asx:values></asx:abap>";

// ---- listener ---------------------------------------------------------------------------

/// The listener's answer: `None` for the zero-byte timeout answer.
pub fn parse_debuggee(body: &str) -> Result<Option<Debuggee>, CodecError> {
    if body.trim().is_empty() {
        return Ok(None);
    }
    let data = asx_data(body)?;
    let Some(rec) = data.child("STPDA_DEBUGGEE") else {
        return Ok(None);
    };
    let t = |n: &str| rec.child_text(n).to_string();
    let id = t("DEBUGGEE_ID");
    if id.trim().is_empty() {
        return Err(CodecError("debuggee record without DEBUGGEE_ID".into()));
    }
    Ok(Some(Debuggee {
        id,
        client: t("CLIENT"),
        user: t("DEBUGGEE_USER"),
        program: t("PRG_CURR"),
        include: t("INCL_CURR"),
        include_line: number(rec.child_text("LINE_CURR")),
        uri: t("URI"),
        object_type: t("TYPE"),
        name: t("NAME"),
        instance_name: t("INSTANCE_NAME"),
        is_attach_impossible: flag(rec.child("IS_ATTACH_IMPOSSIBLE").map(|e| e.text.as_str())),
        unmapped: other_children(
            rec,
            &[
                "DEBUGGEE_ID",
                "CLIENT",
                "DEBUGGEE_USER",
                "PRG_CURR",
                "INCL_CURR",
                "LINE_CURR",
                "URI",
                "TYPE",
                "NAME",
                "INSTANCE_NAME",
                "IS_ATTACH_IMPOSSIBLE",
            ],
        ),
    }))
}

// ---- breakpoints ------------------------------------------------------------------------

/// The `dbg:breakpoints` request (§4.1), external scope, user mode.
pub fn breakpoints_request(
    identity: &Identity,
    scope: &SyncScope,
    specs: &[BreakpointSpec],
) -> String {
    breakpoints_request_in(BreakpointScope::External, identity, scope, specs)
}

/// The `dbg:breakpoints` request (§4.1) for either scope, user mode.
pub fn breakpoints_request_in(
    where_: BreakpointScope,
    identity: &Identity,
    scope: &SyncScope,
    specs: &[BreakpointSpec],
) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    s.push_str(&format!(
        "<dbg:breakpoints xmlns:dbg=\"http://www.sap.com/adt/debugger\" scope=\"{}\" debuggingMode=\"user\" requestUser=\"{}\" terminalId=\"{}\" ideId=\"{}\" systemDebugging=\"false\" deactivated=\"false\">",
        where_.wire_name(),
        escape(&identity.user),
        escape(&identity.terminal_id),
        escape(&identity.ide_id)
    ));
    match scope {
        SyncScope::Full => s.push_str("<syncScope mode=\"full\"/>"),
        SyncScope::Additive => {}
        SyncScope::Partial(uri) => s.push_str(&format!(
            "<syncScope mode=\"partial\"><adtcore:objectReference xmlns:adtcore=\"http://www.sap.com/adt/core\" adtcore:uri=\"{}\"/></syncScope>",
            escape(uri)
        )),
    }
    for b in specs {
        s.push_str(&format!(
            "<breakpoint xmlns:adtcore=\"http://www.sap.com/adt/core\" kind=\"{}\" clientId=\"{}\" skipCount=\"0\"",
            b.kind.wire_name(),
            escape(&b.client_id)
        ));
        if let Some(c) = &b.condition {
            s.push_str(&format!(" condition=\"{}\"", escape(c)));
        }
        match &b.kind {
            BreakpointKind::Line { uri, line } => s.push_str(&format!(
                " adtcore:uri=\"{}\"",
                escape(&format!("{uri}#start={line}"))
            )),
            BreakpointKind::Statement { statement } => {
                s.push_str(&format!(" statement=\"{}\"", escape(statement)))
            }
            BreakpointKind::Exception { class } => {
                s.push_str(&format!(" exceptionClass=\"{}\"", escape(class)))
            }
            BreakpointKind::Message { id, number, ty } => s.push_str(&format!(
                " msgId=\"{}\" msgNo=\"{}\" msgTy=\"{}\"",
                escape(id),
                escape(number),
                escape(ty)
            )),
        }
        s.push_str("/>");
    }
    s.push_str("</dbg:breakpoints>");
    s
}

/// The `dbg:breakpoints` answer (§4.3): accepted and refused, in the server's order.
pub fn parse_breakpoints(body: &str) -> Result<Vec<BreakpointResult>, CodecError> {
    Ok(parse_breakpoints_detailed(body)?
        .iter()
        .map(BreakpointDetail::result)
        .collect())
}

fn non_empty(v: Option<&str>) -> Option<String> {
    v.filter(|v| !v.is_empty()).map(str::to_string)
}

/// The `dbg:breakpoints` answer with every detail (`errorKind`, object type/name, condition).
pub fn parse_breakpoints_detailed(body: &str) -> Result<Vec<BreakpointDetail>, CodecError> {
    if body.trim().is_empty() {
        return Ok(Vec::new());
    }
    let el = root(body, "breakpoints")?;
    Ok(el
        .children_named("breakpoint")
        .map(|b| BreakpointDetail {
            client_id: b.attr("clientId").unwrap_or_default().to_string(),
            id: non_empty(b.attr("id")),
            error_message: non_empty(b.attr("errorMessage")),
            error_kind: non_empty(b.attr("errorKind")),
            kind: b.attr("kind").unwrap_or_default().to_string(),
            uri: non_empty(b.attr("uri")),
            object_type: non_empty(b.attr("type")),
            object_name: non_empty(b.attr("name")),
            condition: non_empty(b.attr("condition")),
        })
        .collect())
}

/// A `nameditem:namedItemList` (statement catalogue, message types): (name, description).
/// The collection `href`s of an ADT discovery document (`app:service`), in document order.
pub fn parse_discovery(body: &str) -> Result<Vec<String>, CodecError> {
    let el = root(body, "service")?;
    fn walk(e: &Element, out: &mut Vec<String>) {
        if e.name == "collection"
            && let Some(href) = e.attr("href")
        {
            out.push(href.to_string());
        }
        for c in &e.children {
            walk(c, out);
        }
    }
    let mut out = Vec::new();
    walk(&el, &mut out);
    Ok(out)
}

pub fn parse_named_items(body: &str) -> Result<Vec<(String, String)>, CodecError> {
    if body.trim().is_empty() {
        return Ok(Vec::new());
    }
    let el = root(body, "namedItemList")?;
    Ok(el
        .children_named("namedItem")
        .map(|i| {
            (
                i.child_text("name").to_string(),
                i.child_text("description").to_string(),
            )
        })
        .filter(|(n, _)| !n.trim().is_empty())
        .collect())
}

// ---- attach and step --------------------------------------------------------------------

fn reached(el: &Element) -> Vec<String> {
    el.child("reachedBreakpoints")
        .map(|r| {
            r.children_named("breakpoint")
                .filter_map(|b| b.attr("id"))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// `dbg:attach` (§5).
pub fn parse_attach(body: &str) -> Result<AttachInfo, CodecError> {
    let el = root(body, "attach")?;
    let a = |n: &str| el.attr(n).unwrap_or_default().to_string();
    Ok(AttachInfo {
        debug_session_id: a("debugSessionId"),
        server_name: a("serverName"),
        is_stepping_possible: el.attr("isSteppingPossible") != Some("false"),
        is_termination_possible: el.attr("isTerminationPossible") != Some("false"),
        is_user_authorized_for_changes: flag(el.attr("isUserAuthorizedForChanges")),
        reached_breakpoints: reached(&el),
    })
}

/// `dbg:step` (§7.2): the ids of the breakpoints reached, if any.
pub fn parse_step(body: &str) -> Result<Vec<String>, CodecError> {
    Ok(parse_step_info(body)?.reached_breakpoints)
}

/// `dbg:step` (§7.2) with everything it carries.
pub fn parse_step_info(body: &str) -> Result<StepInfo, CodecError> {
    if body.trim().is_empty() {
        // Some releases answer a step with an empty 200; it still stopped.
        return Ok(StepInfo::default());
    }
    let el = root(body, "step")?;
    let reached_watchpoints = el
        .child("reachedWatchpoints")
        .map(|r| {
            r.children_named("watchpoint")
                .map(|w| ReachedWatchpoint {
                    id: w.attr("id").unwrap_or_default().to_string(),
                    variable_name: w.attr("variableName").unwrap_or_default().to_string(),
                    expired: flag(w.attr("expired")),
                    current_value: w.child("currentValue").map(|c| c.text.clone()),
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(StepInfo {
        reached_breakpoints: reached(&el),
        reached_watchpoints,
        settings: el.child("settings").map(settings_of),
        is_debuggee_changed: flag(el.attr("isDebuggeeChanged")),
        actions: actions_of(&el),
    })
}

fn actions_of(el: &Element) -> Vec<DebuggerAction> {
    el.child("actions")
        .map(|a| a.children_named("action").map(action_of).collect())
        .unwrap_or_default()
}

fn action_of(a: &Element) -> DebuggerAction {
    let t = |n: &str| a.attr(n).unwrap_or_default().to_string();
    DebuggerAction {
        name: t("name"),
        style: t("style"),
        group: t("group"),
        title: t("title"),
        link: t("link"),
        value: t("value"),
        disabled: flag(a.attr("disabled")),
    }
}

/// The actions advertised by a `dbg:attach` or `dbg:step` answer.
pub fn parse_actions(body: &str) -> Result<Vec<DebuggerAction>, CodecError> {
    if body.trim().is_empty() {
        return Ok(Vec::new());
    }
    let el = xml::parse(body)?;
    if el.name != "attach" && el.name != "step" {
        return Err(CodecError(format!(
            "expected a dbg:attach or dbg:step document, got <{}>",
            el.name
        )));
    }
    Ok(actions_of(&el))
}

/// The answer to `POST /debugger/actions` (`dbg:action`, §11).
pub fn parse_action_result(body: &str) -> Result<ActionResult, CodecError> {
    if body.trim().is_empty() {
        return Ok(ActionResult::default());
    }
    let el = root(body, "action")?;
    let t = |n: &str| el.attr(n).unwrap_or_default().to_string();
    Ok(ActionResult {
        name: t("name"),
        message: t("message"),
        is_error: flag(el.attr("isError")),
        data: t("data"),
        message_kind: t("messageKind"),
        requires_update: flag(el.attr("requiresUpdate")),
    })
}

// ---- settings ---------------------------------------------------------------------------

fn settings_of(el: &Element) -> DebuggerSettings {
    let f = |n: &str| flag(el.attr(n));
    DebuggerSettings {
        system_debugging: f("systemDebugging"),
        create_exception_object: f("createExceptionObject"),
        background_rfc: f("backgroundRFC"),
        shared_object_debugging: f("sharedObjectDebugging"),
        show_data_aging: f("showDataAging"),
        update_debugging: f("updateDebugging"),
    }
}

/// The `dbg:settings` request (§6.1).
pub fn settings_request(settings: &DebuggerSettings) -> String {
    let b = |v: bool| if v { "true" } else { "false" };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><dbg:settings xmlns:dbg=\"http://www.sap.com/adt/debugger\" systemDebugging=\"{}\" createExceptionObject=\"{}\" backgroundRFC=\"{}\" sharedObjectDebugging=\"{}\" showDataAging=\"{}\" updateDebugging=\"{}\"/>",
        b(settings.system_debugging),
        b(settings.create_exception_object),
        b(settings.background_rfc),
        b(settings.shared_object_debugging),
        b(settings.show_data_aging),
        b(settings.update_debugging),
    )
}

/// The `dbg:settings` echo.
pub fn parse_settings(body: &str) -> Result<DebuggerSettings, CodecError> {
    Ok(settings_of(&root(body, "settings")?))
}

// ---- stack ------------------------------------------------------------------------------

/// `dbg:stack` (§8.2).
pub fn parse_stack(body: &str) -> Result<Stack, CodecError> {
    let el = root(body, "stack")?;
    let entries: Vec<StackEntry> = el
        .children_named("stackEntry")
        .map(|e| {
            let a = |n: &str| e.attr(n).unwrap_or_default().to_string();
            StackEntry {
                position: number(e.attr("stackPosition").unwrap_or_default()),
                stack_type: a("stackType"),
                stack_uri: a("stackUri"),
                program: a("programName"),
                include: a("includeName"),
                line: number(e.attr("line").unwrap_or_default()),
                event_type: a("eventType"),
                event_name: a("eventName"),
                system_program: flag(e.attr("systemProgram")),
                uri: a("uri"),
                source_type: a("sourceType"),
                is_vit: flag(e.attr("isVit")),
                unmapped: other_attrs(
                    e,
                    &[
                        "stackPosition",
                        "stackType",
                        "stackUri",
                        "programName",
                        "includeName",
                        "line",
                        "eventType",
                        "eventName",
                        "systemProgram",
                        "uri",
                        "sourceType",
                        "isVit",
                    ],
                ),
            }
        })
        .collect();
    let cursor = el
        .attr("debugCursorStackIndex")
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let cursor_index = if cursor < entries.len() { cursor } else { 0 };
    Ok(Stack {
        cursor_index,
        entries,
    })
}

// ---- variables --------------------------------------------------------------------------

/// The `getChildVariables` request for these parents (§9.1).
pub fn child_variables_request(parents: &[String]) -> String {
    let mut s = String::from(ASX_HEAD);
    s.push_str("<HIERARCHIES>");
    for p in parents {
        s.push_str(&format!(
            "<STPDA_ADT_VARIABLE_HIERARCHY><PARENT_ID>{}</PARENT_ID></STPDA_ADT_VARIABLE_HIERARCHY>",
            escape(p)
        ));
    }
    s.push_str("</HIERARCHIES>");
    s.push_str(ASX_TAIL);
    s
}

/// The `getVariables` request for these ids (§9.2).
pub fn variables_request(ids: &[String]) -> String {
    let mut s = String::from(ASX_HEAD);
    for id in ids {
        s.push_str(&format!(
            "<STPDA_ADT_VARIABLE><ID>{}</ID></STPDA_ADT_VARIABLE>",
            escape(id)
        ));
    }
    s.push_str(ASX_TAIL);
    s
}

/// `getChildVariables` answer; a zero-byte body means "nothing" (§9.1).
pub fn parse_child_variables(body: &str) -> Result<ChildVariables, CodecError> {
    if body.trim().is_empty() {
        return Ok(ChildVariables::default());
    }
    crate::asx_variables::read(body, crate::asx_variables::Layout::Children)
}

/// `getVariables` answer (§9.2): flat records, zero-byte when none resolved.
pub fn parse_variables(body: &str) -> Result<Vec<Variable>, CodecError> {
    if body.trim().is_empty() {
        return Ok(Vec::new());
    }
    Ok(crate::asx_variables::read(body, crate::asx_variables::Layout::Flat)?.variables)
}

/// The element-tree reading of the variable documents: what the event reading in
/// `asx_variables.rs` must agree with.
#[cfg(test)]
pub(crate) mod tree {
    use super::*;
    use crate::types::{CompactString, Hierarchy};

    fn variable(rec: &Element) -> Variable {
        let t = |n: &str| CompactString::from(rec.child_text(n));
        Variable {
            id: t("ID"),
            name: t("NAME"),
            declared_type_name: t("DECLARED_TYPE_NAME"),
            actual_type_name: t("ACTUAL_TYPE_NAME"),
            kind: t("KIND"),
            instantiation_kind: t("INSTANTIATION_KIND"),
            access_kind: t("ACCESS_KIND"),
            meta_type: t("META_TYPE"),
            parameter_kind: t("PARAMETER_KIND"),
            value: t("VALUE"),
            hex_value: t("HEX_VALUE"),
            read_only: flag(Some(rec.child_text("READ_ONLY").trim())),
            technical_type: t("TECHNICAL_TYPE"),
            length: number(rec.child_text("LENGTH")),
            table_lines: number(rec.child_text("TABLE_LINES")),
            is_value_incomplete: flag(Some(rec.child_text("IS_VALUE_INCOMPLETE").trim())),
            is_exception: flag(Some(rec.child_text("IS_EXCEPTION").trim())),
            inheritance_level: rec.child_text("INHERITANCE_LEVEL").trim().parse().ok(),
            inheritance_class: t("INHERITANCE_CLASS"),
            table_body: t("TABLE_BODY"),
            unmapped: other_children(rec, VARIABLE_FIELDS),
        }
    }

    /// The `STPDA_ADT_VARIABLE` elements with a field in [`Variable`]: one list, kept where
    /// the streaming reader needs it in field order.
    const VARIABLE_FIELDS: &[&str] = &crate::asx_variables::VARIABLE_FIELDS;

    /// `getChildVariables` answer; a zero-byte body means "nothing" (§9.1).
    pub(crate) fn parse_child_variables(body: &str) -> Result<ChildVariables, CodecError> {
        if body.trim().is_empty() {
            return Ok(ChildVariables::default());
        }
        let data = asx_data(body)?;
        let variables = data
            .child("VARIABLES")
            .map(|v| {
                v.children_named("STPDA_ADT_VARIABLE")
                    .map(variable)
                    .collect()
            })
            .unwrap_or_default();
        let hierarchies = data
            .child("HIERARCHIES")
            .map(|h| {
                h.children_named("STPDA_ADT_VARIABLE_HIERARCHY")
                    .map(|r| Hierarchy {
                        parent_id: r.child_text("PARENT_ID").into(),
                        child_id: r.child_text("CHILD_ID").into(),
                        child_name: r.child_text("CHILD_NAME").into(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(ChildVariables {
            variables,
            hierarchies,
        })
    }

    /// `getVariables` answer (§9.2): flat records, zero-byte when none resolved.
    pub(crate) fn parse_variables(body: &str) -> Result<Vec<Variable>, CodecError> {
        if body.trim().is_empty() {
            return Ok(Vec::new());
        }
        let data = asx_data(body)?;
        Ok(data
            .children_named("STPDA_ADT_VARIABLE")
            .map(variable)
            .collect())
    }
}

// ---- watchpoints ------------------------------------------------------------------------

/// `dbg:watchpoints` (§10); an empty body is an empty list.
pub fn parse_watchpoints(body: &str) -> Result<Vec<Watchpoint>, CodecError> {
    if body.trim().is_empty() {
        return Ok(Vec::new());
    }
    let el = root(body, "watchpoints")?;
    Ok(el
        .children_named("watchpoint")
        .map(|w| {
            let a = |n: &str| w.attr(n).unwrap_or_default().to_string();
            Watchpoint {
                id: a("id"),
                variable_name: a("variableName"),
                kind: a("kind"),
                active: w.attr("active") != Some("false"),
                expired: flag(w.attr("expired")),
                procedure: a("procedure"),
                condition: w
                    .child("condition")
                    .map(|c| c.text.clone())
                    .filter(|c| !c.is_empty()),
                old_value: w.child("oldValue").map(|c| c.text.clone()),
                current_value: w.child("currentValue").map(|c| c.text.clone()),
            }
        })
        .collect())
}

// ---- memory -----------------------------------------------------------------------------

/// `dbg:memorySizes` (§11): values are child elements in bytes.
pub fn parse_memory_sizes(body: &str) -> Result<MemorySizes, CodecError> {
    let el = root(body, "memorySizes")?;
    let mut m = MemorySizes::default();
    for area in &el.children {
        if area.children.is_empty() {
            m.unmapped.push((area.name.clone(), area.text.clone()));
            continue;
        }
        for v in &area.children {
            let n: Option<u64> = v.text.trim().parse().ok();
            let slot = match (area.name.as_str(), v.name.as_str()) {
                ("abap", "staticVariables") => Some(&mut m.abap_static_variables),
                ("abap", "stackUsed") => Some(&mut m.abap_stack_used),
                ("abap", "stackAllocated") => Some(&mut m.abap_stack_allocated),
                ("abap", "dynamicMemoryObjectsUsed") => Some(&mut m.abap_dynamic_objects_used),
                ("abap", "dynamicMemoryObjectsAllocated") => {
                    Some(&mut m.abap_dynamic_objects_allocated)
                }
                ("internal", "used") => Some(&mut m.internal_used),
                ("internal", "allocated") => Some(&mut m.internal_allocated),
                ("internal", "peakUsed") => Some(&mut m.internal_peak_used),
                ("external", "used") => Some(&mut m.external_used),
                ("external", "allocated") => Some(&mut m.external_allocated),
                ("external", "peakUsed") => Some(&mut m.external_peak_used),
                ("external", "numberOfInternalSessions") => Some(&mut m.external_internal_sessions),
                _ => None,
            };
            match (slot, n) {
                (Some(slot), Some(n)) => *slot = n,
                _ => m
                    .unmapped
                    .push((format!("{}/{}", area.name, v.name), v.text.clone())),
            }
        }
    }
    Ok(m)
}

// ---- batch ------------------------------------------------------------------------------

const DEBUGGER_PATH: &str = "/sap/bc/adt/debugger";
const XML_TYPE: &str = "application/xml";
/// Content type of `getChildVariables` requests and answers.
pub const ASX_CHILD_VARIABLES: &str =
    "application/vnd.sap.as+xml; charset=UTF-8; dataname=com.sap.adt.debugger.ChildVariables";
/// Content type of `getVariables` requests and answers.
pub const ASX_VARIABLES: &str =
    "application/vnd.sap.as+xml; charset=UTF-8; dataname=com.sap.adt.debugger.Variables";

/// The wire name of a step method.
pub fn step_method(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Into => "stepInto",
        StepKind::Over => "stepOver",
        StepKind::Return => "stepReturn",
        StepKind::Continue => "stepContinue",
    }
}

impl BatchCall {
    /// Any inner request without a body.
    pub fn new(method: &str, target: &str, accept: &str) -> BatchCall {
        BatchCall {
            method: method.to_string(),
            target: target.to_string(),
            accept: accept.to_string(),
            body: None,
        }
    }

    /// A step (`POST /debugger?method=stepOver` …).
    pub fn step(kind: StepKind) -> BatchCall {
        BatchCall::new(
            "POST",
            &format!("{DEBUGGER_PATH}?method={}", step_method(kind)),
            XML_TYPE,
        )
    }

    /// The stack in the old `POST` form (the form allowed inside batches).
    pub fn stack() -> BatchCall {
        BatchCall::new(
            "POST",
            &format!("{DEBUGGER_PATH}?emode=_&semanticURIs=true&method=getStack"),
            XML_TYPE,
        )
    }

    /// `getChildVariables` of these parents.
    pub fn child_variables(parents: &[String]) -> BatchCall {
        BatchCall {
            method: "POST".into(),
            target: format!("{DEBUGGER_PATH}?method=getChildVariables"),
            accept: ASX_CHILD_VARIABLES.into(),
            body: Some((ASX_CHILD_VARIABLES.into(), child_variables_request(parents))),
        }
    }

    /// `getVariables` of these ids.
    pub fn variables(ids: &[String]) -> BatchCall {
        BatchCall {
            method: "POST".into(),
            target: format!("{DEBUGGER_PATH}?method=getVariables"),
            accept: ASX_VARIABLES.into(),
            body: Some((ASX_VARIABLES.into(), variables_request(ids))),
        }
    }
}

fn strip_line_breaks(s: &str) -> String {
    s.chars().filter(|c| *c != '\r' && *c != '\n').collect()
}

/// A boundary that occurs in none of the bodies.
pub fn batch_boundary(calls: &[BatchCall], seed: u64) -> String {
    let mut n = seed;
    loop {
        let b = format!("batch_{n:016x}");
        let clash = calls.iter().any(|c| {
            c.body.as_ref().is_some_and(|(_, body)| body.contains(&b)) || c.target.contains(&b)
        });
        if !clash {
            return b;
        }
        n = n
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
    }
}

/// The `multipart/mixed` body of a batch (§12), CRLF framing. Line breaks in methods, targets
/// and header values are removed so an inner request cannot inject lines.
pub fn batch_request(boundary: &str, calls: &[BatchCall]) -> String {
    let mut s = String::new();
    for c in calls {
        s.push_str("--");
        s.push_str(boundary);
        s.push_str(
            "\r\nContent-Type: application/http\r\ncontent-transfer-encoding: binary\r\n\r\n",
        );
        s.push_str(&strip_line_breaks(&c.method));
        s.push(' ');
        s.push_str(&strip_line_breaks(&c.target).replace(' ', "%20"));
        s.push_str(" HTTP/1.1\r\nAccept:");
        s.push_str(&strip_line_breaks(&c.accept));
        s.push_str("\r\n");
        if let Some((ct, body)) = &c.body {
            s.push_str("Content-Type:");
            s.push_str(&strip_line_breaks(ct));
            s.push_str("\r\nContent-Length:");
            s.push_str(&body.len().to_string());
            s.push_str("\r\n\r\n");
            s.push_str(body);
        } else {
            s.push_str("\r\n");
        }
        s.push_str("\r\n");
    }
    s.push_str("--");
    s.push_str(boundary);
    s.push_str("--\r\n");
    s
}

/// The `boundary` parameter of a `multipart/…` content type.
pub fn multipart_boundary(content_type: &str) -> Option<String> {
    let mut params = content_type.split(';');
    let kind = params.next()?.trim();
    if !kind.to_ascii_lowercase().starts_with("multipart/") {
        return None;
    }
    params.find_map(|p| {
        let (k, v) = p.split_once('=')?;
        if !k.trim().eq_ignore_ascii_case("boundary") {
            return None;
        }
        let v = v.trim();
        let v = v
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(v);
        (!v.is_empty() && v.len() <= 200).then(|| v.to_string())
    })
}

/// The boundary of the first delimiter line (`--b`) of a body, after any preamble.
fn first_delimiter(body: &str) -> Option<String> {
    body.lines()
        .map(|l| l.trim_end_matches('\r'))
        .find_map(|l| l.strip_prefix("--"))
        .map(|b| b.trim_end().to_string())
        .filter(|b| !b.is_empty() && b.len() <= 200 && !b.ends_with("--"))
}

/// Split off one line: (line without its CR LF, rest).
fn take_line(s: &str) -> (&str, &str) {
    match s.find('\n') {
        Some(i) => (s[..i].strip_suffix('\r').unwrap_or(&s[..i]), &s[i + 1..]),
        None => (s.strip_suffix('\r').unwrap_or(s), ""),
    }
}

/// Header lines up to the first blank line: (headers, rest after the blank line).
fn take_headers(mut s: &str) -> (Vec<(String, String)>, &str) {
    let mut headers = Vec::new();
    loop {
        if s.is_empty() {
            return (headers, s);
        }
        let (line, rest) = take_line(s);
        s = rest;
        if line.trim().is_empty() {
            return (headers, s);
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// The parts of a multipart body: the text between delimiter lines, including the line break
/// that belongs to the next delimiter. Preamble and epilogue are dropped; a missing closing
/// delimiter is tolerated.
fn multipart_parts<'a>(body: &'a str, boundary: &str) -> Result<Vec<&'a str>, CodecError> {
    let delimiter = format!("--{boundary}");
    // A vector search: the answer of a table page is a megabyte, searched end to end.
    let finder = memchr::memmem::Finder::new(delimiter.as_bytes());
    // Offsets of delimiter lines (at the start of the body or of a line).
    let mut starts = Vec::new();
    let mut from = 0;
    while let Some(i) = body.as_bytes().get(from..).and_then(|s| finder.find(s)) {
        let at = from + i;
        let after = &body[at + delimiter.len()..];
        let (line_rest, _) = take_line(after);
        let whole_line = after.starts_with("--") || line_rest.trim().is_empty();
        if (at == 0 || body[..at].ends_with('\n')) && whole_line {
            starts.push(at);
        }
        from = at + delimiter.len();
    }
    if starts.is_empty() {
        return Err(CodecError(
            "multipart answer without its boundary".to_string(),
        ));
    }
    let mut parts = Vec::new();
    for (n, &at) in starts.iter().enumerate() {
        let after = &body[at + delimiter.len()..];
        if after.starts_with("--") {
            break; // closing delimiter
        }
        let (_, content) = take_line(after);
        let end = match starts.get(n + 1) {
            Some(&next) => next - (at + delimiter.len()) - (after.len() - content.len()),
            None => content.len(),
        };
        // The line break before the next delimiter is still on; `batch_part` takes it off
        // (or uses the part's content-length, which settles bodies ending in CR).
        parts.push(content.get(..end).unwrap_or(content));
    }
    Ok(parts)
}

/// One part of a batch answer: MIME headers, then an HTTP response. `part` lies in `whole`,
/// which the part's body is a range of.
fn batch_part(whole: &Arc<String>, part: &str) -> Result<BatchAnswer, CodecError> {
    // MIME headers (`Content-Type: application/http`, `Content-ID`, …) may be left out: then
    // the part starts with the HTTP status line itself.
    let starts_with_status = part.trim_start_matches(['\r', '\n']).starts_with("HTTP/");
    let http = if starts_with_status {
        part
    } else {
        take_headers(part).1
    };
    // Tolerate blank lines before the status line.
    let http = http.trim_start_matches(['\r', '\n']);
    let (status_line, rest) = take_line(http);
    let mut words = status_line.split_whitespace();
    let version = words.next().unwrap_or_default();
    if !version.starts_with("HTTP/") {
        return Err(CodecError(format!(
            "batch part without an HTTP status line: '{}'",
            crate::error::clip(status_line, 80)
        )));
    }
    let status: u16 = words
        .next()
        .and_then(|c| c.parse().ok())
        .filter(|c| (100..1000).contains(c))
        .ok_or_else(|| {
            CodecError(format!(
                "batch part with a bad status line: '{}'",
                crate::error::clip(status_line, 80)
            ))
        })?;
    let (headers, body) = take_headers(rest);
    let stripped = body
        .strip_suffix("\r\n")
        .or_else(|| body.strip_suffix('\n'))
        .unwrap_or(body);
    let body = match header(&headers, "content-length").and_then(|v| v.parse::<usize>().ok()) {
        Some(n) if n <= body.len() => body.get(..n).unwrap_or(stripped),
        _ => stripped,
    };
    Ok(BatchAnswer {
        status,
        content_type: header(&headers, "content-type").map(str::to_string),
        headers,
        body: PartBody::within(whole, body),
    })
}

/// The 202 `multipart/mixed` answer of a batch (§12): one answer per part, in order, each
/// body a range of `body` (shared, not copied). A part that cannot be read is an error in its
/// own slot.
pub fn parse_batch_response(
    content_type: &str,
    body: &Arc<String>,
) -> Result<Vec<Result<BatchAnswer, CodecError>>, CodecError> {
    // The boundary comes from the content type; a multipart answer that names none is read
    // by the delimiter its body starts with.
    let boundary = multipart_boundary(content_type)
        .or_else(|| {
            content_type
                .trim()
                .to_ascii_lowercase()
                .starts_with("multipart/")
                .then(|| first_delimiter(body))
                .flatten()
        })
        .ok_or_else(|| {
            CodecError(format!(
                "batch answer is not multipart with a boundary (content type '{}')",
                crate::error::clip(content_type, 100)
            ))
        })?;
    Ok(multipart_parts(body, &boundary)?
        .into_iter()
        .map(|part| batch_part(body, part))
        .collect())
}

// ---- ABAP Unit --------------------------------------------------------------------------

/// The `aunit:runConfiguration` for one object (interpreter reference §5.2). `object_uri` may
/// carry a fragment naming a test class/method.
pub fn unit_run_request(object_uri: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><aunit:runConfiguration xmlns:aunit=\"http://www.sap.com/adt/aunit\"><external><coverage active=\"false\"/></external><options><uriType value=\"semantic\"/><testDeterminationStrategy sameProgram=\"true\" assignedTests=\"false\"/><testRiskLevels harmless=\"true\" dangerous=\"true\" critical=\"true\"/><testDurations short=\"true\" medium=\"true\" long=\"true\"/><withNavigationUri enabled=\"true\"/></options><adtcore:objectSets xmlns:adtcore=\"http://www.sap.com/adt/core\"><objectSet kind=\"inclusive\"><adtcore:objectReferences><adtcore:objectReference adtcore:uri=\"{}\"/></adtcore:objectReferences></objectSet></adtcore:objectSets></aunit:runConfiguration>",
        escape(object_uri)
    )
}

/// `start=N` inside a URI fragment (`#start=12,0;end=12,0`, `#type=…;start=24`).
pub fn fragment_line(uri: &str) -> Option<u32> {
    let (_, fragment) = uri.split_once('#')?;
    fragment.split(';').find_map(|item| {
        let v = item.trim().strip_prefix("start=")?;
        v.split(',').next()?.trim().parse().ok()
    })
}

fn unit_alerts(el: &Element) -> Vec<UnitAlert> {
    el.child("alerts")
        .map(|a| {
            a.children_named("alert")
                .map(|a| UnitAlert {
                    kind: a.attr("kind").unwrap_or_default().to_string(),
                    severity: a.attr("severity").unwrap_or_default().to_string(),
                    title: a.child_text("title").to_string(),
                    details: a
                        .child("details")
                        .map(|d| {
                            d.children_named("detail")
                                .map(|d| {
                                    d.attr("text")
                                        .map(str::to_string)
                                        .unwrap_or_else(|| d.text.clone())
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                    stack: a
                        .child("stack")
                        .map(|s| {
                            s.children_named("stackEntry")
                                .map(|e| {
                                    let uri = e.attr("uri").unwrap_or_default().to_string();
                                    UnitLocation {
                                        line: fragment_line(&uri),
                                        uri,
                                        object_type: e.attr("type").unwrap_or_default().to_string(),
                                        name: e.attr("name").unwrap_or_default().to_string(),
                                        description: e
                                            .attr("description")
                                            .unwrap_or_default()
                                            .to_string(),
                                    }
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `aunit:runResult`; the empty root means "no tests".
pub fn parse_unit_run_result(body: &str) -> Result<UnitRunResult, CodecError> {
    let el = root(body, "runResult")?;
    let programs = el
        .children_named("program")
        .map(|p| UnitProgram {
            uri: p.attr("uri").unwrap_or_default().to_string(),
            object_type: p.attr("type").unwrap_or_default().to_string(),
            name: p.attr("name").unwrap_or_default().to_string(),
            alerts: unit_alerts(p),
            classes: p
                .child("testClasses")
                .map(|tc| {
                    tc.children_named("testClass")
                        .map(|c| {
                            let uri = c.attr("uri").unwrap_or_default().to_string();
                            UnitTestClass {
                                name: c.attr("name").unwrap_or_default().to_string(),
                                line: fragment_line(&uri),
                                uri,
                                duration_category: c
                                    .attr("durationCategory")
                                    .unwrap_or_default()
                                    .to_string(),
                                risk_level: c.attr("riskLevel").unwrap_or_default().to_string(),
                                alerts: unit_alerts(c),
                                methods: c
                                    .child("testMethods")
                                    .map(|ms| {
                                        ms.children_named("testMethod")
                                            .map(|m| {
                                                let uri =
                                                    m.attr("uri").unwrap_or_default().to_string();
                                                UnitTestMethod {
                                                    name: m
                                                        .attr("name")
                                                        .unwrap_or_default()
                                                        .to_string(),
                                                    line: fragment_line(&uri),
                                                    uri,
                                                    execution_seconds: m
                                                        .attr("executionTime")
                                                        .and_then(|t| t.trim().parse().ok())
                                                        .filter(|t: &f64| t.is_finite()),
                                                    alerts: unit_alerts(m),
                                                }
                                            })
                                            .collect()
                                    })
                                    .unwrap_or_default(),
                            }
                        })
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect();
    Ok(UnitRunResult {
        alerts: unit_alerts(&el),
        programs,
    })
}

#[cfg(test)]
mod discovery_tests {
    use super::*;

    #[test]
    fn discovery_lists_collection_hrefs_in_order() {
        let doc = r#"<?xml version="1.0" encoding="utf-8"?><app:service xmlns:app="http://www.w3.org/2007/app" xmlns:atom="http://www.w3.org/2005/Atom"><app:workspace><atom:title>Debugger</atom:title><app:collection href="/sap/bc/adt/debugger/breakpoints"><atom:title>Breakpoints</atom:title></app:collection><app:collection href="/sap/bc/adt/debugger/listeners"/></app:workspace><app:workspace><app:collection href="/sap/bc/adt/abapunit/testruns"/></app:workspace></app:service>"#;
        assert_eq!(
            parse_discovery(doc).unwrap_or_default(),
            vec![
                "/sap/bc/adt/debugger/breakpoints".to_string(),
                "/sap/bc/adt/debugger/listeners".to_string(),
                "/sap/bc/adt/abapunit/testruns".to_string(),
            ]
        );
        assert!(parse_discovery("<other/>").is_err());
        assert!(parse_discovery("<app:service").is_err());
    }
}

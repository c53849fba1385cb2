//! Request bodies out and response documents in, as the wire carries them (adt-wire.md §3–§9).
//!
//! Readers accept unknown elements and attributes in any order and return
//! [`CodecError`] (never panic) on input they cannot read. `VALUE` texts are never trimmed.

use crate::types::{
    AttachInfo, BreakpointKind, BreakpointResult, BreakpointSpec, ChildVariables, Debuggee,
    Hierarchy, Identity, Stack, StackEntry, SyncScope, Variable,
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

/// The `asx:abap/asx:values/DATA` element of an asXML document.
fn asx_data(body: &str) -> Result<Element, CodecError> {
    let el = root(body, "abap")?;
    el.path(&["values", "DATA"])
        .cloned()
        .ok_or_else(|| CodecError("asXML document without values/DATA".into()))
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
    }))
}

// ---- breakpoints ------------------------------------------------------------------------

/// The `dbg:breakpoints` request (§4.1), external scope, user mode.
pub fn breakpoints_request(
    identity: &Identity,
    scope: &SyncScope,
    specs: &[BreakpointSpec],
) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    s.push_str(&format!(
        "<dbg:breakpoints xmlns:dbg=\"http://www.sap.com/adt/debugger\" scope=\"external\" debuggingMode=\"user\" requestUser=\"{}\" terminalId=\"{}\" ideId=\"{}\" systemDebugging=\"false\" deactivated=\"false\">",
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
    if body.trim().is_empty() {
        return Ok(Vec::new());
    }
    let el = root(body, "breakpoints")?;
    Ok(el
        .children_named("breakpoint")
        .map(|b| BreakpointResult {
            client_id: b.attr("clientId").unwrap_or_default().to_string(),
            id: b.attr("id").filter(|v| !v.is_empty()).map(str::to_string),
            error_message: b
                .attr("errorMessage")
                .filter(|v| !v.is_empty())
                .map(str::to_string),
            kind: b.attr("kind").unwrap_or_default().to_string(),
            uri: b.attr("uri").filter(|v| !v.is_empty()).map(str::to_string),
        })
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
    if body.trim().is_empty() {
        // Some releases answer a step with an empty 200; it still stopped.
        return Ok(Vec::new());
    }
    let el = root(body, "step")?;
    Ok(reached(&el))
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

fn variable(rec: &Element) -> Variable {
    let t = |n: &str| rec.child_text(n).to_string();
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
    }
}

/// `getChildVariables` answer; a zero-byte body means "nothing" (§9.1).
pub fn parse_child_variables(body: &str) -> Result<ChildVariables, CodecError> {
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
                    parent_id: r.child_text("PARENT_ID").to_string(),
                    child_id: r.child_text("CHILD_ID").to_string(),
                    child_name: r.child_text("CHILD_NAME").to_string(),
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
pub fn parse_variables(body: &str) -> Result<Vec<Variable>, CodecError> {
    if body.trim().is_empty() {
        return Ok(Vec::new());
    }
    let data = asx_data(body)?;
    Ok(data
        .children_named("STPDA_ADT_VARIABLE")
        .map(variable)
        .collect())
}

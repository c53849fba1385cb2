//! `dbg:attach` (§5), `dbg:step` (§7.2), `dbg:settings` (§6.1) and `dbg:actions` documents.

use crate::breakpoints::Reached;
use crate::sessions::Settings;
use crate::state::INSTANCE;
use crate::watchpoints::WatchHit;
use crate::xml::{XML_DECL, attr};

const DBG_NS: &str = "http://www.sap.com/adt/debugger";
/// Work-process id shown to clients.
const PROCESS_ID: &str = "4711";

fn session_title() -> String {
    format!("HTTP session: {INSTANCE}")
}

fn reached_xml(s: &mut String, reached: &[Reached]) {
    if reached.is_empty() {
        return;
    }
    s.push_str("<dbg:reachedBreakpoints>");
    for r in reached {
        s.push_str("<dbg:breakpoint");
        attr(s, "id", &r.id);
        attr(s, "kind", r.kind);
        attr(
            s,
            "unresolvableCondition",
            if r.unresolvable { "true" } else { "" },
        );
        attr(s, "unresolvableConditionErrorOffset", "");
        s.push_str("/>");
    }
    s.push_str("</dbg:reachedBreakpoints>");
}

/// The advertised actions: (name, style, group, title, link, value).
pub(crate) const ACTIONS: [(&str, &str, &str, &str, &str, &str); 4] = [
    (
        "updateDebugging",
        "check",
        "setting",
        "Update Debugging (Off)",
        "/sap/bc/adt/debugger/actions?action=updateDebugging&value=true",
        "false",
    ),
    (
        "garbageCollector",
        "push",
        "execute",
        "Garbage Collector",
        "/sap/bc/adt/debugger/actions?action=garbageCollector",
        "",
    ),
    (
        "commitWork",
        "push",
        "execute",
        "DB Commit",
        "/sap/bc/adt/debugger/actions?action=commitWork",
        "",
    ),
    (
        "rollbackWork",
        "push",
        "execute",
        "DB Rollback",
        "/sap/bc/adt/debugger/actions?action=rollbackWork",
        "",
    ),
];

/// The answer of `POST /debugger/actions?action=<name>` (§11): one `dbg:action`.
pub(crate) fn action_xml(name: &str, message: &str, data: &str) -> String {
    let (style, group, title, link, value) = ACTIONS
        .iter()
        .find(|a| a.0 == name)
        .map(|a| (a.1, a.2, a.3.to_string(), a.4.to_string(), a.5))
        .unwrap_or((
            "push",
            "execute",
            "Memory Snapshot".to_string(),
            format!("/sap/bc/adt/debugger/actions?action={name}"),
            "",
        ));
    let mut s = String::from(XML_DECL);
    s.push_str("<dbg:action");
    attr(&mut s, "xmlns:dbg", DBG_NS);
    attr(&mut s, "name", name);
    attr(&mut s, "style", style);
    attr(&mut s, "group", group);
    attr(&mut s, "title", &title);
    attr(&mut s, "link", &link);
    attr(&mut s, "value", value);
    attr(&mut s, "disabled", "false");
    attr(&mut s, "message", message);
    attr(&mut s, "isError", "false");
    attr(&mut s, "data", data);
    attr(&mut s, "requiresUpdate", "false");
    attr(&mut s, "messageKind", "info");
    s.push_str("/>");
    s
}

fn actions_xml(s: &mut String) {
    s.push_str("<dbg:actions>");
    for (name, style, group, title, link, value) in ACTIONS {
        s.push_str("<dbg:action");
        attr(s, "name", name);
        attr(s, "style", style);
        attr(s, "group", group);
        attr(s, "title", title);
        attr(s, "link", link);
        attr(s, "value", value);
        attr(s, "disabled", "false");
        s.push_str("/>");
    }
    s.push_str("</dbg:actions>");
}

/// `dbg:attach`.
pub(crate) fn attach_xml(debug_session_id: &str, debuggee_id: &str, reached: &[Reached]) -> String {
    let mut s = String::from(XML_DECL);
    s.push_str("<dbg:attach");
    attr(&mut s, "isRfc", "false");
    attr(&mut s, "isSameSystem", "true");
    attr(&mut s, "serverName", INSTANCE);
    attr(&mut s, "debugSessionId", debug_session_id);
    attr(&mut s, "processId", PROCESS_ID);
    attr(&mut s, "isPostMortem", "false");
    attr(&mut s, "isUserAuthorizedForChanges", "true");
    let short: String = debuggee_id.chars().take(14).collect();
    attr(&mut s, "debuggeeSessionId", &format!("{short}  {INSTANCE}"));
    attr(&mut s, "abapTraceState", "");
    attr(&mut s, "canAdvancedTableFeatures", "true");
    attr(&mut s, "isNonExclusive", "false");
    attr(&mut s, "isNonExclusiveToggled", "false");
    attr(&mut s, "guiEditorGuid", "");
    attr(&mut s, "sessionTitle", &session_title());
    attr(&mut s, "isSteppingPossible", "true");
    attr(&mut s, "isTerminationPossible", "true");
    // The namespace is declared last (captured order).
    attr(&mut s, "xmlns:dbg", DBG_NS);
    s.push('>');
    reached_xml(&mut s, reached);
    actions_xml(&mut s);
    s.push_str("</dbg:attach>");
    s
}

fn settings_elem(s: &mut String, settings: &Settings, with_ns: bool) {
    s.push_str("<dbg:settings");
    if with_ns {
        attr(s, "xmlns:dbg", DBG_NS);
    }
    for (name, value) in &settings.0 {
        attr(s, name, if *value { "true" } else { "false" });
    }
    s.push_str("/>");
}

/// `dbg:settings` as the answer of `setDebuggerSettings`.
pub(crate) fn settings_xml(settings: &Settings) -> String {
    let mut s = String::from(XML_DECL);
    settings_elem(&mut s, settings, true);
    s
}

/// `dbg:step`.
pub(crate) fn step_xml(
    debug_session_id: &str,
    settings: &Settings,
    reached: &[Reached],
    watched: &[WatchHit],
) -> String {
    let mut s = String::from(XML_DECL);
    s.push_str("<dbg:step");
    attr(&mut s, "isRfc", "false");
    attr(&mut s, "isSameSystem", "true");
    attr(&mut s, "serverName", INSTANCE);
    attr(&mut s, "debugSessionId", debug_session_id);
    attr(&mut s, "isUserAuthorizedForChanges", "true");
    attr(&mut s, "processId", PROCESS_ID);
    attr(&mut s, "abapTraceState", "");
    attr(&mut s, "canAdvancedTableFeatures", "true");
    attr(&mut s, "isNonExclusive", "false");
    attr(&mut s, "isNonExclusiveToggled", "false");
    attr(&mut s, "sessionTitle", &session_title());
    attr(&mut s, "isSteppingPossible", "true");
    attr(&mut s, "isTerminationPossible", "true");
    attr(&mut s, "isDebuggeeChanged", "false");
    attr(&mut s, "xmlns:dbg", DBG_NS);
    s.push('>');
    settings_elem(&mut s, settings, false);
    reached_xml(&mut s, reached);
    crate::watchpoints::reached_xml(&mut s, watched);
    actions_xml(&mut s);
    s.push_str("</dbg:step>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_shape() {
        let x = step_xml(
            "S",
            &Settings::default(),
            &[Reached {
                id: "KIND=0.X".into(),
                kind: "line",
                unresolvable: false,
            }],
            &[],
        );
        assert!(x.contains("<dbg:settings systemDebugging=\"false\" createExceptionObject=\"false\" backgroundRFC=\"false\" sharedObjectDebugging=\"false\" showDataAging=\"false\" updateDebugging=\"false\"/><dbg:reachedBreakpoints><dbg:breakpoint id=\"KIND=0.X\" kind=\"line\" unresolvableCondition=\"\" unresolvableConditionErrorOffset=\"\"/></dbg:reachedBreakpoints><dbg:actions>"));
        assert!(x.contains(
            "link=\"/sap/bc/adt/debugger/actions?action=updateDebugging&amp;value=true\""
        ));
        let a = attach_xml("S", "0123456789ABCDEF0123456789ABCDEF", &[]);
        assert!(!a.contains("reachedBreakpoints"));
        assert!(!a.contains("dbg:settings"));
    }
}

//! `dbg:attach` (§5), `dbg:step` (§7.2), `dbg:settings` (§6.1) and `dbg:actions` documents.

use crate::sessions::Settings;
use crate::state::INSTANCE;
use crate::xml::{XML_DECL, attr};

const DBG_NS: &str = "http://www.sap.com/adt/debugger";
/// Work-process id shown to clients.
const PROCESS_ID: &str = "4711";

fn session_title() -> String {
    format!("HTTP session: {INSTANCE}")
}

fn reached_xml(s: &mut String, reached: &[String]) {
    if reached.is_empty() {
        return;
    }
    s.push_str("<dbg:reachedBreakpoints>");
    for id in reached {
        s.push_str("<dbg:breakpoint");
        attr(s, "id", id);
        attr(s, "kind", kind_of(id));
        attr(s, "unresolvableCondition", "");
        attr(s, "unresolvableConditionErrorOffset", "");
        s.push_str("/>");
    }
    s.push_str("</dbg:reachedBreakpoints>");
}

fn kind_of(id: &str) -> &'static str {
    match id.split('.').next() {
        Some("KIND=1") => "statement",
        Some("KIND=5") => "exception",
        Some("KIND=12") => "message",
        _ => "line",
    }
}

fn actions_xml(s: &mut String) {
    s.push_str("<dbg:actions>");
    let actions: [(&str, &str, &str, &str, &str, &str); 4] = [
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
            "Database Commit",
            "/sap/bc/adt/debugger/actions?action=commitWork",
            "",
        ),
        (
            "rollbackWork",
            "push",
            "execute",
            "Database Rollback",
            "/sap/bc/adt/debugger/actions?action=rollbackWork",
            "",
        ),
    ];
    for (name, style, group, title, link, value) in actions {
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
pub(crate) fn attach_xml(debug_session_id: &str, debuggee_id: &str, reached: &[String]) -> String {
    let mut s = String::from(XML_DECL);
    s.push_str("<dbg:attach");
    attr(&mut s, "xmlns:dbg", DBG_NS);
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
pub(crate) fn step_xml(debug_session_id: &str, settings: &Settings, reached: &[String]) -> String {
    let mut s = String::from(XML_DECL);
    s.push_str("<dbg:step");
    attr(&mut s, "xmlns:dbg", DBG_NS);
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
    s.push('>');
    settings_elem(&mut s, settings, false);
    reached_xml(&mut s, reached);
    actions_xml(&mut s);
    s.push_str("</dbg:step>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_shape() {
        let x = step_xml("S", &Settings::default(), &["KIND=0.X".into()]);
        assert!(x.contains("<dbg:settings systemDebugging=\"false\" createExceptionObject=\"false\" backgroundRFC=\"false\" sharedObjectDebugging=\"false\" showDataAging=\"false\" updateDebugging=\"false\"/><dbg:reachedBreakpoints><dbg:breakpoint id=\"KIND=0.X\" kind=\"line\" unresolvableCondition=\"\" unresolvableConditionErrorOffset=\"\"/></dbg:reachedBreakpoints><dbg:actions>"));
        assert!(x.contains(
            "link=\"/sap/bc/adt/debugger/actions?action=updateDebugging&amp;value=true\""
        ));
        let a = attach_xml("S", "0123456789ABCDEF0123456789ABCDEF", &[]);
        assert!(!a.contains("reachedBreakpoints"));
        assert!(!a.contains("dbg:settings"));
    }
}

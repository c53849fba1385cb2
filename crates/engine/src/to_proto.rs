//! Engine and ADT values → protocol values: every conversion to what a client receives lives
//! here, into the result types of `jsonl::results`, so the schema (generated from those types)
//! and the wire cannot drift apart. The command files decide what to answer; this file decides
//! how it looks.

use jsonl::args::{BpSetArgs, MessageArgs};
use jsonl::results::{
    Column, Fetch, FoundObject, Frame, Settings, SourceLine, ThreadInfo, UnitAlert, UnitClass,
    UnitLocation, UnitMethod, Variable, Watchpoint,
};
use jsonl::{ErrorBody, ErrorCode};
use serde::Serialize;
use serde_json::{Value, json};

use crate::table_json::Row;

/// A command's typed result as the response's `result`.
pub(crate) fn result<T: Serialize>(outcome: Result<T, ErrorBody>) -> Result<Value, ErrorBody> {
    outcome.and_then(|r| {
        serde_json::to_value(r).map_err(|e| {
            ErrorBody::new(
                ErrorCode::Internal,
                format!("cannot encode the result: {e}"),
            )
        })
    })
}

/// A command's typed result as a successful response's `result`.
pub(crate) fn ok<T: Serialize>(value: T) -> Result<Value, ErrorBody> {
    result(Ok(value))
}

/// A protocol value as JSON, for tests that look at the wire shape.
#[cfg(test)]
pub(crate) fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A stack entry as the protocol shows it (without `source`).
pub(crate) fn frame(index: usize, e: &adt::StackEntry) -> Frame {
    let unit = abapgit::SourceUnit::from_uri(&e.uri);
    // A dynpro's frame (`DYNP`) has no source URI: its program names it (`SAPMHTTP`).
    let object = match adt::address::object_name(&e.uri) {
        o if o.is_empty() => e.program.trim().to_string(),
        o => o,
    };
    Frame {
        index,
        object,
        object_type: unit
            .as_ref()
            .map(|u| u.object_type().to_string())
            .unwrap_or_default(),
        file: unit.map(|u| u.file_name()),
        method: e.event_name.clone(),
        event_type: e.event_type.clone(),
        program: e.program.clone(),
        include: e.include.clone(),
        line: e.line,
        uri: e.uri.clone(),
        system: e.system_program,
        source: None,
    }
}

/// A watchpoint that fired, as a `stopped` body names it.
pub(crate) fn watchpoint_hit(w: &adt::ReachedWatchpoint) -> jsonl::results::WatchpointHit {
    jsonl::results::WatchpointHit {
        id: w.id.clone(),
        variable: w.variable_name.clone(),
        value: w.current_value.clone(),
        expired: w.expired,
    }
}

/// The `stopped` body of a program caught at a breakpoint whose stop could not be read.
pub(crate) fn unreadable_stop(thread: u32, error: String) -> jsonl::results::Stopped {
    jsonl::results::Stopped {
        epoch: None,
        reason: jsonl::results::StopReason::Breakpoint,
        breakpoints: None,
        server_ids: None,
        thread,
        frame: None,
        depth: None,
        exception: None,
        watchpoints: None,
        error: Some(error),
        caught_for_dump: None,
    }
}

/// A breakpoint record.
pub(crate) fn breakpoint(b: &crate::breakpoints::Breakpoint) -> jsonl::results::Breakpoint {
    use crate::breakpoints::{Target, include_of, refusal_code};
    let mut out = jsonl::results::Breakpoint {
        id: b.id,
        kind: b.target.kind().into(),
        location: b.location.clone(),
        enabled: b.enabled,
        status: b.status.as_str().into(),
        condition: b.condition.clone(),
        server_id: b.server_id.clone(),
        ..Default::default()
    };
    out.user = b.user.clone();
    match &b.target {
        Target::Line { object, uri, line } => {
            out.object = Some(object.clone());
            out.line = Some(*line);
            out.uri = Some(format!("{uri}#start={line}"));
        }
        Target::Statement(s) => out.statement = Some(s.clone()),
        Target::Exception(c) => out.exception = Some(c.clone()),
        Target::Message { id, number, ty } => out.message = Some(message(id, number, ty)),
    }
    // The system maps a class line to the method include: say where it really is.
    if let Some((include, line)) = b.server_id.as_deref().and_then(include_of) {
        out.include = Some(include);
        out.include_line = Some(line);
    }
    if let Some(r) = &b.reason {
        out.reason = Some(r.clone());
        out.code = Some(refusal_code(r).into());
    }
    out
}

/// A breakpoint as `bp.export` writes it: the `bp.set` arguments that set it again.
pub(crate) fn breakpoint_args(b: &crate::breakpoints::Breakpoint) -> BpSetArgs {
    use crate::breakpoints::Target;
    let mut args = BpSetArgs {
        condition: b.condition.clone(),
        enabled: b.enabled,
        ..Default::default()
    };
    match &b.target {
        Target::Line { .. } => args.location = Some(b.location.clone()),
        Target::Statement(s) => args.statement = Some(s.clone()),
        Target::Exception(c) => args.exception = Some(c.clone()),
        Target::Message { id, number, ty } => args.message = Some(message(id, number, ty)),
    }
    args
}

fn message(id: &str, number: &str, ty: &str) -> MessageArgs {
    MessageArgs {
        id: id.into(),
        number: number.into(),
        ty: ty.into(),
    }
}

/// An attached program as `threads` and `status` show it.
pub(crate) fn thread_info(d: &crate::debuggee::Attached, current: bool) -> ThreadInfo {
    ThreadInfo {
        thread: d.thread,
        current,
        program: d.record.program.clone(),
        user: d.record.user.clone(),
        running: d.running,
        frame: d.stop.as_ref().and_then(|s| s.frame.clone()),
        selected_frame: d.selected,
        stop: d.stop.clone(),
    }
}

/// Source lines `first..=last` of `lines` (line 1 first), marking `current`.
pub(crate) fn source_lines(
    lines: &[String],
    first: u32,
    last: u32,
    current: u32,
) -> Vec<SourceLine> {
    (first..=last)
        .filter_map(|n| {
            let text = lines.get(usize::try_from(n).ok()?.checked_sub(1)?)?;
            Some(SourceLine {
                line: n,
                text: text.clone(),
                current: n == current,
            })
        })
        .collect()
}

/// Cuts a value at `max` characters; says whether it did.
pub(crate) fn limited(value: &str, max: usize) -> (String, bool) {
    match value.char_indices().nth(max) {
        Some((cut, _)) => (value[..cut].to_string(), true),
        None => (value.to_string(), false),
    }
}

/// A value as a script wants it: numbers with a leading sign instead of ABAP's trailing sign
/// column (and no padding); everything else exactly as the system sent it.
pub(crate) fn display_value(v: &adt::Variable) -> String {
    display_text(v).into_owned()
}

/// [`display_value`], borrowed from the record unless the sign moves.
pub(crate) fn display_text(v: &adt::Variable) -> std::borrow::Cow<'_, str> {
    let numeric = matches!(
        v.technical_type.as_str(),
        "I" | "P" | "INT8" | "8" | "b" | "s" | "F" | "DECFLOAT16" | "DECFLOAT34"
    );
    if !numeric {
        return v.value.as_str().into();
    }
    let t = v.value.trim();
    match t.strip_suffix('-') {
        Some(digits) => format!("-{digits}").into(),
        None => t.into(),
    }
}

/// A variable as the protocol shows it. `value` is [`display_value`] cut at `max`
/// characters; `raw` is exactly what the system sent (`null` when `value` was cut, with
/// `full_length` and the request that answers the whole value).
pub(crate) fn variable(v: &adt::Variable, scope: &str, max: usize) -> Variable {
    let (value, truncated) = limited(&display_value(v), max);
    Variable {
        id: v.id.to_string(),
        name: v.name.to_string(),
        scope: scope.to_string(),
        value,
        raw: (!truncated).then(|| v.value.to_string()),
        technical_type: v.technical_type.to_string(),
        declared_type: v.declared_type_name.to_string(),
        meta: v.meta_type.to_string(),
        kind: v.kind.to_string(),
        length: v.length,
        rows: v.table_lines,
        readonly: v.read_only,
        expandable: matches!(
            v.meta_type.as_str(),
            "structure" | "table" | "dataref" | "objectref" | "class" | "object" | "boxref"
        ),
        truncated,
        full_length: truncated.then(|| v.value.chars().count()),
        fetch: truncated.then(|| Fetch {
            cmd: "get".into(),
            args: json!({"path": v.id.as_str(), "full": true}),
        }),
    }
}

/// The columns of a table page, in component order, from its first row: name (empty for an
/// elementary line type), technical type and meta type. Empty without rows.
pub(crate) fn columns(rows: &[Row]) -> Vec<Column> {
    let cells = rows.first().map(|r| r.cells.as_slice()).unwrap_or_default();
    cells
        .iter()
        .map(|c| Column {
            name: c.name.to_string(),
            technical_type: c.technical_type.to_string(),
            meta: c.meta.to_string(),
        })
        .collect()
}

pub(crate) fn watchpoint(w: &adt::Watchpoint) -> Watchpoint {
    Watchpoint {
        id: w.id.clone(),
        variable: w.variable_name.clone(),
        condition: w.condition.clone(),
        active: w.active,
        expired: w.expired,
        procedure: w.procedure.clone(),
        old_value: w.old_value.clone(),
        value: w.current_value.clone(),
    }
}

pub(crate) fn settings(s: &adt::DebuggerSettings) -> Settings {
    Settings {
        system_debugging: s.system_debugging,
        create_exception_object: s.create_exception_object,
        background_rfc: s.background_rfc,
        shared_object_debugging: s.shared_object_debugging,
        show_data_aging: s.show_data_aging,
        update_debugging: s.update_debugging,
    }
}

pub(crate) fn found_object(o: adt::search::ObjectReference) -> FoundObject {
    FoundObject {
        name: o.name,
        object_type: o.object_type,
        uri: o.uri,
        description: o.description,
    }
}

fn unit_alert(a: &adt::UnitAlert) -> UnitAlert {
    UnitAlert {
        kind: a.kind.clone(),
        severity: a.severity.clone(),
        title: a.title.clone(),
        details: a.details.clone(),
        location: a.stack.first().map(|l| UnitLocation {
            uri: l.uri.clone(),
            line: l.line,
            name: l.name.clone(),
        }),
    }
}

/// An ABAP Unit run as records a script can count: per class, per method, with `passed` and
/// alerts; `ok` when nothing failed and no alert is critical or fatal.
pub(crate) fn unit_result(
    kind: &str,
    name: &str,
    r: &adt::UnitRunResult,
) -> jsonl::results::TestResult {
    let mut passed = 0;
    let mut failed = 0;
    let classes: Vec<UnitClass> = r
        .programs
        .iter()
        .flat_map(|p| p.classes.iter())
        .map(|c| UnitClass {
            name: c.name.clone(),
            alerts: c.alerts.iter().map(unit_alert).collect(),
            methods: c
                .methods
                .iter()
                .map(|m| {
                    if m.passed() {
                        passed += 1;
                    } else {
                        failed += 1;
                    }
                    UnitMethod {
                        name: m.name.clone(),
                        passed: m.passed(),
                        line: m.line,
                        seconds: m.execution_seconds,
                        alerts: m.alerts.iter().map(unit_alert).collect(),
                    }
                })
                .collect(),
        })
        .collect();
    let alerts: Vec<UnitAlert> = r
        .alerts
        .iter()
        .chain(r.programs.iter().flat_map(|p| p.alerts.iter()))
        .map(unit_alert)
        .collect();
    let ok = failed == 0
        && alerts
            .iter()
            .all(|a| a.severity != "critical" && a.severity != "fatal");
    jsonl::results::TestResult {
        released: None,
        object: name.to_string(),
        object_type: kind.to_string(),
        passed,
        failed,
        ok,
        alerts,
        classes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame of a dynpro names its program as the object (issue 28), a method its class.
    #[test]
    fn a_frame_without_a_source_uri_is_named_by_its_program() {
        let dynpro = adt::StackEntry {
            program: "SAPMHTTP".into(),
            event_type: "DYNP".into(),
            ..Default::default()
        };
        assert_eq!(frame(3, &dynpro).object, "SAPMHTTP");
        let method = adt::StackEntry {
            program: "ZCL_X=========================CP".into(),
            uri: "/sap/bc/adt/oo/classes/zcl_x/source/main#start=4,0".into(),
            ..Default::default()
        };
        assert_eq!(frame(0, &method).object, "ZCL_X");
    }

    fn var(t: &str, value: &str) -> adt::Variable {
        adt::Variable {
            technical_type: t.into(),
            value: value.into(),
            ..Default::default()
        }
    }

    #[test]
    fn numbers_lose_the_sign_column_characters_keep_their_blanks() {
        assert_eq!(display_value(&var("I", "15 ")), "15");
        assert_eq!(display_value(&var("I", "42-")), "-42");
        assert_eq!(display_value(&var("P", "123.45-")), "-123.45");
        assert_eq!(display_value(&var("C", "A001      ")), "A001      ");
        assert_eq!(display_value(&var("CString", " x ")), " x ");
    }

    #[test]
    fn raw_is_kept() {
        let v = json(&variable(&var("I", "7 "), "Locals", 100));
        assert_eq!(v["raw"], "7 ");
        assert_eq!(v["value"], "7");
        assert_eq!(v["scope"], "Locals");
        assert!(v.get("truncated").is_none(), "{v}");
    }

    #[test]
    fn a_cut_value_says_how_to_fetch_it_whole() {
        let mut long = var("CString", "abcdef");
        long.id = "LV_TEXT".into();
        let v = json(&variable(&long, "", 3));
        assert_eq!(v["value"], "abc");
        assert_eq!(v["raw"], Value::Null);
        assert_eq!(v["truncated"], true);
        assert_eq!(v["full_length"], 6);
        assert_eq!(
            v["fetch"],
            json!({"cmd": "get", "args": {"path": "LV_TEXT", "full": true}})
        );
    }
}

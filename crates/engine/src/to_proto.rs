//! Engine and ADT values → protocol values: every conversion to what a client receives lives
//! here, into the result types of `jsonl::results`, so the schema (generated from those types)
//! and the wire cannot drift apart. The command files decide what to answer; this file decides
//! how it looks.

use jsonl::args::{BpSetArgs, MessageArgs};
use jsonl::results::{
    Column, Fetch, FoundObject, Frame, Settings, SourceLine, TableResult, TableRow, ThreadInfo,
    UnitAlert, UnitClass, UnitLocation, UnitMethod, Variable, Watchpoint,
};
use jsonl::{ErrorBody, ErrorCode};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::commands::tables::Row;

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

/// A `table` page as the response's `result`: what [`result`] makes of it, its cells moved
/// into the JSON rather than copied (a page is a thousand of them). The members are those
/// of `TableResult`'s and `TableRow`'s serialisation; a test holds both to it.
pub(crate) fn table_result(outcome: Result<TableResult, ErrorBody>) -> Result<Value, ErrorBody> {
    let page = outcome?;
    let columns = page
        .columns
        .iter()
        .map(|c| {
            let mut m = Map::new();
            m.insert("name".into(), c.name.clone().into());
            m.insert("type".into(), c.technical_type.clone().into());
            m.insert("meta".into(), c.meta.clone().into());
            Value::Object(m)
        })
        .collect();
    let rows = page
        .rows
        .into_iter()
        .map(|r| {
            let mut m = Map::new();
            m.insert("index".into(), r.index.into());
            m.insert("id".into(), r.id.into());
            if let Some(value) = r.value {
                m.insert("value".into(), value.into());
            }
            if let Some(columns) = r.columns {
                m.insert("columns".into(), Value::Object(columns));
            }
            Value::Object(m)
        })
        .collect();
    let mut m = Map::new();
    m.insert("epoch".into(), page.epoch.into());
    m.insert("id".into(), page.id.into());
    m.insert("total".into(), page.total.into());
    m.insert("offset".into(), page.offset.into());
    m.insert("columns".into(), Value::Array(columns));
    m.insert("rows".into(), Value::Array(rows));
    m.insert("more".into(), page.more.into());
    Ok(Value::Object(m))
}

/// A command's typed result as a successful response's `result`.
pub(crate) fn ok<T: Serialize>(value: T) -> Result<Value, ErrorBody> {
    result(Ok(value))
}

/// A protocol value as JSON, for the bodies the engine still keeps as JSON (a stop, a thread).
pub(crate) fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A stack entry as the protocol shows it (without `source`).
pub(crate) fn frame(index: usize, e: &adt::StackEntry) -> Frame {
    Frame {
        index,
        object: adt::address::object_name(&e.uri),
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
pub(crate) fn unreadable_stop(thread: u32, error: String) -> Value {
    json(&jsonl::results::Stopped {
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
    })
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
        frame: d.frame.clone(),
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

/// [`limited`] of a value that is not needed any more: cut in place, not copied.
fn limited_owned(mut value: String, max: usize) -> String {
    // No more bytes than `max`: no more characters either (most cells), nothing to count.
    if value.len() <= max {
        return value;
    }
    if let Some((cut, _)) = value.char_indices().nth(max) {
        value.truncate(cut);
    }
    value
}

/// A value as a script wants it: numbers with a leading sign instead of ABAP's trailing sign
/// column (and no padding); everything else exactly as the system sent it.
pub(crate) fn display_value(v: &adt::Variable) -> String {
    let numeric = matches!(
        v.technical_type.as_str(),
        "I" | "P" | "INT8" | "8" | "b" | "s" | "F" | "DECFLOAT16" | "DECFLOAT34"
    );
    if !numeric {
        return v.value.to_string();
    }
    let t = v.value.trim();
    match t.strip_suffix('-') {
        Some(digits) => format!("-{digits}"),
        None => t.to_string(),
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
            name: c.name.clone(),
            technical_type: c.technical_type.to_string(),
            meta: c.meta.to_string(),
        })
        .collect()
}

/// A table row: its cells by column name, or `value` for an elementary line type; each cut at
/// `max` characters. The row's texts are moved into it (a page is a thousand cells).
pub(crate) fn table_row(row: Row, max: usize) -> TableRow {
    let elementary = matches!(row.cells.as_slice(), [only] if only.name.is_empty());
    let mut cells = row.cells.into_iter();
    let (value, columns) = match cells.next() {
        Some(only) if elementary => (Some(limited_owned(only.value, max)), None),
        first => {
            let columns: Map<String, Value> = first
                .into_iter()
                .chain(cells)
                .map(|c| (c.name, Value::String(limited_owned(c.value, max))))
                .collect();
            (None, Some(columns))
        }
    };
    TableRow {
        index: row.index,
        id: row.id,
        value,
        columns,
    }
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
    fn table_rows_cut_their_cells_in_place_as_limited_would() {
        use crate::commands::tables::{Cell, Row};
        for (value, max) in [
            ("äöü ß", 2),
            ("abc", 3),
            ("abc", 0),
            ("", 1),
            ("日本語テキスト", 4),
            ("日本", 3),
            ("日本", 6),
            ("ab", 5),
        ] {
            assert_eq!(limited_owned(value.to_string(), max), limited(value, max).0);
        }
        let cell = |name: &str, value: &str| Cell {
            name: name.into(),
            value: value.into(),
            technical_type: "C".into(),
            meta: "simple".into(),
        };
        let row = |cells| Row {
            index: 3,
            id: "LT[3]".into(),
            cells,
        };
        let r = json(&table_row(row(vec![cell("A", "xäyz"), cell("B", "1")]), 2));
        assert_eq!(
            r,
            json!({"index": 3, "id": "LT[3]", "columns": {"A": "xä", "B": "1"}})
        );
        let r = json(&table_row(row(vec![cell("", "xäyz")]), 3));
        assert_eq!(r, json!({"index": 3, "id": "LT[3]", "value": "xäy"}));
        let r = json(&table_row(row(Vec::new()), 3));
        assert_eq!(r, json!({"index": 3, "id": "LT[3]", "columns": {}}));
    }

    #[test]
    fn a_table_page_is_the_json_its_serialisation_is() {
        use jsonl::results::{Column, TableResult, TableRow};
        let mut columns = Map::new();
        columns.insert("B".into(), "x \"y\"".into());
        columns.insert("A".into(), "".into());
        let page = TableResult {
            epoch: 7,
            id: "LT_X".into(),
            total: 100_000,
            offset: 3,
            columns: vec![Column {
                name: "A".into(),
                technical_type: "C".into(),
                meta: "simple".into(),
            }],
            rows: vec![
                TableRow {
                    index: 4,
                    id: "LT_X[4]".into(),
                    value: None,
                    columns: Some(columns),
                },
                TableRow {
                    index: 5,
                    id: "LT_X[5]".into(),
                    value: Some("5".into()),
                    columns: None,
                },
                TableRow {
                    index: 6,
                    id: "LT_X[6]".into(),
                    value: None,
                    columns: None,
                },
            ],
            more: true,
        };
        for page in [
            page.clone(),
            TableResult {
                rows: Vec::new(),
                columns: Vec::new(),
                more: false,
                ..page
            },
        ] {
            let typed = result(Ok(page.clone())).unwrap();
            let moved = table_result(Ok(page)).unwrap();
            assert_eq!(moved, typed);
            assert_eq!(moved.to_string(), typed.to_string());
        }
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

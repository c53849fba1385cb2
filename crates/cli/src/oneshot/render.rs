//! Human output: aligned tables, the source window around a stop, colour on a terminal.

use abapgit::{ClassPart, SourceUnit};
use jsonl::results::{EndReason, Ended, Frame, RunSummary, SourceLine, StopReason, Stopped};
use serde_json::Value;

/// ANSI styles, applied only when the context allows colour.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Style {
    Bold,
    Dim,
    Green,
    Red,
    Yellow,
}

pub(crate) fn paint(color: bool, style: Style, text: &str) -> String {
    if !color || text.is_empty() {
        return text.to_string();
    }
    let code = match style {
        Style::Bold => "1",
        Style::Dim => "2",
        Style::Green => "32",
        Style::Red => "31",
        Style::Yellow => "33",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

/// A JSON member as text: strings as they are, null as nothing, the rest as JSON.
pub(crate) fn text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// An optional member as text: nothing when absent.
pub(crate) fn or_empty<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// One table cell: control characters shown escaped, so a value never breaks a row.
pub(crate) fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// Cuts a cell at `max` characters, marking the cut.
pub(crate) fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// Columns aligned by the widest cell; the last column is not padded.
pub(crate) struct Table {
    headers: Vec<String>,
    right: Vec<bool>,
    rows: Vec<Vec<(String, Option<Style>)>>,
}

impl Table {
    pub(crate) fn new(headers: &[&str]) -> Table {
        Table {
            headers: headers.iter().map(|h| h.to_string()).collect(),
            right: vec![false; headers.len()],
            rows: Vec::new(),
        }
    }

    /// Right-aligns column `i` (numbers).
    pub(crate) fn align_right(&mut self, i: usize) {
        if let Some(r) = self.right.get_mut(i) {
            *r = true;
        }
    }

    pub(crate) fn row(&mut self, cells: Vec<String>) {
        self.rows
            .push(cells.into_iter().map(|c| (cell(&c), None)).collect());
    }

    /// A row whose cells may carry a style.
    pub(crate) fn styled_row(&mut self, cells: Vec<(String, Option<Style>)>) {
        self.rows
            .push(cells.into_iter().map(|(c, s)| (cell(&c), s)).collect());
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub(crate) fn render(&self, color: bool) -> String {
        let n = self.headers.len();
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (i, (c, _)) in row.iter().enumerate().take(n) {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
        let line = |cells: Vec<(&str, Option<Style>)>| -> String {
            let mut out = String::new();
            for (i, (c, style)) in cells.iter().enumerate() {
                let pad = widths[i].saturating_sub(c.chars().count());
                let last = i + 1 == cells.len();
                let painted = match style {
                    Some(s) => paint(color, *s, c),
                    None => c.to_string(),
                };
                if self.right[i] {
                    out.push_str(&" ".repeat(pad));
                    out.push_str(&painted);
                } else {
                    out.push_str(&painted);
                    if !last {
                        out.push_str(&" ".repeat(pad));
                    }
                }
                if !last {
                    out.push_str("  ");
                }
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
            out
        };
        let mut out = line(
            self.headers
                .iter()
                .map(|h| (h.as_str(), Some(Style::Bold)))
                .collect(),
        );
        for row in &self.rows {
            let mut cells: Vec<(&str, Option<Style>)> =
                row.iter().map(|(c, s)| (c.as_str(), *s)).collect();
            cells.resize(n, ("", None));
            out.push_str(&line(cells));
        }
        out
    }
}

/// `ZCL_X:48 in LINE_TOTAL`: where a frame is, in the form `bp set` takes.
pub(crate) fn place(frame: &Frame) -> String {
    let at = location(frame);
    if frame.method.is_empty() {
        at
    } else {
        format!("{at} in {}", frame.method)
    }
}

/// `ZCL_X:48`: a frame's line in the form `bp set` takes. A line outside an object's main
/// source (a test class, a local class, a function group's include) is named with its part,
/// as crates/abapgit writes it from the frame's file (`CLAS:ZCL_X/testclasses:22`): `ZCL_X:22`
/// would be another line.
pub(crate) fn location(frame: &Frame) -> String {
    let unit = frame
        .file
        .as_deref()
        .and_then(|f| SourceUnit::from_path(f).ok());
    match unit {
        Some(
            unit @ (SourceUnit::Class {
                part:
                    ClassPart::TestClasses
                    | ClassPart::LocalsImp
                    | ClassPart::LocalsDef
                    | ClassPart::Macros,
                ..
            }
            | SourceUnit::FunctionGroup { .. }),
        ) => unit.location(frame.line),
        _ => {
            let object = if frame.object.is_empty() {
                &frame.program
            } else {
                &frame.object
            };
            format!("{object}:{}", frame.line)
        }
    }
}

/// [`place`] of a frame that may be unknown (a stack that could not be read, a thread not
/// described yet): `?` then.
pub(crate) fn place_of(frame: Option<&Frame>) -> String {
    frame.map_or_else(|| "?".to_string(), place)
}

/// The source window: line numbers, the current line marked with `>`.
pub(crate) fn source_window(lines: &[SourceLine], color: bool) -> String {
    let width = lines
        .iter()
        .map(|l| l.line.to_string().len())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for l in lines {
        let number = format!("{:>width$}", l.line);
        let body = cell(&l.text);
        if l.current {
            out.push_str(&paint(color, Style::Green, ">"));
            out.push_str(&format!(
                " {}  {}",
                paint(color, Style::Bold, &number),
                paint(color, Style::Yellow, &body)
            ));
        } else {
            out.push_str(&format!("  {}  {body}", paint(color, Style::Dim, &number)));
        }
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    out
}

/// Why a program stopped, in words: `breakpoint 1`, `exception CX_SY_ZERODIVIDE`, `step`.
pub(crate) fn why(body: &Stopped) -> String {
    match body.reason {
        StopReason::Breakpoint => {
            let ids: Vec<String> = body
                .breakpoints
                .iter()
                .flatten()
                .map(u32::to_string)
                .collect();
            if ids.is_empty() {
                "breakpoint".to_string()
            } else {
                format!("breakpoint {}", ids.join(", "))
            }
        }
        StopReason::Exception => {
            format!(
                "exception {}",
                body.exception.as_deref().unwrap_or_default()
            )
        }
        StopReason::Step => "step".to_string(),
        StopReason::Watchpoint => "watchpoint".to_string(),
    }
}

/// A stop (the body of a `stopped` event) with its source window.
pub(crate) fn stop(body: &Stopped, color: bool) -> String {
    stop_at(
        Some(&why(body)),
        Some(body.thread),
        body.frame.as_ref(),
        color,
    )
}

/// A stop from its parts: why (when known), the thread and the frame with its source lines.
pub(crate) fn stop_at(
    why: Option<&str>,
    thread: Option<u32>,
    frame: Option<&Frame>,
    color: bool,
) -> String {
    let mut parts: Vec<String> = why.map(str::to_string).into_iter().collect();
    if let Some(t) = thread {
        parts.push(format!("thread {t}"));
    }
    let mut out = format!(
        "{} at {}",
        paint(color, Style::Bold, "stopped"),
        paint(color, Style::Bold, &place_of(frame))
    );
    if !parts.is_empty() {
        out.push_str(&format!(" ({})", parts.join("; ")));
    }
    out.push('\n');
    let lines = frame.and_then(|f| f.source.as_deref()).unwrap_or_default();
    out.push_str(&source_window(lines, color));
    out
}

/// How a program ended, as the protocol words it.
pub(crate) fn end_reason(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Finished => "finished",
        EndReason::Terminated => "terminated",
        EndReason::Detached => "detached",
        EndReason::Lost => "lost",
    }
}

/// An end (the body of `debuggee.ended`, or `last_end`): the reason and what the run printed.
pub(crate) fn ended(body: &Ended, color: bool) -> String {
    // A terminated program's run fails because it was terminated: that is the end, not news.
    let run = body
        .run
        .as_ref()
        .filter(|_| body.reason != EndReason::Terminated);
    end_at(
        end_reason(body.reason),
        Some(body.thread),
        run,
        body.output.as_deref(),
        color,
    )
}

/// An end from its parts (a run that answered without stopping has no thread).
pub(crate) fn end_at(
    reason: &str,
    thread: Option<u32>,
    run: Option<&RunSummary>,
    output: Option<&str>,
    color: bool,
) -> String {
    let mut out = paint(color, Style::Bold, "ended");
    match thread {
        Some(t) => out.push_str(&format!(" ({reason}; thread {t})\n")),
        None => out.push_str(&format!(" ({reason})\n")),
    }
    if let Some(run) = run
        && run.ok == Some(false)
    {
        let (code, message) = run
            .error
            .as_ref()
            .map_or(("", ""), |e| (e.code.as_str(), e.message.as_str()));
        out.push_str(&format!(
            "{}: {code}: {message}\n",
            paint(color, Style::Red, "run failed"),
        ));
    }
    if let Some(output) = output {
        out.push_str(output);
        if !output.ends_with('\n') && !output.is_empty() {
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tables_align_and_do_not_pad_the_last_column() {
        let mut t = Table::new(&["ID", "NAME", "VALUE"]);
        t.align_right(0);
        t.row(vec!["1".into(), "LV_A".into(), "x".into()]);
        t.row(vec!["10".into(), "B".into(), "two\nlines".into()]);
        assert_eq!(
            t.render(false),
            "ID  NAME  VALUE\n 1  LV_A  x\n10  B     two\\nlines\n"
        );
    }

    #[test]
    fn the_current_line_is_marked() {
        let src = [
            SourceLine {
                line: 9,
                text: "a.".into(),
                current: false,
            },
            SourceLine {
                line: 10,
                text: "  b.".into(),
                current: true,
            },
        ];
        assert_eq!(source_window(&src, false), "   9  a.\n> 10    b.\n");
    }

    #[test]
    fn a_stop_names_its_place_like_bp_set_does() {
        let body: Stopped = serde_json::from_value(json!({"reason": "breakpoint",
            "breakpoints": [1], "thread": 1, "frame": {"index": 0, "object": "ZCL_X",
            "method": "RUN", "event_type": "", "program": "ZCL_X===CP", "include": "",
            "line": 48, "uri": "", "system": false, "source": []}}))
        .expect("a stopped body");
        assert_eq!(
            stop(&body, false),
            "stopped at ZCL_X:48 in RUN (breakpoint 1; thread 1)\n"
        );
        assert_eq!(
            stop_at(None, None, None, false),
            "stopped at ?\n",
            "a stop nothing is known of"
        );
    }

    #[test]
    fn a_line_outside_the_main_source_is_named_with_its_part() {
        let frame = |file: Option<&str>| Frame {
            object: "ZCL_X".into(),
            method: "ADDS".into(),
            line: 22,
            file: file.map(str::to_string),
            ..Frame::default()
        };
        assert_eq!(
            place(&frame(Some("zcl_x.clas.testclasses.abap"))),
            "CLAS:ZCL_X/testclasses:22 in ADDS"
        );
        assert_eq!(
            place(&frame(Some("zcl_x.clas.locals_imp.abap"))),
            "CLAS:ZCL_X/locals_imp:22 in ADDS"
        );
        assert_eq!(place(&frame(Some("zcl_x.clas.abap"))), "ZCL_X:22 in ADDS");
        assert_eq!(place(&frame(None)), "ZCL_X:22 in ADDS");
        let member = Frame {
            object: "ZFG".into(),
            line: 5,
            file: Some("zfg.fugr.lzfgu01.abap".into()),
            ..Frame::default()
        };
        assert_eq!(location(&member), "FUGR:ZFG/LZFGU01:5");
    }

    #[test]
    fn an_end_names_its_reason_and_what_the_run_printed() {
        let body: Ended = serde_json::from_value(json!({"thread": 2, "reason": "terminated",
            "output": "hello", "run": {"cmd": "run", "ok": false,
            "error": {"code": "run.failed", "message": "terminated"}}}))
        .expect("an ended body");
        assert_eq!(
            ended(&body, false),
            "ended (terminated; thread 2)\nhello\n",
            "a terminated program's run failing is no news"
        );
        let failed: Ended = serde_json::from_value(json!({"thread": 2, "reason": "finished",
            "run": {"cmd": "run", "ok": false,
            "error": {"code": "run.failed", "message": "dump"}}}))
        .expect("an ended body");
        assert_eq!(
            ended(&failed, false),
            "ended (finished; thread 2)\nrun failed: run.failed: dump\n"
        );
        assert_eq!(
            end_at("finished", None, None, Some("done\n"), false),
            "ended (finished)\ndone\n"
        );
    }

    #[test]
    fn cuts_mark_the_cut() {
        assert_eq!(cut("abcdef", 3), "abc…");
        assert_eq!(cut("abc", 3), "abc");
    }
}

//! Human output: aligned tables, the source window around a stop, colour on a terminal.

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
pub(crate) fn place(frame: &Value) -> String {
    let object = text(&frame["object"]);
    let object = if object.is_empty() {
        text(&frame["program"])
    } else {
        object
    };
    let method = text(&frame["method"]);
    let at = format!("{object}:{}", text(&frame["line"]));
    if method.is_empty() {
        at
    } else {
        format!("{at} in {method}")
    }
}

/// The source window: line numbers, the current line marked with `>`.
pub(crate) fn source_window(lines: &Value, color: bool) -> String {
    let lines: Vec<&Value> = lines.as_array().into_iter().flatten().collect();
    let width = lines
        .iter()
        .map(|l| text(&l["line"]).len())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for l in lines {
        let number = format!("{:>width$}", text(&l["line"]));
        let body = cell(&text(&l["text"]));
        if l["current"].as_bool() == Some(true) {
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

/// A stop (the body of a `stopped` event) with its source window.
pub(crate) fn stop(body: &Value, color: bool) -> String {
    let frame = &body["frame"];
    let mut why = Vec::new();
    match body["reason"].as_str() {
        Some("breakpoint") => {
            let ids: Vec<String> = body["breakpoints"]
                .as_array()
                .into_iter()
                .flatten()
                .map(text)
                .collect();
            why.push(if ids.is_empty() {
                "breakpoint".to_string()
            } else {
                format!("breakpoint {}", ids.join(", "))
            });
        }
        Some("exception") => why.push(format!("exception {}", text(&body["exception"]))),
        Some(r) => why.push(r.to_string()),
        None => {}
    }
    if !body["thread"].is_null() {
        why.push(format!("thread {}", text(&body["thread"])));
    }
    let mut out = format!(
        "{} at {}",
        paint(color, Style::Bold, "stopped"),
        paint(color, Style::Bold, &place(frame))
    );
    if !why.is_empty() {
        out.push_str(&format!(" ({})", why.join("; ")));
    }
    out.push('\n');
    out.push_str(&source_window(&frame["source"], color));
    out
}

/// An end (the body of `debuggee.ended`, or `last_end`): the reason and what the run printed.
pub(crate) fn ended(body: &Value, color: bool) -> String {
    let reason = body["reason"].as_str().unwrap_or("finished");
    let mut out = paint(color, Style::Bold, "ended");
    if body["thread"].is_null() {
        out.push_str(&format!(" ({reason})\n"));
    } else {
        out.push_str(&format!(" ({reason}; thread {})\n", text(&body["thread"])));
    }
    let run = &body["run"];
    if run["ok"] == Value::Bool(false) {
        out.push_str(&format!(
            "{}: {}: {}\n",
            paint(color, Style::Red, "run failed"),
            text(&run["error"]["code"]),
            text(&run["error"]["message"])
        ));
    }
    if let Some(output) = body["output"].as_str() {
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
        let src = json!([
            {"line": 9, "text": "a.", "current": false},
            {"line": 10, "text": "  b.", "current": true}
        ]);
        assert_eq!(source_window(&src, false), "   9  a.\n> 10    b.\n");
    }

    #[test]
    fn a_stop_names_its_place_like_bp_set_does() {
        let body = json!({"reason": "breakpoint", "breakpoints": [1], "thread": 1,
            "frame": {"object": "ZCL_X", "method": "RUN", "line": 48, "source": []}});
        assert_eq!(
            stop(&body, false),
            "stopped at ZCL_X:48 in RUN (breakpoint 1; thread 1)\n"
        );
    }

    #[test]
    fn cuts_mark_the_cut() {
        assert_eq!(cut("abcdef", 3), "abc…");
        assert_eq!(cut("abc", 3), "abc");
    }
}

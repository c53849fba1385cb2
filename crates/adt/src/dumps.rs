//! Short dumps (ST22): the runtime error feed and one dump, read into typed values.
//!
//! Three resources, every fact below written in `DUMPS.md` of this crate with where it came
//! from:
//!
//! * `GET /sap/bc/adt/runtime/dumps` (`Accept: application/atom+xml;type=feed`): an Atom feed,
//!   one `atom:entry` per dump. The runtime error and the terminated program are two
//!   `atom:category` elements told apart by their `label` (`ABAP runtime error`, `Terminated
//!   ABAP program` on an English logon; translated on others, so the order is the fallback),
//!   the user is `atom:author/atom:name`, the time `atom:published`, the dump's address the
//!   `atom:link rel="self"` (`…/runtime/dump/<id>`), else the tail of `atom:id`.
//!   [`dumps_query`] writes the filters: `$query=and(equals(user,NAME))` and `from`/`to` as
//!   `YYYYMMDDhhmmss` (UTC).
//! * `GET /sap/bc/adt/runtime/dump/<id>` (`application/vnd.sap.adt.runtime.dump.v1+xml`): a
//!   `dump:dump` element whose attributes name the error, the exception class, the author, the
//!   terminated program and the time; `dump:links` (the formatted text, the termination point
//!   as a source URI ending in `#start=<line>`) and `dump:chapters` (name, title and the line
//!   of the formatted text where each chapter starts).
//! * `GET …/dump/<id>/formatted` (`text/plain`): the dump as text, a header table and one
//!   box of `|`-fenced rows per chapter. [`FormattedDump`] cuts it into chapters by the lines
//!   the document gives and reads the termination point, the active calls, the chosen
//!   variables and the source extract out of their chapters.
//!
//! Every reader is tolerant (unknown elements and attributes, any order, missing parts give
//! empty values) and never panics (`tests/fuzz.rs`).

use crate::codec::CodecError;
use crate::xml::{self, Element};

/// Where the feed lives.
pub const DUMPS_FEED: &str = "/sap/bc/adt/runtime/dumps";
/// Where one dump lives: `<DUMP>/<id>`.
pub const DUMP: &str = "/sap/bc/adt/runtime/dump";
/// The feed's content type.
pub const FEED_TYPE: &str = "application/atom+xml;type=feed";
/// One dump's document type.
pub const DUMP_TYPE: &str = "application/vnd.sap.adt.runtime.dump.v1+xml";
/// The relation of the link to the termination point.
pub const TERMINATION_RELATION: &str = "http://www.sap.com/adt/relations/runtime/dump/termination";

/// One entry of the dumps feed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DumpEntry {
    /// The dump's id as the system writes it in its address (percent-encoded: a real id holds
    /// blanks, `20261128101500host_SID_00   USER 001 01`).
    pub id: String,
    /// `COMPUTE_INT_ZERODIVIDE`.
    pub runtime_error: String,
    /// The terminated program (`ZCL_X=====CP`, a report).
    pub program: String,
    pub user: String,
    /// When it happened, as the feed writes it (ISO 8601, UTC: `2026-11-28T10:15:00Z`).
    pub time: String,
    /// `atom:title`, else the summary's text without its markup.
    pub short_text: String,
}

/// Filters of a feed request; empty ones are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DumpsFilter {
    pub user: Option<String>,
    /// `YYYYMMDDhhmmss`, UTC.
    pub from: Option<String>,
    /// `YYYYMMDDhhmmss`, UTC.
    pub to: Option<String>,
}

/// The query pairs of a feed request.
pub fn dumps_query(filter: &DumpsFilter) -> Vec<(&'static str, String)> {
    let mut pairs = Vec::new();
    if let Some(user) = filter
        .user
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty())
    {
        pairs.push((
            "$query",
            format!("and(equals(user,{}))", user.to_uppercase()),
        ));
    }
    if let Some(from) = filter.from.as_deref().filter(|s| !s.is_empty()) {
        pairs.push(("from", from.to_string()));
    }
    if let Some(to) = filter.to.as_deref().filter(|s| !s.is_empty()) {
        pairs.push(("to", to.to_string()));
    }
    pairs
}

/// The path of one dump (or of its `formatted` text): an id with anything but unreserved
/// characters and `%XX` escapes is percent-encoded first; a path that already holds the id
/// as the feed wrote it is sent as it is.
pub fn dump_path(id: &str, part: Option<&str>) -> String {
    let id = id.trim();
    let encoded = if is_encoded(id) {
        id.to_string()
    } else {
        crate::transport::encode(id)
    };
    match part {
        Some(p) => format!("{DUMP}/{encoded}/{p}"),
        None => format!("{DUMP}/{encoded}"),
    }
}

fn is_encoded(id: &str) -> bool {
    let b = id.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = |j: usize| b.get(j).is_some_and(u8::is_ascii_hexdigit);
                if !(hex(i + 1) && hex(i + 2)) {
                    return false;
                }
                i += 3;
            }
            c if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~') => i += 1,
            _ => return false,
        }
    }
    !id.is_empty()
}

/// Reads the dumps feed. An empty body is an empty feed.
pub fn parse_dumps_feed(body: &str) -> Result<Vec<DumpEntry>, CodecError> {
    if body.trim().is_empty() {
        return Ok(Vec::new());
    }
    let root = xml::parse(body)?;
    if root.name != "feed" {
        return Err(CodecError(format!(
            "expected an Atom feed, got <{}>",
            root.name
        )));
    }
    Ok(root.children_named("entry").filter_map(entry).collect())
}

fn entry(e: &Element) -> Option<DumpEntry> {
    let self_link = e
        .children_named("link")
        .find(|l| l.attr("rel") == Some("self"))
        .or_else(|| e.children_named("link").next())
        .and_then(|l| l.attr("href"));
    let id = self_link
        .and_then(|h| id_after(h, "/runtime/dump/"))
        .or_else(|| id_after(e.child_text("id"), "/runtime/dumps/"))
        .or_else(|| id_after(e.child_text("id"), "/runtime/dump/"))?;
    let categories: Vec<(&str, &str)> = e
        .children_named("category")
        .map(|c| {
            (
                c.attr("term").unwrap_or_default(),
                c.attr("label").unwrap_or_default(),
            )
        })
        .collect();
    let by_label = |want: &str| {
        categories
            .iter()
            .find(|(_, label)| label.to_ascii_lowercase().contains(want))
            .map(|(term, _)| term.to_string())
    };
    let runtime_error = by_label("runtime error")
        .or_else(|| categories.first().map(|(t, _)| t.to_string()))
        .unwrap_or_default();
    let program = by_label("program")
        .or_else(|| categories.get(1).map(|(t, _)| t.to_string()))
        .unwrap_or_default();
    let title = e.child_text("title").trim();
    let short_text = if title.is_empty() {
        strip_markup(e.child_text("summary"))
    } else {
        title.to_string()
    };
    let time = [e.child_text("published"), e.child_text("updated")]
        .into_iter()
        .map(str::trim)
        .find(|t| !t.is_empty())
        .unwrap_or_default()
        .to_string();
    Some(DumpEntry {
        id,
        runtime_error: runtime_error.trim().to_string(),
        program: program.trim().to_string(),
        user: e
            .child("author")
            .map(|a| a.child_text("name").trim().to_string())
            .unwrap_or_default(),
        time,
        short_text,
    })
}

/// The path segment after `marker` (up to `/`, `?` or `#`), if not empty.
fn id_after(href: &str, marker: &str) -> Option<String> {
    let start = href.find(marker)? + marker.len();
    let tail = &href[start..];
    let end = tail.find(['/', '?', '#']).unwrap_or(tail.len());
    let id = tail[..end].trim();
    (!id.is_empty()).then(|| id.to_string())
}

/// The text of an HTML fragment: tags dropped, the usual entities decoded, blanks collapsed.
fn strip_markup(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let decoded = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One link of a dump document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DumpLink {
    pub relation: String,
    pub uri: String,
    pub content_type: String,
}

/// One chapter of a dump document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DumpChapter {
    /// `kap0`.
    pub name: String,
    /// `Short Text`.
    pub title: String,
    /// `ABAP Developer View`.
    pub category: String,
    /// The 1-based line of the formatted text where the chapter starts (its title row); 0
    /// when not given.
    pub line: u32,
    pub order: u32,
}

/// The `dump:dump` document of one dump.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DumpDocument {
    pub title: String,
    /// The runtime error (`error`).
    pub runtime_error: String,
    /// The exception class of a class-based error; empty otherwise.
    pub exception: String,
    /// `author`.
    pub user: String,
    /// `terminatedProgram`.
    pub program: String,
    /// `datetime` (ISO 8601, UTC).
    pub time: String,
    pub links: Vec<DumpLink>,
    pub chapters: Vec<DumpChapter>,
}

impl DumpDocument {
    /// The termination point: its source URI without the fragment and the line of
    /// `#start=<line>` (0 when the link has none).
    pub fn termination(&self) -> Option<(String, u32)> {
        let link = self
            .links
            .iter()
            .find(|l| l.relation == TERMINATION_RELATION)?;
        let uri = link.uri.trim();
        // `adt://SID/sap/bc/adt/…`: the path from `/sap/`.
        let uri = match uri.strip_prefix("adt://") {
            Some(rest) => rest.find('/').map_or(rest, |i| &rest[i..]),
            None => uri,
        };
        let (path, fragment) = uri.split_once('#').unwrap_or((uri, ""));
        let line = crate::codec::fragment_line(&format!("#{fragment}")).unwrap_or(0);
        (!path.is_empty()).then(|| (path.to_string(), line))
    }
}

/// Reads a `dump:dump` document.
pub fn parse_dump(body: &str) -> Result<DumpDocument, CodecError> {
    let root = xml::parse(body)?;
    if root.name != "dump" {
        return Err(CodecError(format!(
            "expected a dump document, got <{}>",
            root.name
        )));
    }
    let a = |name: &str| root.attr(name).unwrap_or_default().trim().to_string();
    let links = root
        .children_named("links")
        .flat_map(|l| l.children_named("link"))
        .map(|l| DumpLink {
            relation: l.attr("relation").unwrap_or_default().to_string(),
            uri: l.attr("uri").unwrap_or_default().to_string(),
            content_type: l.attr("contentType").unwrap_or_default().to_string(),
        })
        .collect();
    let chapters = root
        .children_named("chapters")
        .flat_map(|c| c.children_named("chapter"))
        .map(|c| {
            let n = |name: &str| {
                c.attr(name)
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0)
            };
            DumpChapter {
                name: c.attr("name").unwrap_or_default().to_string(),
                title: c.attr("title").unwrap_or_default().trim().to_string(),
                category: c.attr("category").unwrap_or_default().to_string(),
                line: n("line"),
                order: n("chapterOrder"),
            }
        })
        .collect();
    Ok(DumpDocument {
        title: a("title"),
        runtime_error: a("error"),
        exception: a("exception"),
        user: a("author"),
        program: a("terminatedProgram"),
        time: a("datetime"),
        links,
        chapters,
    })
}

/// The formatted text of a dump, cut into its chapters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FormattedDump {
    /// The header table above the first chapter: (label, value).
    pub header: Vec<(String, String)>,
    /// (title, text) in the text's order; a chapter's text is its rows without the fences,
    /// trailing blanks and the rules of dashes, indentation kept.
    pub chapters: Vec<(String, String)>,
}

/// One active call of the dump's stack, innermost first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DumpCall {
    /// `METHOD`, `FORM`, `FUNCTION`, `EVENT`.
    pub event_type: String,
    pub program: String,
    pub include: String,
    /// The line in `include`.
    pub line: u32,
    /// `ZCL_X=>DIVIDE`, a form's or function's name.
    pub name: String,
}

/// One chosen variable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DumpVariable {
    /// The procedure whose variable it is (`ZCL_X=>DIVIDE`).
    pub frame: String,
    pub name: String,
    /// The displayed value (its first row; the hex rows under it are left out).
    pub value: String,
}

/// One line of the source extract.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DumpSourceLine {
    pub line: u32,
    pub text: String,
    /// The line the error occurred on (marked `>>>>>`).
    pub current: bool,
}

/// Where the program was terminated, as the chapter "Information on where terminated" says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Termination {
    pub program: String,
    pub include: String,
    /// The line in `include`.
    pub line: u32,
    /// The procedure (`DIVIDE`).
    pub procedure: String,
}

/// Cuts the formatted text into its chapters: at the lines `chapters` gives, else at every
/// box whose first row follows a rule of dashes.
pub fn parse_formatted(text: &str, chapters: &[DumpChapter]) -> FormattedDump {
    let lines: Vec<&str> = text.lines().collect();
    let mut starts: Vec<usize> = chapters
        .iter()
        .filter(|c| c.line > 0)
        .map(|c| (c.line - 1) as usize)
        .filter(|&i| i < lines.len())
        .collect();
    if starts.is_empty() {
        // A title row: fenced, right after a rule, after a blank line (or at the top).
        starts = (1..lines.len())
            .filter(|&i| {
                fenced(lines[i]).is_some()
                    && is_rule(lines[i - 1])
                    && (i < 2 || lines[i - 2].trim().is_empty())
            })
            .collect();
    }
    starts.sort_unstable();
    starts.dedup();
    let header_end = starts.first().copied().unwrap_or(lines.len());
    let header = lines[..header_end]
        .iter()
        .filter(|l| !is_rule(l) && fenced(l).is_none())
        .filter_map(|l| header_row(l))
        .collect();
    let mut out = Vec::new();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(lines.len());
        let Some(title) = lines.get(start).and_then(|l| fenced(l)) else {
            continue;
        };
        let body: Vec<&str> = lines[start + 1..end]
            .iter()
            .filter(|l| !is_rule(l))
            .filter_map(|l| fenced(l))
            .collect();
        out.push((title.trim().to_string(), body.join("\n")));
    }
    FormattedDump {
        header,
        chapters: out,
    }
}

/// The inside of a `|…|` row, trailing blanks removed.
fn fenced(line: &str) -> Option<&str> {
    let t = line.trim_end();
    let inner = t.strip_prefix('|')?;
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    Some(inner.trim_end())
}

fn is_rule(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 4 && t.bytes().all(|b| b == b'-' || b == b'=')
}

/// `Label   value` (two or more blanks between).
fn header_row(line: &str) -> Option<(String, String)> {
    if line.starts_with(' ') {
        return None;
    }
    let t = line.trim_end();
    let gap = t.find("  ")?;
    let (label, value) = (t[..gap].trim(), t[gap..].trim());
    (!label.is_empty() && !value.is_empty()).then(|| (label.to_string(), value.to_string()))
}

impl FormattedDump {
    /// The text of the first chapter whose title starts with one of `titles` (any case).
    pub fn chapter(&self, titles: &[&str]) -> Option<&str> {
        self.chapters
            .iter()
            .find(|(t, _)| {
                let t = t.to_ascii_lowercase();
                titles
                    .iter()
                    .any(|w| t.starts_with(&w.to_ascii_lowercase()))
            })
            .map(|(_, body)| body.as_str())
    }

    /// A value of the header table (`Runtime Errors`, `Except.`).
    pub fn header(&self, label: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(l, _)| l.eq_ignore_ascii_case(label))
            .map(|(_, v)| v.as_str())
    }

    /// The chapter "Short Text", its rows joined.
    pub fn short_text(&self) -> String {
        self.chapter(&["Short Text"])
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    }

    /// The termination point the chapter "Information on where terminated" names.
    pub fn termination(&self) -> Termination {
        let Some(text) = self.chapter(&["Information on where terminated"]) else {
            return Termination::default();
        };
        let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut t = Termination::default();
        if let Some(rest) = after(&joined, "termination point is in line ") {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            t.line = digits.parse().unwrap_or(0);
            if let Some(inc) = after(rest, "of include \"") {
                t.include = inc.split('"').next().unwrap_or_default().trim().to_string();
            }
        }
        if let Some(rest) = after(&joined, "ABAP program or include \"") {
            t.program = rest
                .split('"')
                .next()
                .unwrap_or_default()
                .trim()
                .to_string();
            if let Some(proc_) = after(rest, "\", in \"") {
                t.procedure = proc_
                    .split('"')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_string();
            }
        }
        t
    }

    /// The chapter "Active Calls/Events": rows `No. Ty. Program Include Line`, each followed
    /// by a row with the procedure's name; innermost first, as the chapter lists them.
    pub fn calls(&self) -> Vec<DumpCall> {
        let Some(text) = self.chapter(&["Active Calls"]) else {
            return Vec::new();
        };
        let mut calls: Vec<DumpCall> = Vec::new();
        let mut expect_name = false;
        for row in text.lines() {
            let words: Vec<&str> = row.split_whitespace().collect();
            let numbered = words.len() >= 5
                && words[0].bytes().all(|b| b.is_ascii_digit())
                && words[4].bytes().all(|b| b.is_ascii_digit());
            if numbered {
                calls.push(DumpCall {
                    event_type: words[1].to_string(),
                    program: words[2].to_string(),
                    include: words[3].to_string(),
                    line: words[4].parse().unwrap_or(0),
                    name: String::new(),
                });
                expect_name = true;
            } else if expect_name && row.starts_with(' ') && !words.is_empty() {
                if let Some(last) = calls.last_mut() {
                    last.name = words.join(" ");
                }
                expect_name = false;
            }
        }
        calls
    }

    /// The chapter "Chosen Variables" (older releases) or "Selected Variables": per
    /// procedure a `No. n Ty. …` row and a `Name <procedure>` row, then each variable as a
    /// row at the left margin with its value indented below.
    pub fn variables(&self) -> Vec<DumpVariable> {
        let Some(text) = self.chapter(&["Chosen Variables", "Selected Variables"]) else {
            return Vec::new();
        };
        let mut out: Vec<DumpVariable> = Vec::new();
        let mut frame = String::new();
        let mut value_rows = 0;
        for row in text.lines() {
            let trimmed = row.trim();
            if trimmed.is_empty() || trimmed == "Name" || trimmed == "Val." {
                continue;
            }
            if trimmed.starts_with("No.") && trimmed.contains("Ty.") {
                continue;
            }
            if let Some(name) = row.strip_prefix("Name ") {
                frame = name.trim().to_string();
                value_rows = 0;
                continue;
            }
            if row.starts_with(' ') {
                if value_rows == 0
                    && let Some(v) = out.last_mut()
                {
                    v.value = trimmed.to_string();
                }
                value_rows += 1;
            } else {
                out.push(DumpVariable {
                    frame: frame.clone(),
                    name: trimmed.to_string(),
                    value: String::new(),
                });
                value_rows = 0;
            }
        }
        out
    }

    /// The chapter "Source Code Extract": rows `|<line>|<text>`, the failing line marked
    /// `>>>>>` (its number the one after the row before it).
    pub fn source(&self) -> Vec<DumpSourceLine> {
        let Some(text) = self.chapter(&["Source Code Extract"]) else {
            return Vec::new();
        };
        let mut out: Vec<DumpSourceLine> = Vec::new();
        for row in text.lines() {
            let Some((number, code)) = row.split_once('|') else {
                continue;
            };
            let number = number.trim();
            let (line, current) = if number.starts_with(">>>") {
                (out.last().map_or(1, |l| l.line + 1), true)
            } else {
                match number.parse() {
                    Ok(n) => (n, false),
                    Err(_) => continue,
                }
            };
            out.push(DumpSourceLine {
                line,
                text: code.trim_end().to_string(),
                current,
            });
        }
        out
    }
}

fn after<'a>(text: &'a str, marker: &str) -> Option<&'a str> {
    text.find(marker).map(|i| &text[i + marker.len()..])
}

/// `YYYYMMDDhhmmss` (UTC) of `secs` since 1970: the feed's `from`/`to` form.
pub fn stamp_of_unix(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Days to a civil date, proleptic Gregorian, from 1970-01-01.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// `YYYYMMDDhhmmss` of an ISO 8601 time or date (`2026-11-28T10:15:00Z`, `2026-11-28`,
/// `20261128101500`): its first 14 digits, a date's time 00:00:00. `None` without a date.
pub fn stamp_of_iso(text: &str) -> Option<String> {
    let digits: String = text
        .chars()
        .take_while(|c| !matches!(c, '+' | '.'))
        .filter(char::is_ascii_digit)
        .take(14)
        .collect();
    (digits.len() == 8 || digits.len() == 12 || digits.len() == 14)
        .then(|| format!("{digits:0<14}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_sent_as_the_feed_wrote_them_or_encoded() {
        assert_eq!(
            dump_path(
                "20261128101500localhost_SIM_00%20%20%20DEVELOPER%20001%2001",
                None
            ),
            "/sap/bc/adt/runtime/dump/20261128101500localhost_SIM_00%20%20%20DEVELOPER%20001%2001"
        );
        assert_eq!(
            dump_path("2026 X/Y", Some("formatted")),
            "/sap/bc/adt/runtime/dump/2026%20X%2FY/formatted"
        );
        assert!(!is_encoded("%2"));
        assert!(!is_encoded(""));
    }

    #[test]
    fn the_query_names_the_user_and_the_time_range() {
        let q = dumps_query(&DumpsFilter {
            user: Some("developer".into()),
            from: Some("20261128000000".into()),
            to: None,
        });
        assert_eq!(
            q,
            vec![
                ("$query", "and(equals(user,DEVELOPER))".to_string()),
                ("from", "20261128000000".to_string())
            ]
        );
        assert!(dumps_query(&DumpsFilter::default()).is_empty());
    }

    #[test]
    fn stamps() {
        assert_eq!(stamp_of_unix(0), "19700101000000");
        assert_eq!(stamp_of_unix(951_782_400), "20000229000000");
        assert_eq!(stamp_of_unix(1_795_169_700), "20261120101500");
        assert_eq!(
            stamp_of_iso("2026-11-20T10:15:00Z").as_deref(),
            Some("20261120101500")
        );
        assert_eq!(
            stamp_of_iso("2026-11-20").as_deref(),
            Some("20261120000000")
        );
        assert_eq!(stamp_of_iso("1h"), None);
    }

    #[test]
    fn markup_is_stripped_from_a_summary() {
        assert_eq!(
            strip_markup("<p>Division &amp; <b>zero</b></p>"),
            "Division & zero"
        );
    }
}

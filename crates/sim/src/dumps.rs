//! Short dumps: every run that ends in a runtime error no handler catches (and every program
//! the debugger terminates) is kept here with the stack, the chosen variables and the source
//! around the termination point, and served as real systems serve ST22:
//!
//! * `GET /sap/bc/adt/runtime/dumps` — the Atom feed, newest first, filtered by `$query`
//!   (`and`/`or`/`not` over `equals`, `greaterThan`, `lessThan` of `user`, `error`,
//!   `exception`, `program`, `datetime`), `from`/`to` (`YYYYMMDDhhmmss`) and `$top`;
//! * `GET /sap/bc/adt/runtime/dump/<id>` — the `dump:dump` document;
//! * `…/<id>/formatted` (`text/plain`) and `…/<id>/summary` (`text/html`).
//!
//! The shapes follow the captures `crates/adt/DUMPS.md` lists; the choices are in
//! SIMULATOR.md (Short dumps). Dumps are kept per user, at most [`PER_USER`] each, the oldest
//! dropped first; they live as long as the simulator.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use abap::{Location, ObjectKind, RuntimeError, StopContext};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::debuggee::DebuggeeEntry;
use crate::errors;
use crate::state::{INSTANCE, SID, Shared, lock};
use crate::xml::{XML_DECL, attr, esc};

/// Dumps kept per user.
pub(crate) const PER_USER: usize = 50;
/// Variables kept per frame, frames whose variables are kept, characters of a value.
const VARS_PER_FRAME: usize = 40;
const FRAMES_WITH_VARS: usize = 8;
const VALUE_CHARS: usize = 200;
/// Source lines shown before and after the termination point.
const SOURCE_AROUND: u32 = 5;
/// Width of the formatted text's boxes.
const WIDTH: usize = 100;

/// One kept dump.
#[derive(Debug)]
pub(crate) struct Dump {
    /// As a real system forms it: time, instance, user, client and a counter, blank-separated.
    pub id: String,
    /// Seconds since 1970 (UTC).
    pub secs: u64,
    pub user: String,
    pub runtime_error: String,
    pub exception: Option<String>,
    pub short_text: String,
    /// The stack, innermost first (empty when the run had no frame).
    pub calls: Vec<Location>,
    /// (procedure, name, value) of the innermost frames.
    pub variables: Vec<(String, String, String)>,
    /// (line in the include, text, the termination line) around the termination point.
    pub source: Vec<(u32, String, bool)>,
}

impl Dump {
    fn encoded_id(&self) -> String {
        self.id.replace(' ', "%20")
    }

    fn program(&self) -> &str {
        self.calls.first().map_or("", |l| l.program.as_str())
    }
}

#[derive(Debug, Default)]
struct Store {
    counter: u64,
    by_user: BTreeMap<String, VecDeque<Arc<Dump>>>,
}

/// The dumps of every user.
#[derive(Debug, Default)]
pub(crate) struct DumpStore {
    inner: Mutex<Store>,
}

impl DumpStore {
    fn add(&self, mut make: impl FnMut(u64) -> Dump) -> Arc<Dump> {
        let mut st = lock(&self.inner);
        st.counter += 1;
        let dump = Arc::new(make(st.counter));
        let list = st.by_user.entry(dump.user.clone()).or_default();
        list.push_front(dump.clone());
        list.truncate(PER_USER);
        dump
    }

    /// Every dump, newest first.
    fn all(&self) -> Vec<Arc<Dump>> {
        let st = lock(&self.inner);
        let mut all: Vec<Arc<Dump>> = st.by_user.values().flatten().cloned().collect();
        all.sort_by(|a, b| b.secs.cmp(&a.secs).then_with(|| b.id.cmp(&a.id)));
        all
    }

    fn find(&self, id: &str) -> Option<Arc<Dump>> {
        let st = lock(&self.inner);
        st.by_user.values().flatten().find(|d| d.id == id).cloned()
    }
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A runtime error of the run `entry` at the statement `ctx` is at.
pub(crate) fn record(
    shared: &Shared,
    entry: &DebuggeeEntry,
    ctx: &dyn StopContext,
    error: &RuntimeError,
) {
    keep(
        shared,
        entry,
        ctx,
        &error.id,
        &error.text,
        error.exception.clone(),
    );
}

/// A program the debugger terminated, at the statement it was stopped at (our choice: kept as
/// the runtime error `SYSTEM_CANCELED`).
pub(crate) fn record_terminated(shared: &Shared, entry: &DebuggeeEntry, ctx: &dyn StopContext) {
    keep(
        shared,
        entry,
        ctx,
        "SYSTEM_CANCELED",
        "The program was terminated in the debugger",
        None,
    );
}

fn keep(
    shared: &Shared,
    entry: &DebuggeeEntry,
    ctx: &dyn StopContext,
    runtime_error: &str,
    text: &str,
    exception: Option<String>,
) {
    let calls: Vec<Location> = ctx.stack().into_iter().map(|f| f.location).collect();
    let variables = chosen_variables(ctx, &calls);
    let source = calls
        .first()
        .map(|loc| source_extract(shared, loc))
        .unwrap_or_default();
    let secs = now_secs();
    let dump = shared.dumps.add(|n| Dump {
        id: format!(
            "{}{INSTANCE:<20}{} {} {:02}",
            compact_stamp(secs),
            entry.user,
            entry.client,
            n % 100
        ),
        secs,
        user: entry.user.clone(),
        runtime_error: runtime_error.to_string(),
        exception: exception.clone(),
        short_text: text.to_string(),
        calls: calls.clone(),
        variables: variables.clone(),
        source: source.clone(),
    });
    tracing::info!(
        "runtime error {} of {} kept as dump {}",
        dump.runtime_error,
        dump.user,
        dump.id
    );
}

/// `ZCL_X=>DIVIDE` for a method, the name alone for other procedures.
fn procedure(loc: &Location) -> String {
    match loc.kind {
        ObjectKind::Class | ObjectKind::Interface if loc.event_type == "METHOD" => {
            format!("{}=>{}", loc.object, loc.event_name)
        }
        _ => loc.event_name.clone(),
    }
}

fn chosen_variables(ctx: &dyn StopContext, calls: &[Location]) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for (frame, loc) in calls.iter().enumerate().take(FRAMES_WITH_VARS) {
        let mut kept = 0;
        for scope in ctx.scopes(frame) {
            if !matches!(scope.id.as_str(), "@PARAMETERS" | "@LOCALS") {
                continue;
            }
            for r in ctx.children(frame, &scope.id).unwrap_or_default() {
                if kept == VARS_PER_FRAME {
                    break;
                }
                kept += 1;
                let value: String = r.value.trim_end().chars().take(VALUE_CHARS).collect();
                out.push((procedure(loc), r.name.to_uppercase(), value));
            }
        }
    }
    out
}

fn source_extract(shared: &Shared, loc: &Location) -> Vec<(u32, String, bool)> {
    let Some(text) = shared.repo.source(&loc.object, loc.part) else {
        return Vec::new();
    };
    let first = loc.line.saturating_sub(SOURCE_AROUND).max(1);
    text.lines()
        .enumerate()
        .map(|(i, l)| (i as u32 + 1, l))
        .filter(|(n, _)| *n >= first && *n <= loc.line + SOURCE_AROUND)
        .filter_map(|(n, l)| {
            // Numbered as the include numbers them (a method include starts at METHOD).
            let in_include = i64::from(loc.include_line) + i64::from(n) - i64::from(loc.line);
            (in_include >= 1).then(|| (in_include as u32, l.to_string(), n == loc.line))
        })
        .collect()
}

// ------------------------------------------------------------------------------ time

/// (year, month, day, hour, minute, second) of `secs` since 1970, UTC.
fn civil(secs: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Days to a civil date (the proleptic Gregorian calendar, from 1970-01-01).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = (if mp < 10 { mp + 3 } else { mp - 9 }) as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        month,
        day,
        (rem / 3600) as u32,
        (rem % 3600 / 60) as u32,
        (rem % 60) as u32,
    )
}

/// `2026-11-28T10:15:00Z`.
pub(crate) fn iso(secs: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// `20261128101500`.
fn compact_stamp(secs: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("{y:04}{mo:02}{d:02}{h:02}{mi:02}{s:02}")
}

/// `YYYYMMDDhhmmss`, or ISO 8601 (`2026-11-28T10:15:00Z`): the digits compared as a stamp.
fn stamp_of(text: &str) -> Option<String> {
    let digits: String = text.chars().filter(char::is_ascii_digit).take(14).collect();
    (digits.len() >= 8).then(|| format!("{digits:0<14}"))
}

// ------------------------------------------------------------------------------ the feed

/// A `$query` expression.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Query {
    And(Vec<Query>),
    Or(Vec<Query>),
    Not(Box<Query>),
    Compare(Op, Attr, String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Equals,
    GreaterThan,
    LessThan,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Attr {
    User,
    Error,
    Exception,
    Program,
    Datetime,
}

/// Bound on a query's nesting: what a client writes is flat.
const MAX_QUERY_DEPTH: usize = 16;

fn parse_query(text: &str) -> Result<Query, String> {
    let mut p = QueryParser { s: text, pos: 0 };
    let q = p.expr(0)?;
    p.blank();
    if p.pos != p.s.len() {
        return Err(format!("unexpected text after position {}", p.pos));
    }
    Ok(q)
}

struct QueryParser<'a> {
    s: &'a str,
    pos: usize,
}

impl QueryParser<'_> {
    fn blank(&mut self) {
        while self.s[self.pos..].starts_with([' ', '\t']) {
            self.pos += 1;
        }
    }

    /// Up to one of `(`, `)`, `,`.
    fn word(&mut self) -> String {
        self.blank();
        let rest = &self.s[self.pos..];
        let end = rest.find(['(', ')', ',']).unwrap_or(rest.len());
        self.pos += end;
        rest[..end].trim().to_string()
    }

    fn eat(&mut self, c: char) -> Result<(), String> {
        self.blank();
        if self.s[self.pos..].starts_with(c) {
            self.pos += c.len_utf8();
            Ok(())
        } else {
            Err(format!("'{c}' expected at position {}", self.pos))
        }
    }

    fn expr(&mut self, depth: usize) -> Result<Query, String> {
        if depth > MAX_QUERY_DEPTH {
            return Err("the query nests too deep".into());
        }
        let name = self.word();
        self.eat('(')?;
        let q = match name.as_str() {
            "and" | "or" => {
                let mut parts = vec![self.expr(depth + 1)?];
                loop {
                    self.blank();
                    if self.s[self.pos..].starts_with(',') {
                        self.pos += 1;
                        parts.push(self.expr(depth + 1)?);
                    } else {
                        break;
                    }
                }
                if name == "and" {
                    Query::And(parts)
                } else {
                    Query::Or(parts)
                }
            }
            "not" => Query::Not(Box::new(self.expr(depth + 1)?)),
            "equals" | "greaterThan" | "lessThan" => {
                let op = match name.as_str() {
                    "equals" => Op::Equals,
                    "greaterThan" => Op::GreaterThan,
                    _ => Op::LessThan,
                };
                let attr = match self.word().as_str() {
                    "user" | "author" => Attr::User,
                    "error" | "runtimeError" => Attr::Error,
                    "exception" => Attr::Exception,
                    "program" | "terminatedProgram" => Attr::Program,
                    "datetime" => Attr::Datetime,
                    other => return Err(format!("unknown attribute '{other}'")),
                };
                self.eat(',')?;
                let value = self.word();
                Query::Compare(op, attr, value)
            }
            other => return Err(format!("unknown operator '{other}'")),
        };
        self.eat(')')?;
        Ok(q)
    }
}

impl Query {
    fn holds(&self, d: &Dump) -> bool {
        match self {
            Query::And(parts) => parts.iter().all(|q| q.holds(d)),
            Query::Or(parts) => parts.iter().any(|q| q.holds(d)),
            Query::Not(q) => !q.holds(d),
            Query::Compare(op, attr, value) => {
                let (have, want) = match attr {
                    Attr::User => (d.user.clone(), value.to_uppercase()),
                    Attr::Error => (d.runtime_error.clone(), value.to_uppercase()),
                    Attr::Exception => (
                        d.exception.clone().unwrap_or_default(),
                        value.to_uppercase(),
                    ),
                    Attr::Program => (d.program().to_string(), value.to_uppercase()),
                    Attr::Datetime => match stamp_of(value) {
                        Some(want) => (compact_stamp(d.secs), want),
                        None => return false,
                    },
                };
                match op {
                    Op::Equals => have == want,
                    Op::GreaterThan => have > want,
                    Op::LessThan => have < want,
                }
            }
        }
    }
}

fn xml_answer(content_type: &'static str, body: String) -> Response {
    let mut r = (StatusCode::OK, body).into_response();
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}

/// `GET /sap/bc/adt/runtime/dumps`.
pub(crate) fn feed(shared: &Shared, query: &[(String, String)]) -> Response {
    let value = |k: &str| {
        query
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty())
    };
    let filter = match value("$query").map(parse_query).transpose() {
        Ok(q) => q,
        Err(e) => return errors::invalid_data(format!("Invalid query: {e}")).into_response(),
    };
    let from = value("from").and_then(stamp_of);
    let to = value("to").and_then(stamp_of);
    let top = value("$top")
        .and_then(|t| t.parse::<usize>().ok())
        .unwrap_or(usize::MAX);
    let dumps: Vec<Arc<Dump>> = shared
        .dumps
        .all()
        .into_iter()
        .filter(|d| filter.as_ref().is_none_or(|q| q.holds(d)))
        .filter(|d| {
            let stamp = compact_stamp(d.secs);
            from.as_ref().is_none_or(|f| stamp >= *f) && to.as_ref().is_none_or(|t| stamp <= *t)
        })
        .take(top)
        .collect();
    xml_answer(
        "application/atom+xml;type=feed; charset=utf-8",
        feed_xml(&dumps),
    )
}

fn feed_xml(dumps: &[Arc<Dump>]) -> String {
    let mut s = String::from(XML_DECL);
    s.push_str("<atom:feed xmlns:atom=\"http://www.w3.org/2005/Atom\">");
    s.push_str("<atom:author><atom:name>SAP SE</atom:name></atom:author>");
    s.push_str(&format!(
        "<atom:contributor><atom:name>{SID}</atom:name></atom:contributor>"
    ));
    s.push_str(
        "<atom:link href=\"/sap/bc/adt/runtime/dumps?sap-client=001&amp;sap-language=EN\" \
         rel=\"self\" type=\"application/atom+xml\"/>",
    );
    s.push_str("<atom:title>ABAP Short Dump Analysis: Selected ABAP Runtime Errors</atom:title>");
    s.push_str(&format!("<atom:updated>{}</atom:updated>", iso(now_secs())));
    for d in dumps {
        s.push_str("<atom:entry xml:lang=\"EN\"><atom:author");
        attr(&mut s, "FullName", &d.user);
        s.push_str(&format!(
            "><atom:name>{}</atom:name></atom:author>",
            esc(&d.user)
        ));
        s.push_str("<atom:category");
        attr(&mut s, "term", &d.runtime_error);
        attr(&mut s, "label", "ABAP runtime error");
        s.push_str("/><atom:category");
        attr(&mut s, "term", d.program());
        attr(&mut s, "label", "Terminated ABAP program");
        s.push_str("/>");
        let id = d.encoded_id();
        s.push_str(&format!(
            "<atom:id>/sap/bc/adt/vit/runtime/dumps/{}</atom:id>",
            esc(&id)
        ));
        s.push_str("<atom:link");
        attr(
            &mut s,
            "href",
            &format!("adt://{SID}/sap/bc/adt/runtime/dump/{id}"),
        );
        attr(&mut s, "rel", "self");
        attr(&mut s, "type", "text/plain");
        s.push_str("/>");
        s.push_str(&format!("<atom:published>{}</atom:published>", iso(d.secs)));
        s.push_str(&format!("<atom:title>{}</atom:title>", esc(&d.short_text)));
        let summary = format!(
            "<p>{}</p><p>{} {}</p>",
            html_escape(&d.short_text),
            html_escape(&d.runtime_error),
            html_escape(d.program())
        );
        s.push_str(&format!(
            "<atom:summary type=\"html\">{}</atom:summary>",
            esc(&summary)
        ));
        s.push_str("</atom:entry>");
    }
    s.push_str("</atom:feed>");
    s
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

// ------------------------------------------------------------------------------ one dump

/// `GET /sap/bc/adt/runtime/dump/<id>[/formatted|/summary]`; `rest` is the path after
/// `/dump/`, as sent (percent-encoded).
pub(crate) fn resource(shared: &Shared, rest: &str) -> Response {
    let (raw_id, part) = match rest.split_once('/') {
        Some((id, part)) => (id, Some(part)),
        None => (rest, None),
    };
    let id = percent_encoding::percent_decode_str(raw_id)
        .decode_utf8_lossy()
        .into_owned();
    let Some(dump) = shared.dumps.find(&id) else {
        return errors::not_found(format!("Runtime error {id} does not exist")).into_response();
    };
    let (text, chapters) = formatted(&dump);
    match part {
        None => xml_answer(
            "application/vnd.sap.adt.runtime.dump.v1+xml; charset=utf-8",
            document(&dump, &chapters),
        ),
        Some("formatted") => xml_answer("text/plain; charset=utf-8", text),
        Some("summary") => xml_answer(
            "text/html; charset=utf-8",
            format!(
                "<html><body><pre>{}</pre></body></html>",
                html_escape(&text)
            ),
        ),
        Some(other) => errors::not_found(format!("Resource {other} of dump {id} does not exist"))
            .into_response(),
    }
}

/// One chapter of the formatted text: (name, title, category, line of its title row).
type Chapter = (&'static str, &'static str, &'static str, usize);

fn document(d: &Dump, chapters: &[Chapter]) -> String {
    let (y, mo, day, h, mi, sec) = civil(d.secs);
    let date = format!("{day:02}.{mo:02}.{y:04}");
    let time = format!("{h:02}:{mi:02}:{sec:02}");
    let id = d.encoded_id();
    let mut s = String::from(XML_DECL);
    s.push_str("<dump:dump");
    attr(
        &mut s,
        "title",
        &format!(
            "Runtime Error: {} {date} {time} {} ({})",
            d.runtime_error, d.user, d.user
        ),
    );
    attr(&mut s, "error", &d.runtime_error);
    attr(&mut s, "author", &d.user);
    if let Some(e) = &d.exception {
        attr(&mut s, "exception", e);
    }
    attr(&mut s, "terminatedProgram", d.program());
    attr(&mut s, "serverInstance", INSTANCE);
    attr(&mut s, "datetime", &iso(d.secs));
    attr(&mut s, "systemDate", &date);
    attr(&mut s, "systemTime", &time);
    attr(&mut s, "language", "EN");
    attr(
        &mut s,
        "xmlns:dump",
        "http://www.sap.com/adt/categories/dump",
    );
    s.push_str("><dump:links>");
    let base = format!("/sap/bc/adt/runtime/dump/{id}");
    let mut link = |relation: &str, uri: &str, content_type: &str| {
        s.push_str("<dump:link");
        attr(&mut s, "relation", relation);
        attr(&mut s, "uri", uri);
        attr(&mut s, "contentType", content_type);
        s.push_str("/>");
    };
    link("contents", &format!("{base}/formatted"), "text/plain");
    link("self", &base, "application/vnd.sap.adt.runtime.dump.v1+xml");
    if let Some(loc) = d.calls.first() {
        link(
            "http://www.sap.com/adt/relations/runtime/dump/termination",
            &format!("adt://{SID}{}", crate::uri::location_uri(loc, false)),
            "",
        );
    }
    link(
        "http://www.sap.com/adt/relations/runtime/dump/summary",
        &format!("{base}/summary"),
        "text/html",
    );
    s.push_str("</dump:links><dump:chapters>");
    for (i, (name, title, category, line)) in chapters.iter().enumerate() {
        s.push_str("<dump:chapter");
        attr(&mut s, "name", name);
        attr(&mut s, "title", title);
        attr(&mut s, "category", category);
        attr(&mut s, "line", &line.to_string());
        attr(&mut s, "chapterOrder", &(i + 1).to_string());
        attr(
            &mut s,
            "categoryOrder",
            if *category == "User View" { "2" } else { "3" },
        );
        s.push_str("/>");
    }
    s.push_str("</dump:chapters></dump:dump>");
    s
}

/// The formatted text and where its chapters start.
struct Text {
    lines: Vec<String>,
    chapters: Vec<Chapter>,
}

impl Text {
    fn rule(&mut self) {
        self.lines.push("-".repeat(WIDTH));
    }

    /// One box: a rule, the title row, the rows, a rule, a blank line.
    fn chapter(
        &mut self,
        name: &'static str,
        title: &'static str,
        category: &'static str,
        rows: &[String],
    ) {
        self.rule();
        self.chapters
            .push((name, title, category, self.lines.len() + 1));
        self.row(title);
        for r in rows {
            if r == "---" {
                self.rule();
            } else {
                self.row(r);
            }
        }
        self.rule();
        self.lines.push(String::new());
    }

    fn row(&mut self, text: &str) {
        let inner = WIDTH - 2;
        let text: String = text.chars().take(inner).collect();
        self.lines.push(format!("|{text:<inner$}|"));
    }
}

/// Wraps `text` into rows of at most `width` characters, indented by four blanks.
fn wrapped(text: &str, width: usize) -> Vec<String> {
    let mut rows = Vec::new();
    for para in text.split('\n') {
        let mut row = String::from("   ");
        for word in para.split_whitespace() {
            if row.len() + 1 + word.len() > width && !row.trim().is_empty() {
                rows.push(std::mem::replace(&mut row, String::from("   ")));
            }
            row.push(' ');
            row.push_str(word);
        }
        rows.push(if row.trim().is_empty() {
            String::new()
        } else {
            row
        });
    }
    rows
}

fn formatted(d: &Dump) -> (String, Vec<Chapter>) {
    let mut t = Text {
        lines: Vec::new(),
        chapters: Vec::new(),
    };
    let (y, mo, day, h, mi, sec) = civil(d.secs);
    let top = d.calls.first();
    let program = d.program().to_string();
    t.rule();
    let category = if d.runtime_error == "SYSTEM_CANCELED" {
        "Internal kernel error"
    } else {
        "ABAP programming error"
    };
    let mut header = vec![("Category", category.to_string())];
    header.push(("Runtime Errors", d.runtime_error.clone()));
    if let Some(e) = &d.exception {
        header.push(("Except.", e.clone()));
    }
    header.push(("ABAP: Program", program.clone()));
    header.push(("Application Component", "Not assigned".to_string()));
    header.push((
        "Date and Time",
        format!("{day:02}.{mo:02}.{y:04} {h:02}:{mi:02}:{sec:02} (UTC)"),
    ));
    for (label, value) in header {
        t.lines.push(format!("{label:<23}{value}"));
    }
    t.rule();
    t.lines.push(String::new());
    let width = WIDTH - 8;
    t.chapter(
        "kap0",
        "Short Text",
        "ABAP Developer View",
        &wrapped(&d.short_text, width),
    );
    let happened = match &d.exception {
        Some(e) => format!(
            "The exception \"{e}\" was raised and no handler on the call stack caught it, so the \
             ABAP program \"{program}\" ended at the statement that raised it."
        ),
        None if d.runtime_error == "SYSTEM_CANCELED" => format!(
            "The ABAP program \"{program}\" was ended from the debugger before its next \
             statement ran."
        ),
        None => format!(
            "The ABAP program \"{program}\" ended with the runtime error \"{}\", which no \
             program can catch.",
            d.runtime_error
        ),
    };
    t.chapter(
        "kap1",
        "What happened?",
        "User View",
        &wrapped(&happened, width),
    );
    t.chapter(
        "kap2",
        "What can you do?",
        "User View",
        &wrapped(
            "Keep this dump: its id names it in the dump analysis. Try the run again once the \
             error is corrected.",
            width,
        ),
    );
    let procedure_name = top.map(|l| l.event_name.clone()).unwrap_or_default();
    let event_type = top.map(|l| l.event_type.clone()).unwrap_or_default();
    let analysis = match &d.exception {
        Some(e) => format!(
            "An exception of class \"{e}\" occurred in procedure \"{procedure_name}\" \
             \"({event_type})\"; it was neither caught there nor declared in a RAISING clause \
             of a caller that catches it.\n{}",
            d.short_text
        ),
        None => d.short_text.clone(),
    };
    t.chapter(
        "kap3",
        "Error analysis",
        "ABAP Developer View",
        &wrapped(&analysis, width),
    );
    let correct = match &d.exception {
        Some(e) => format!(
            "Catch \"{e}\" (TRY ... CATCH) where the error can be handled, or keep the \
             statement at the termination point from failing; the chosen variables below show \
             the values it had."
        ),
        None => "Keep the statement at the termination point from failing; the chosen \
                 variables below show the values it had."
            .to_string(),
    };
    t.chapter(
        "kap4",
        "How to correct the error",
        "ABAP Developer View",
        &wrapped(&correct, width),
    );
    if let Some(loc) = top {
        let where_ = format!(
            "The termination occurred in ABAP program or include \"{}\", in \"{}\". The main \
             program was \"{}\".\n\nIn the source code, the termination point is in line {} of \
             include \"{}\".",
            loc.program, loc.event_name, loc.program, loc.include_line, loc.include
        );
        t.chapter(
            "kap7",
            "Information on where terminated",
            "ABAP Developer View",
            &wrapped(&where_, width),
        );
    }
    if !d.source.is_empty() {
        let mut rows = vec!["Line |SourceCde".to_string(), "---".to_string()];
        for (n, text, current) in &d.source {
            let number = if *current {
                ">>>>>".to_string()
            } else {
                format!("{n:>5}")
            };
            rows.push(format!("{number}|{text}"));
        }
        t.chapter("kap8", "Source Code Extract", "ABAP Developer View", &rows);
    }
    if !d.calls.is_empty() {
        let mut rows = vec![
            format!(
                "{:<4}{:<13}{:<33}{:<36}Line",
                "No.", "Ty.", "Program", "Include"
            ),
            "    Name".to_string(),
            "---".to_string(),
        ];
        let n = d.calls.len();
        for (i, loc) in d.calls.iter().enumerate() {
            rows.push(format!(
                "{:<4}{:<13}{:<33}{:<36}{}",
                n - i,
                loc.event_type,
                loc.program,
                loc.include,
                loc.include_line
            ));
            rows.push(format!("    {}", procedure(loc)));
        }
        t.chapter("kap11", "Active Calls/Events", "ABAP Developer View", &rows);
    }
    if !d.variables.is_empty() {
        let mut rows = vec![
            "Name".to_string(),
            "    Val.".to_string(),
            "---".to_string(),
        ];
        let mut current = None;
        let n = d.calls.len();
        for (frame, name, value) in &d.variables {
            if current != Some(frame) {
                current = Some(frame);
                let index = d
                    .calls
                    .iter()
                    .position(|l| procedure(l) == *frame)
                    .map_or(0, |i| n - i);
                let ty = d
                    .calls
                    .iter()
                    .find(|l| procedure(l) == *frame)
                    .map(|l| l.event_type.clone())
                    .unwrap_or_default();
                rows.push(format!("No.{index:>8} Ty.          {ty}"));
                rows.push(format!("Name  {frame}"));
                rows.push("---".to_string());
            }
            rows.push(name.clone());
            rows.push(format!("    {value}"));
        }
        t.chapter("kap12", "Chosen Variables", "ABAP Developer View", &rows);
    }
    (t.lines.join("\n"), t.chapters)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(iso(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso(1_795_169_700), "2026-11-20T10:15:00Z");
        assert_eq!(compact_stamp(1_795_169_700), "20261120101500");
        assert_eq!(
            stamp_of("2026-11-20T10:15:00Z").as_deref(),
            Some("20261120101500")
        );
        assert_eq!(stamp_of("20261120").as_deref(), Some("20261120000000"));
        assert_eq!(stamp_of("x"), None);
    }

    #[test]
    fn queries() {
        assert_eq!(
            parse_query("and(equals(user,DEVELOPER))"),
            Ok(Query::And(vec![Query::Compare(
                Op::Equals,
                Attr::User,
                "DEVELOPER".into()
            )]))
        );
        assert!(
            parse_query("or( equals( error, X ), not(greaterThan(datetime,20260101)))").is_ok()
        );
        assert!(parse_query("equals(color,red)").is_err());
        assert!(parse_query("and(equals(user,A)").is_err());
        assert!(parse_query("equals(user,A) x").is_err());
        assert!(parse_query(&"and(".repeat(40)).is_err());
    }
}

//! The string processing statements: `CONCATENATE`, `SPLIT`, `CONDENSE`, `REPLACE`, `FIND`,
//! `TRANSLATE`, `SHIFT` and `OVERLAY` (character mode), parsed from a statement's tokens and
//! executed with ABAP's rules for fixed-length fields: trailing blanks of `c`, `n`, `d`, `t`
//! operands do not count unless a statement says so (`RESPECTING BLANKS`, separators), and a
//! result too long for a `c` target is cut off (`sy-subrc` tells).
//!
//! Regular expressions (`REGEX`, `PCRE`) run on [`crate::abap_regex`]; byte mode and
//! `RESULTS` end the run as "not supported by the simulator".

use crate::abap_regex::{Flavor, compile, expand};
use crate::ast::{Expr, Path};
use crate::expr::{ExprParser, Unsup, parse_path};
use crate::interp::{Exec, Interp};
use crate::itab::sy_set;
use crate::lexer::Token;
use crate::value::{Type, Value};

/// Where a result goes: a data object or an inline declaration `DATA(x)`.
#[derive(Debug, Clone)]
pub enum Out {
    Path(Path),
    Decl(String),
}

/// What `FIND`/`REPLACE` look for and where.
#[derive(Debug, Clone)]
pub struct Search {
    pub all: bool,
    pub sub: Expr,
    /// `REGEX`/`PCRE`: `sub` is a regular expression.
    pub regex: Option<Flavor>,
    pub ignoring_case: bool,
    /// `SECTION OFFSET o LENGTH l OF`.
    pub section: Option<(Option<Expr>, Option<Expr>)>,
}

#[derive(Debug, Clone)]
pub enum TextStmt {
    Concatenate {
        parts: Vec<Expr>,
        /// `CONCATENATE LINES OF itab`.
        lines_of: bool,
        into: Out,
        separated_by: Option<Expr>,
        respecting_blanks: bool,
    },
    Split {
        text: Expr,
        at: Expr,
        into: Vec<Out>,
        /// `INTO TABLE itab`.
        table: Option<Path>,
        /// `INTO TABLE DATA(itab)`: `table` is declared first (a standard table of strings).
        declare_table: bool,
    },
    Condense {
        target: Path,
        no_gaps: bool,
    },
    Translate {
        target: Path,
        /// `Some(true)`: `TO UPPER CASE`, `Some(false)`: `TO LOWER CASE`, `None`: `USING`.
        upper: Option<bool>,
        mask: Option<Expr>,
    },
    Shift {
        target: Path,
        right: bool,
        circular: bool,
        by: Option<Expr>,
        up_to: Option<Expr>,
        /// `DELETING LEADING|TRAILING mask`.
        deleting: Option<Expr>,
    },
    Find {
        search: Search,
        text: Expr,
        count: Option<Out>,
        offset: Option<Out>,
        length: Option<Out>,
        /// `SUBMATCHES s1 s2 …`: the groups of the last match of a regular expression.
        submatches: Vec<Out>,
        /// `RESULTS result_tab|result_wa` (see `match_results.rs`).
        results: Option<Out>,
    },
    Replace {
        search: Search,
        target: Path,
        with: Expr,
        count: Option<Out>,
        offset: Option<Out>,
        length: Option<Out>,
        /// `RESULTS result_tab|result_wa` (see `match_results.rs`).
        results: Option<Out>,
    },
    /// `FIND … IN TABLE itab … [MATCH LINE l]` (execution in `table_search.rs`).
    FindInTable {
        search: Search,
        table: Path,
        /// `MATCH COUNT`, `MATCH LINE`, `MATCH OFFSET`, `MATCH LENGTH`.
        results: [Option<Out>; 4],
        submatches: Vec<Out>,
        /// `RESULTS result_tab|result_wa`.
        result_tab: Option<Out>,
    },
    /// `REPLACE … IN TABLE itab WITH new … [REPLACEMENT LINE l]`.
    ReplaceInTable {
        search: Search,
        table: Path,
        with: Expr,
        /// `REPLACEMENT COUNT`, `REPLACEMENT LINE`, `REPLACEMENT OFFSET`, `REPLACEMENT LENGTH`.
        results: [Option<Out>; 4],
        /// `RESULTS result_tab|result_wa`.
        result_tab: Option<Out>,
    },
    /// `REPLACE SECTION OFFSET o LENGTH l OF dobj WITH new`.
    ReplaceSection {
        target: Path,
        offset: Option<Expr>,
        length: Option<Expr>,
        with: Expr,
    },
    Overlay {
        target: Path,
        with: Expr,
        mask: Option<Expr>,
    },
    /// Obsolete `SEARCH dobj FOR pattern` (plain and `.pattern.` forms).
    Search {
        text: Expr,
        pattern: Expr,
    },
    /// `WRITE source TO destination` (see `write_to.rs`).
    WriteTo(crate::write_to::WriteTo),
}

impl TextStmt {
    pub fn keyword(&self) -> &'static str {
        match self {
            TextStmt::Concatenate { .. } => "CONCATENATE",
            TextStmt::Split { .. } => "SPLIT",
            TextStmt::Condense { .. } => "CONDENSE",
            TextStmt::Translate { .. } => "TRANSLATE",
            TextStmt::Shift { .. } => "SHIFT",
            TextStmt::Find { .. } | TextStmt::FindInTable { .. } => "FIND",
            TextStmt::Replace { .. }
            | TextStmt::ReplaceSection { .. }
            | TextStmt::ReplaceInTable { .. } => "REPLACE",
            TextStmt::Overlay { .. } => "OVERLAY",
            TextStmt::Search { .. } => "SEARCH",
            TextStmt::WriteTo(_) => "WRITE",
        }
    }
}

// ------------------------------------------------------------------------------- parsing

type PResult<T> = Result<T, Unsup>;

fn unsup<T>(what: &str) -> PResult<T> {
    Err(Unsup(what.to_string()))
}

/// A cursor over a statement's tokens with keyword helpers.
struct Cursor<'t> {
    toks: &'t [Token],
    pos: usize,
}

impl<'t> Cursor<'t> {
    fn kw(&self, k: &str) -> bool {
        self.toks.get(self.pos).is_some_and(|t| t.is_kw(k))
    }

    fn kws(&self, ks: &[&str]) -> bool {
        ks.iter()
            .enumerate()
            .all(|(i, k)| self.toks.get(self.pos + i).is_some_and(|t| t.is_kw(k)))
    }

    fn eat(&mut self, ks: &[&str]) -> bool {
        if self.kws(ks) {
            self.pos += ks.len();
            true
        } else {
            false
        }
    }

    /// Consumes the keywords or fails: the statement is outside what we understand.
    fn need(&mut self, ks: &[&str], what: &str) -> PResult<()> {
        if self.eat(ks) { Ok(()) } else { unsup(what) }
    }

    fn done(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// One operand (an expression) starting here.
    fn operand(&mut self) -> PResult<Expr> {
        let rest = self.toks.get(self.pos..).unwrap_or(&[]);
        let mut p = ExprParser::new(rest);
        let e = p.expr()?;
        self.pos += p.position();
        Ok(e)
    }

    /// Operands up to (not including) the keyword `stop`.
    fn operands_until(&mut self, stop: &str) -> PResult<Vec<Expr>> {
        let mut out = Vec::new();
        while !self.done() && !self.kw(stop) {
            out.push(self.operand()?);
        }
        Ok(out)
    }

    /// A data object name.
    fn path(&mut self) -> PResult<Path> {
        let Some(p) = self
            .toks
            .get(self.pos)
            .and_then(Token::word)
            .and_then(parse_path)
        else {
            return unsup("string statement operand");
        };
        self.pos += 1;
        Ok(p)
    }

    /// A result: a data object or `DATA(x)`.
    fn out(&mut self) -> PResult<Out> {
        let rest = self.toks.get(self.pos..).unwrap_or(&[]);
        if let Some((name, n)) = crate::parser::inline_decl(rest) {
            self.pos += n;
            return Ok(Out::Decl(name));
        }
        Ok(Out::Path(self.path()?))
    }

    fn character_mode(&mut self) -> PResult<()> {
        if self.eat(&["IN", "CHARACTER", "MODE"]) {
            return Ok(());
        }
        if self.kws(&["IN", "BYTE", "MODE"]) {
            return unsup("IN BYTE MODE");
        }
        Ok(())
    }

    fn case(&mut self) -> bool {
        if self.eat(&["IGNORING", "CASE"]) {
            return true;
        }
        self.eat(&["RESPECTING", "CASE"]);
        false
    }
}

/// Parses a string statement (`toks` without the keyword).
pub fn parse(kw: &str, toks: &[Token]) -> PResult<TextStmt> {
    let mut c = Cursor { toks, pos: 0 };
    let stmt = match kw {
        "CONCATENATE" => concatenate(&mut c)?,
        "SPLIT" => split(&mut c)?,
        "CONDENSE" => {
            let target = c.path()?;
            let no_gaps = c.eat(&["NO-GAPS"]);
            TextStmt::Condense { target, no_gaps }
        }
        "TRANSLATE" => {
            let target = c.path()?;
            if c.eat(&["TO", "UPPER", "CASE"]) {
                TextStmt::Translate {
                    target,
                    upper: Some(true),
                    mask: None,
                }
            } else if c.eat(&["TO", "LOWER", "CASE"]) {
                TextStmt::Translate {
                    target,
                    upper: Some(false),
                    mask: None,
                }
            } else if c.eat(&["USING"]) {
                let mask = c.operand()?;
                TextStmt::Translate {
                    target,
                    upper: None,
                    mask: Some(mask),
                }
            } else {
                return unsup("TRANSLATE");
            }
        }
        "SHIFT" => shift(&mut c)?,
        "FIND" => find(&mut c)?,
        "REPLACE" => replace(&mut c)?,
        "OVERLAY" => {
            let target = c.path()?;
            c.need(&["WITH"], "OVERLAY")?;
            let with = c.operand()?;
            let mask = if c.eat(&["USING"]) {
                Some(c.operand()?)
            } else {
                None
            };
            TextStmt::Overlay { target, with, mask }
        }
        "SEARCH" => {
            let text = c.operand()?;
            c.need(&["FOR"], "SEARCH")?;
            let pattern = c.operand()?;
            TextStmt::Search { text, pattern }
        }
        _ => return unsup(kw),
    };
    if !c.done() {
        let what = c.toks.get(c.pos).and_then(Token::word).map_or_else(
            || kw.to_string(),
            |w| format!("{kw} … {}", w.to_uppercase()),
        );
        return unsup(&what);
    }
    Ok(stmt)
}

fn concatenate(c: &mut Cursor) -> PResult<TextStmt> {
    let lines_of = c.eat(&["LINES", "OF"]);
    let parts = c.operands_until("INTO")?;
    if !c.eat(&["INTO"]) || parts.is_empty() || (lines_of && parts.len() != 1) {
        return unsup("CONCATENATE");
    }
    let into = c.out()?;
    let mut separated_by = None;
    let mut respecting_blanks = false;
    loop {
        c.character_mode()?;
        if c.eat(&["SEPARATED", "BY"]) {
            separated_by = Some(c.operand()?);
        } else if c.eat(&["RESPECTING", "BLANKS"]) {
            respecting_blanks = true;
        } else {
            break;
        }
    }
    Ok(TextStmt::Concatenate {
        parts,
        lines_of,
        into,
        separated_by,
        respecting_blanks,
    })
}

fn split(c: &mut Cursor) -> PResult<TextStmt> {
    let text = c.operand()?;
    c.need(&["AT"], "SPLIT")?;
    let at = c.operand()?;
    c.need(&["INTO"], "SPLIT")?;
    if c.eat(&["TABLE"]) {
        let (table, declare_table) = match c.out()? {
            Out::Path(p) => (p, false),
            Out::Decl(name) => (
                Path {
                    base: name,
                    rest: Vec::new(),
                },
                true,
            ),
        };
        c.character_mode()?;
        return Ok(TextStmt::Split {
            text,
            at,
            into: Vec::new(),
            table: Some(table),
            declare_table,
        });
    }
    let mut into = Vec::new();
    while !c.done() && !c.kw("IN") {
        into.push(c.out()?);
    }
    c.character_mode()?;
    if into.is_empty() {
        return unsup("SPLIT");
    }
    Ok(TextStmt::Split {
        text,
        at,
        into,
        table: None,
        declare_table: false,
    })
}

fn shift(c: &mut Cursor) -> PResult<TextStmt> {
    let target = c.path()?;
    let mut right = false;
    let mut circular = false;
    let mut by = None;
    let mut up_to = None;
    let mut deleting = None;
    while !c.done() {
        if c.eat(&["BY"]) {
            by = Some(c.operand()?);
            c.need(&["PLACES"], "SHIFT BY")?;
        } else if c.eat(&["UP", "TO"]) {
            up_to = Some(c.operand()?);
        } else if c.eat(&["LEFT", "DELETING", "LEADING"]) {
            deleting = Some(c.operand()?);
        } else if c.eat(&["RIGHT", "DELETING", "TRAILING"]) {
            right = true;
            deleting = Some(c.operand()?);
        } else if c.eat(&["LEFT"]) {
        } else if c.eat(&["RIGHT"]) {
            right = true;
        } else if c.eat(&["CIRCULAR"]) {
            circular = true;
        } else if c.kw("IN") {
            c.character_mode()?;
        } else {
            return unsup("SHIFT");
        }
    }
    if deleting.is_some() && (by.is_some() || up_to.is_some() || circular) {
        return unsup("SHIFT");
    }
    Ok(TextStmt::Shift {
        target,
        right,
        circular,
        by,
        up_to,
        deleting,
    })
}

/// `[FIRST OCCURRENCE OF | ALL OCCURRENCES OF] [SUBSTRING] sub` (`REGEX`/`PCRE`: unsupported).
fn search_pattern(c: &mut Cursor) -> PResult<(bool, Expr, Option<Flavor>)> {
    let all = if c.eat(&["ALL", "OCCURRENCES", "OF"]) || c.eat(&["ALL", "OCCURRENCE", "OF"]) {
        true
    } else {
        c.eat(&["FIRST", "OCCURRENCE", "OF"]);
        false
    };
    let regex = if c.eat(&["REGEX"]) {
        Some(Flavor::Posix)
    } else if c.eat(&["PCRE"]) {
        Some(Flavor::Pcre)
    } else {
        c.eat(&["SUBSTRING"]);
        None
    };
    Ok((all, c.operand()?, regex))
}

/// `IN [SECTION [OFFSET o] [LENGTH l] OF] dobj` after the pattern; returns the section.
fn section(c: &mut Cursor) -> PResult<Option<(Option<Expr>, Option<Expr>)>> {
    if !c.eat(&["SECTION"]) {
        return Ok(None);
    }
    let offset = if c.eat(&["OFFSET"]) {
        Some(c.operand()?)
    } else {
        None
    };
    let length = if c.eat(&["LENGTH"]) {
        Some(c.operand()?)
    } else {
        None
    };
    c.need(&["OF"], "SECTION")?;
    Ok(Some((offset, length)))
}

/// The trailing additions of `FIND`/`REPLACE`.
#[derive(Default)]
struct Additions {
    ignoring_case: bool,
    count: Option<Out>,
    offset: Option<Out>,
    length: Option<Out>,
    /// `MATCH LINE` / `REPLACEMENT LINE` (only with `IN TABLE`).
    line: Option<Out>,
    /// `RESULTS result_tab|result_wa`.
    results: Option<Out>,
    submatches: Vec<Out>,
}

/// Words that end a `SUBMATCHES` list.
const ADDITION_WORDS: &[&str] = &[
    "IGNORING",
    "RESPECTING",
    "IN",
    "MATCH",
    "REPLACEMENT",
    "RESULTS",
    "SUBMATCHES",
];

/// `word` is `MATCH` (FIND) or `REPLACEMENT` (REPLACE).
fn results(c: &mut Cursor, word: &str) -> PResult<Additions> {
    let mut a = Additions::default();
    while !c.done() {
        if c.kws(&["IGNORING", "CASE"]) || c.kws(&["RESPECTING", "CASE"]) {
            a.ignoring_case = c.case();
        } else if c.kw("IN") {
            if !c.kws(&["IN", "CHARACTER", "MODE"]) {
                return unsup("IN BYTE MODE");
            }
            c.character_mode()?;
        } else if c.eat(&[word, "COUNT"]) {
            a.count = Some(c.out()?);
        } else if c.eat(&[word, "OFFSET"]) {
            a.offset = Some(c.out()?);
        } else if c.eat(&[word, "LENGTH"]) {
            a.length = Some(c.out()?);
        } else if c.eat(&[word, "LINE"]) {
            a.line = Some(c.out()?);
        } else if c.eat(&["RESULTS"]) {
            a.results = Some(c.out()?);
        } else if word == "MATCH" && c.eat(&["SUBMATCHES"]) {
            while !c.done() && !ADDITION_WORDS.iter().any(|w| c.kw(w)) {
                a.submatches.push(c.out()?);
            }
        } else {
            let what = c
                .toks
                .get(c.pos)
                .and_then(Token::word)
                .map(str::to_uppercase)
                .unwrap_or_default();
            return Err(Unsup(format!("{what} in FIND/REPLACE")));
        }
    }
    Ok(a)
}

fn find(c: &mut Cursor) -> PResult<TextStmt> {
    let (all, sub, regex) = search_pattern(c)?;
    c.need(&["IN"], "FIND")?;
    if c.eat(&["TABLE"]) {
        let table = c.path()?;
        let a = results(c, "MATCH")?;
        if !a.submatches.is_empty() && regex.is_none() {
            return unsup("SUBMATCHES without a regular expression");
        }
        return Ok(TextStmt::FindInTable {
            search: Search {
                all,
                sub,
                regex,
                ignoring_case: a.ignoring_case,
                section: None,
            },
            table,
            results: [a.count, a.line, a.offset, a.length],
            submatches: a.submatches,
            result_tab: a.results,
        });
    }
    let section = section(c)?;
    let text = c.operand()?;
    let a = results(c, "MATCH")?;
    if !a.submatches.is_empty() && regex.is_none() {
        return unsup("SUBMATCHES without a regular expression");
    }
    if a.line.is_some() {
        return unsup("MATCH LINE without IN TABLE");
    }
    Ok(TextStmt::Find {
        search: Search {
            all,
            sub,
            regex,
            ignoring_case: a.ignoring_case,
            section,
        },
        text,
        count: a.count,
        offset: a.offset,
        length: a.length,
        submatches: a.submatches,
        results: a.results,
    })
}

fn replace(c: &mut Cursor) -> PResult<TextStmt> {
    if let Some((offset, length)) = section(c)? {
        let target = c.path()?;
        c.need(&["WITH"], "REPLACE SECTION")?;
        let with = c.operand()?;
        c.character_mode()?;
        return Ok(TextStmt::ReplaceSection {
            target,
            offset,
            length,
            with,
        });
    }
    let pattern_form =
        c.kw("FIRST") || c.kw("ALL") || c.kw("SUBSTRING") || c.kw("REGEX") || c.kw("PCRE") || {
            // `REPLACE sub IN dobj WITH new` (pattern form) or `REPLACE sub WITH new INTO
            // dobj` (obsolete form): the word after the first operand tells.
            let mut probe = Cursor {
                toks: c.toks,
                pos: c.pos,
            };
            probe.operand().is_ok() && probe.kw("IN")
        };
    if !pattern_form {
        // Obsolete: `REPLACE sub WITH new INTO dobj`.
        let sub = c.operand()?;
        c.need(&["WITH"], "REPLACE")?;
        let with = c.operand()?;
        c.need(&["INTO"], "REPLACE")?;
        let target = c.path()?;
        c.character_mode()?;
        if c.kw("LENGTH") {
            return unsup("REPLACE … LENGTH");
        }
        return Ok(TextStmt::Replace {
            search: Search {
                all: false,
                sub,
                regex: None,
                ignoring_case: false,
                section: None,
            },
            target,
            with,
            count: None,
            offset: None,
            length: None,
            results: None,
        });
    }
    let (all, sub, regex) = search_pattern(c)?;
    c.need(&["IN"], "REPLACE")?;
    if c.eat(&["TABLE"]) {
        let table = c.path()?;
        c.need(&["WITH"], "REPLACE")?;
        let with = c.operand()?;
        let a = results(c, "REPLACEMENT")?;
        return Ok(TextStmt::ReplaceInTable {
            search: Search {
                all,
                sub,
                regex,
                ignoring_case: a.ignoring_case,
                section: None,
            },
            table,
            with,
            results: [a.count, a.line, a.offset, a.length],
            result_tab: a.results,
        });
    }
    let section = section(c)?;
    let target = c.path()?;
    c.need(&["WITH"], "REPLACE")?;
    let with = c.operand()?;
    let a = results(c, "REPLACEMENT")?;
    if a.line.is_some() {
        return unsup("REPLACEMENT LINE without IN TABLE");
    }
    Ok(TextStmt::Replace {
        search: Search {
            all,
            sub,
            regex,
            ignoring_case: a.ignoring_case,
            section,
        },
        target,
        with,
        count: a.count,
        offset: a.offset,
        length: a.length,
        results: a.results,
    })
}

// ------------------------------------------------------------------------------ execution

/// One match of `FIND`/`REPLACE`.
pub(crate) struct Hit {
    /// Char offset in the searched text.
    pub(crate) pos: usize,
    pub(crate) len: usize,
    /// For regular expressions: group 0 (the match) and the subgroups.
    pub(crate) groups: Vec<Option<String>>,
    /// Char offset (in the searched text) and length of each subgroup (1, 2, …); `None`
    /// for a group that took no part in the match.
    pub(crate) spans: Vec<Option<(usize, usize)>>,
}

/// A value's characters and whether it is a fixed-length field (`c n d t`).
fn chars_of(v: &Value) -> Option<(Vec<char>, bool)> {
    match v {
        Value::C(s) | Value::N(s) | Value::D(s) | Value::T(s) => Some((s.chars().collect(), true)),
        Value::Str(s) => Some((s.chars().collect(), false)),
        _ => None,
    }
}

fn trim_end(mut c: Vec<char>) -> Vec<char> {
    while c.last() == Some(&' ') {
        c.pop();
    }
    c
}

fn upper(c: char) -> char {
    crate::char_case::upper(c)
}

/// Non-overlapping occurrences of `needle` in `hay` from the left (start positions).
fn occurrences(hay: &[char], needle: &[char], ignoring_case: bool, all: bool) -> Vec<usize> {
    let mut out = Vec::new();
    if needle.is_empty() || needle.len() > hay.len() {
        return out;
    }
    let eq = |a: &char, b: &char| {
        if ignoring_case {
            upper(*a) == upper(*b)
        } else {
            a == b
        }
    };
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        let window = hay.get(i..i + needle.len()).unwrap_or(&[]);
        if window.iter().zip(needle).all(|(a, b)| eq(a, b)) {
            out.push(i);
            if !all {
                break;
            }
            i += needle.len();
        } else {
            i += 1;
        }
    }
    out
}

/// The type `SPLIT … INTO TABLE DATA(itab)` declares: a standard table of strings with an
/// empty key.
fn string_table() -> Type {
    Type::Table(std::sync::Arc::new(crate::value::TableType {
        name: String::new(),
        kind: crate::value::TableKind::Standard,
        line: Type::String,
        unique: false,
        key: crate::value::TableKey::Empty,
        secondary: Vec::new(),
    }))
}

fn as_i32(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl Interp<'_, '_> {
    pub fn exec_text(&mut self, s: &TextStmt) -> Exec<()> {
        match s {
            TextStmt::Concatenate {
                parts,
                lines_of,
                into,
                separated_by,
                respecting_blanks,
            } => self.concatenate(
                parts,
                *lines_of,
                into,
                separated_by.as_ref(),
                *respecting_blanks,
            ),
            TextStmt::Split {
                text,
                at,
                into,
                table,
                declare_table,
            } => {
                if let (Some(t), true) = (table, declare_table) {
                    self.declare_inline(&t.base, string_table());
                }
                self.split(text, at, into, table.as_ref())
            }
            TextStmt::Condense { target, no_gaps } => {
                let (chars, _) = self.text_of_path(target)?;
                let text: String = chars.into_iter().collect();
                let out = if *no_gaps {
                    text.chars().filter(|c| *c != ' ').collect()
                } else {
                    text.split(' ')
                        .filter(|w| !w.is_empty())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                self.assign_value(target, Value::Str(out))
            }
            TextStmt::Translate {
                target,
                upper: case,
                mask,
            } => {
                let (chars, _) = self.text_of_path(target)?;
                let out: String = match (case, mask) {
                    (Some(true), _) => {
                        crate::char_case::upper_str(&chars.iter().collect::<String>())
                    }
                    (Some(false), _) => {
                        crate::char_case::lower_str(&chars.iter().collect::<String>())
                    }
                    (None, Some(m)) => {
                        let (mask, _) = self.text_of_expr(m)?;
                        let pairs: Vec<(char, char)> = mask
                            .chunks(2)
                            .filter_map(|p| match p {
                                [a, b] => Some((*a, *b)),
                                _ => None,
                            })
                            .collect();
                        chars
                            .iter()
                            .map(|c| {
                                pairs
                                    .iter()
                                    .find(|(from, _)| from == c)
                                    .map_or(*c, |(_, to)| *to)
                            })
                            .collect()
                    }
                    (None, None) => return Err(self.not_supported("TRANSLATE")),
                };
                self.assign_value(target, Value::Str(out))
            }
            TextStmt::Shift {
                target,
                right,
                circular,
                by,
                up_to,
                deleting,
            } => self.shift(
                target,
                *right,
                *circular,
                by.as_ref(),
                up_to.as_ref(),
                deleting.as_ref(),
            ),
            TextStmt::Find {
                search,
                text,
                count,
                offset,
                length,
                submatches,
                results,
            } => {
                let hits = self.find(search, text, [count, offset, length], submatches)?;
                match results {
                    Some(out) => self.store_match_results(out, search.all, &[(0, hits)]),
                    None => Ok(()),
                }
            }
            TextStmt::Replace {
                search,
                target,
                with,
                count,
                offset,
                length,
                results,
            } => {
                let done = self.replace(search, target, with, [count, offset, length])?;
                match results {
                    Some(out) => self.store_repl_results(out, search.all, &[(0, done)]),
                    None => Ok(()),
                }
            }
            TextStmt::FindInTable {
                search,
                table,
                results,
                submatches,
                result_tab,
            } => self.find_in_table(search, table, results, submatches, result_tab.as_ref()),
            TextStmt::ReplaceInTable {
                search,
                table,
                with,
                results,
                result_tab,
            } => self.replace_in_table(search, table, with, results, result_tab.as_ref()),
            TextStmt::ReplaceSection {
                target,
                offset,
                length,
                with,
            } => {
                let (chars, _) = self.text_of_path(target)?;
                let (off, len) =
                    self.section_bounds(chars.len(), offset.as_ref(), length.as_ref())?;
                let (new, _) = self.text_of_expr(with)?;
                let mut out: Vec<char> = chars.get(..off).unwrap_or(&[]).to_vec();
                out.extend(trim_end(new));
                out.extend(chars.get(off + len..).unwrap_or(&[]));
                let cut = self.store_text(target, out)?;
                sy_set(self, "SUBRC", if cut { 2 } else { 0 });
                Ok(())
            }
            TextStmt::Search { text, pattern } => self.search(text, pattern),
            TextStmt::WriteTo(w) => self.exec_write_to(w),
            TextStmt::Overlay { target, with, mask } => {
                let (mut chars, _) = self.text_of_path(target)?;
                let (with, _) = self.text_of_expr(with)?;
                let mask = match mask {
                    Some(m) => self.text_of_expr(m)?.0,
                    None => vec![' '],
                };
                let mut changed = false;
                for (i, c) in chars.iter_mut().enumerate() {
                    if mask.contains(c)
                        && let Some(w) = with.get(i)
                    {
                        *c = *w;
                        changed = true;
                    }
                }
                self.assign_value(target, Value::Str(chars.into_iter().collect()))?;
                sy_set(self, "SUBRC", if changed { 0 } else { 4 });
                Ok(())
            }
        }
    }

    /// An operand's characters and whether it has a fixed length.
    pub(crate) fn text_of_expr(&mut self, e: &Expr) -> Exec<(Vec<char>, bool)> {
        let v = self.eval(e)?;
        self.text_of_value(&v)
    }

    pub(crate) fn text_of_value(&self, v: &Value) -> Exec<(Vec<char>, bool)> {
        match chars_of(v) {
            Some(t) => Ok(t),
            None => {
                let s = v.to_abap_string().map_err(|e| self.conv_error(e))?;
                Ok((s.chars().collect(), false))
            }
        }
    }

    fn text_of_path(&mut self, p: &Path) -> Exec<(Vec<char>, bool)> {
        let v = self.read(p)?;
        match chars_of(&v) {
            Some(t) => Ok(t),
            None => Err(self.not_supported("string statement on a non-character field")),
        }
    }

    /// The operand's content: without trailing blanks for fixed-length fields.
    pub(crate) fn content_of(&mut self, e: &Expr) -> Exec<Vec<char>> {
        let (chars, fixed) = self.text_of_expr(e)?;
        Ok(if fixed { trim_end(chars) } else { chars })
    }

    /// Stores a text into a data object; true when a fixed-length target cut off characters
    /// other than trailing blanks.
    fn store_text(&mut self, target: &Path, text: Vec<char>) -> Exec<bool> {
        let ty = self.target_type_of(target)?;
        let cut = match ty {
            Type::C(n) => trim_end(text.clone()).len() > n as usize,
            _ => false,
        };
        self.assign_value(target, Value::Str(text.into_iter().collect()))?;
        Ok(cut)
    }

    pub(crate) fn store_out(&mut self, out: &Out, v: Value, decl: Type) -> Exec<()> {
        match out {
            Out::Path(p) => self.assign_value(p, v),
            Out::Decl(name) => {
                self.declare_inline(name, decl);
                self.assign_value(
                    &Path {
                        base: name.clone(),
                        rest: Vec::new(),
                    },
                    v,
                )
            }
        }
    }

    fn concatenate(
        &mut self,
        parts: &[Expr],
        lines_of: bool,
        into: &Out,
        sep: Option<&Expr>,
        respecting_blanks: bool,
    ) -> Exec<()> {
        let values: Vec<Value> = if lines_of {
            let table = parts
                .first()
                .map(|e| self.eval(e))
                .transpose()?
                .unwrap_or(Value::I(0));
            match table {
                Value::Table(_, rows) => rows,
                _ => return Err(self.not_supported("CONCATENATE LINES OF a non-table")),
            }
        } else {
            let mut v = Vec::new();
            for p in parts {
                v.push(self.eval(p)?);
            }
            v
        };
        // A separator keeps its trailing blanks (`SEPARATED BY space` puts one blank).
        let sep: Vec<char> = match sep {
            Some(e) => self.text_of_expr(e)?.0,
            None => Vec::new(),
        };
        let mut out: Vec<char> = Vec::new();
        for (i, v) in values.iter().enumerate() {
            let (chars, fixed) = self.text_of_value(v)?;
            if i > 0 {
                out.extend(&sep);
            }
            out.extend(if fixed && !respecting_blanks {
                trim_end(chars)
            } else {
                chars
            });
        }
        let cut = match into {
            Out::Path(p) => self.store_text(p, out)?,
            Out::Decl(_) => {
                self.store_out(into, Value::Str(out.into_iter().collect()), Type::String)?;
                false
            }
        };
        sy_set(self, "SUBRC", if cut { 4 } else { 0 });
        Ok(())
    }

    fn split(&mut self, text: &Expr, at: &Expr, into: &[Out], table: Option<&Path>) -> Exec<()> {
        let text = self.content_of(text)?;
        let sep = self.text_of_expr(at)?.0;
        let mut segments: Vec<Vec<char>> = Vec::new();
        if !text.is_empty() {
            if sep.is_empty() {
                segments.push(text.clone());
            } else {
                let mut start = 0;
                for pos in occurrences(&text, &sep, false, true) {
                    segments.push(text.get(start..pos).unwrap_or(&[]).to_vec());
                    start = pos + sep.len();
                }
                // A separator at the very end makes no empty last segment.
                if start < text.len() {
                    segments.push(text.get(start..).unwrap_or(&[]).to_vec());
                }
            }
        }
        let mut cut = false;
        if let Some(table) = table {
            let (place, tt) = self.table_place_mut(table)?;
            let mut rows = Vec::new();
            for seg in segments {
                let v = Value::Str(seg.iter().collect());
                let row = v
                    .convert(&tt.line)
                    .map_err(|e| self.move_error(e, &v, &tt.line))?;
                if let Type::C(n) = tt.line {
                    cut |= seg.len() > n as usize;
                }
                rows.push(row);
            }
            self.room_for(rows.len().saturating_sub(1))?;
            if let Some(Value::Table(_, existing)) = self.st.value_at_mut(&place) {
                *existing = rows;
            }
        } else {
            let n = into.len();
            for (i, out) in into.iter().enumerate() {
                let seg: Vec<char> = if i + 1 == n && segments.len() > n {
                    // The last result takes the rest, separators included.
                    let mut rest = Vec::new();
                    for (k, s) in segments.iter().enumerate().skip(i) {
                        if k > i {
                            rest.extend(&sep);
                        }
                        rest.extend(s);
                    }
                    rest
                } else {
                    segments.get(i).cloned().unwrap_or_default()
                };
                match out {
                    Out::Path(p) => cut |= self.store_text(p, seg)?,
                    Out::Decl(_) => {
                        self.store_out(out, Value::Str(seg.into_iter().collect()), Type::String)?
                    }
                }
            }
        }
        sy_set(self, "SUBRC", if cut { 4 } else { 0 });
        Ok(())
    }

    fn shift(
        &mut self,
        target: &Path,
        right: bool,
        circular: bool,
        by: Option<&Expr>,
        up_to: Option<&Expr>,
        deleting: Option<&Expr>,
    ) -> Exec<()> {
        let (chars, fixed) = self.text_of_path(target)?;
        let len = chars.len();
        let places = if let Some(mask) = deleting {
            let mask = self.text_of_expr(mask)?.0;
            if right {
                chars.iter().rev().take_while(|c| mask.contains(c)).count()
            } else {
                chars.iter().take_while(|c| mask.contains(c)).count()
            }
        } else if let Some(sub) = up_to {
            let sub = self.content_of(sub)?;
            match occurrences(&chars, &sub, false, false).first() {
                Some(pos) if right => len.saturating_sub(pos + sub.len()),
                Some(pos) => *pos,
                None => {
                    sy_set(self, "SUBRC", 4);
                    return Ok(());
                }
            }
        } else if let Some(n) = by {
            let n = self.int(n)?;
            usize::try_from(n).unwrap_or(0)
        } else {
            1
        };
        let out: Vec<char> = if circular {
            let k = if len == 0 { 0 } else { places % len };
            let mut v = chars.clone();
            if right {
                v.rotate_right(k);
            } else {
                v.rotate_left(k);
            }
            v
        } else if right {
            let mut v = vec![' '; places];
            // A fixed-length field keeps its length: characters fall off at the right end; a
            // string grows.
            let keep = if fixed {
                len.saturating_sub(places)
            } else {
                len
            };
            v.extend(chars.get(..keep).unwrap_or(&[]));
            if deleting.is_some() && !fixed {
                // Deleting trailing characters of a string keeps its length.
                v.truncate(len);
            }
            v
        } else {
            let mut v: Vec<char> = chars.get(places.min(len)..).unwrap_or(&[]).to_vec();
            if fixed {
                v.resize(len, ' ');
            }
            v
        };
        self.assign_value(target, Value::Str(out.into_iter().collect()))?;
        if up_to.is_some() {
            sy_set(self, "SUBRC", 0);
        }
        Ok(())
    }

    /// Offset and length of a `SECTION` inside a text of `len` characters (checked).
    fn section_bounds(
        &mut self,
        len: usize,
        offset: Option<&Expr>,
        length: Option<&Expr>,
    ) -> Exec<(usize, usize)> {
        let off = match offset {
            Some(e) => self.int(e)?,
            None => 0,
        };
        let off = usize::try_from(off).ok().filter(|o| *o <= len);
        let Some(off) = off else {
            return Err(self.dump(
                "STRING_OFFSET_TOO_LARGE",
                "Illegal access to a string (offset too large)",
            ));
        };
        let sec_len = match length {
            Some(e) => {
                let l = self.int(e)?;
                match usize::try_from(l).ok().filter(|l| off + l <= len) {
                    Some(l) => l,
                    None => {
                        return Err(self.dump(
                            "STRING_LENGTH_TOO_LARGE",
                            "Illegal access to a string (length too large)",
                        ));
                    }
                }
            }
            None => len - off,
        };
        Ok((off, sec_len))
    }

    /// Where `search` occurs in `hay` (char positions), how long each match is and, for a
    /// regular expression, its groups (group 0: the match).
    pub(crate) fn locate(&mut self, search: &Search, hay: &[char], what: &str) -> Exec<Vec<Hit>> {
        let sub = self.content_of(&search.sub)?;
        let (from, sec_len) = match &search.section {
            Some((o, l)) => self.section_bounds(hay.len(), o.as_ref(), l.as_ref())?,
            None => (0, hay.len()),
        };
        let window = hay.get(from..from + sec_len).unwrap_or(&[]);
        if let Some(flavor) = search.regex {
            let pattern: String = sub.iter().collect();
            let re = compile(&pattern, flavor, search.ignoring_case)
                .map_err(|why| self.not_supported(&why))?;
            let text: String = window.iter().collect();
            let mut hits = Vec::new();
            for caps in crate::abap_regex::matches_in_order(&re, &text, !search.all) {
                let Some(m) = caps.get(0) else { continue };
                let pos = text.get(..m.start()).map_or(0, |t| t.chars().count());
                let at = |b: usize| text.get(..b).map_or(0, |t| t.chars().count());
                hits.push(Hit {
                    pos: pos + from,
                    len: m.as_str().chars().count(),
                    groups: caps
                        .iter()
                        .map(|g| g.map(|g| g.as_str().to_string()))
                        .collect(),
                    spans: caps
                        .iter()
                        .skip(1)
                        .map(|g| g.map(|g| (at(g.start()) + from, g.as_str().chars().count())))
                        .collect(),
                });
                if !search.all {
                    break;
                }
            }
            return Ok(hits);
        }
        if sub.is_empty() {
            // An empty pattern is found before the first character (of the section); `ALL
            // OCCURRENCES` of it would never end, which `REPLACE` reports as an exception.
            return match (search.all, what) {
                (false, _) => Ok(vec![Hit {
                    pos: from,
                    len: 0,
                    groups: Vec::new(),
                    spans: Vec::new(),
                }]),
                (true, "REPLACE") => Err(self.dump(
                    "REPLACE_INFINITE_LOOP",
                    "REPLACE ALL OCCURRENCES of an empty pattern would never end",
                )),
                (true, _) => {
                    Err(self.not_supported(&format!("{what} ALL OCCURRENCES of an empty string")))
                }
            };
        }
        Ok(occurrences(window, &sub, search.ignoring_case, search.all)
            .into_iter()
            .map(|p| Hit {
                pos: p + from,
                len: sub.len(),
                groups: Vec::new(),
                spans: Vec::new(),
            })
            .collect())
    }

    fn find(
        &mut self,
        search: &Search,
        text: &Expr,
        [count, offset, length]: [&Option<Out>; 3],
        submatches: &[Out],
    ) -> Exec<Vec<Hit>> {
        let (hay, _) = self.text_of_expr(text)?;
        let found = self.locate(search, &hay, "FIND")?;
        if let Some(out) = count {
            self.store_out(out, Value::I(as_i32(found.len())), Type::I)?;
        }
        let last = found.last();
        for (out, value) in [(offset, last.map(|h| h.pos)), (length, last.map(|h| h.len))] {
            match (out, value) {
                (Some(out), Some(v)) => self.store_out(out, Value::I(as_i32(v)), Type::I)?,
                // Not found: the field keeps its value (an inline one is declared, initial).
                (Some(Out::Decl(name)), None) => self.declare_inline(name, Type::I),
                _ => {}
            }
        }
        if let Some(hit) = last {
            for (i, out) in submatches.iter().enumerate() {
                let group = hit.groups.get(i + 1).cloned().flatten().unwrap_or_default();
                self.store_out(out, Value::Str(group), Type::String)?;
            }
        }
        sy_set(self, "SUBRC", if found.is_empty() { 4 } else { 0 });
        Ok(found)
    }

    fn replace(
        &mut self,
        search: &Search,
        target: &Path,
        with: &Expr,
        results: [&Option<Out>; 3],
    ) -> Exec<Vec<(usize, usize)>> {
        let new = self.content_of(with)?;
        // A `c` field is searched with its trailing blanks (and cut back to its length when
        // stored).
        let (hay, _) = self.text_of_path(target)?;
        let found = self.locate(search, &hay, "REPLACE")?;
        let [count, offset, length] = results;
        if let Some(out) = count {
            self.store_out(out, Value::I(as_i32(found.len())), Type::I)?;
        }
        if found.is_empty() {
            sy_set(self, "SUBRC", 4);
            return Ok(Vec::new());
        }
        let mut done = Vec::with_capacity(found.len());
        let mut out: Vec<char> = Vec::new();
        let mut start = 0;
        let (mut last_at, mut last_len) = (0, 0);
        let replacement: String = new.iter().collect();
        for hit in &found {
            out.extend(hay.get(start..hit.pos).unwrap_or(&[]));
            last_at = out.len();
            // A regular expression's replacement may name groups (`$1`, `$0`).
            let text: Vec<char> = if search.regex.is_some() {
                let groups: Vec<Option<&str>> = hit.groups.iter().map(Option::as_deref).collect();
                expand(&replacement, &groups).chars().collect()
            } else {
                new.clone()
            };
            last_len = text.len();
            done.push((last_at, last_len));
            out.extend(text);
            start = hit.pos + hit.len;
        }
        out.extend(hay.get(start..).unwrap_or(&[]));
        if let Some(o) = offset {
            self.store_out(o, Value::I(as_i32(last_at)), Type::I)?;
        }
        if let Some(o) = length {
            self.store_out(o, Value::I(as_i32(last_len)), Type::I)?;
        }
        let cut = self.store_text(target, out)?;
        sy_set(self, "SUBRC", if cut { 2 } else { 0 });
        Ok(done)
    }
}

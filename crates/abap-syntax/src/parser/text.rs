//! Parsing of the string statements: the tokens after the keyword become a [`TextStmt`].

use crate::ast::Flavor;
use crate::ast::{Expr, Path};
use crate::ast::{Out, Search, TextStmt};
use crate::lexer::Token;
use crate::parser::cursor::Cursor;
use crate::parser::words::{Unsup, parse_path};

type PResult<T> = Result<T, Unsup>;

fn unsup<T>(what: &str) -> PResult<T> {
    Err(Unsup(what.to_string()))
}

impl<'t> Cursor<'t> {
    /// Consumes the keywords or fails: the statement is outside what we understand.
    fn need(&mut self, ks: &[&str], what: &str) -> PResult<()> {
        if self.eat_kws(ks) {
            Ok(())
        } else {
            unsup(what)
        }
    }

    /// One operand (an expression) starting here.
    fn operand(&mut self) -> PResult<Expr> {
        let rest = self.toks.get(self.pos..).unwrap_or(&[]);
        let mut p = Cursor::new(rest);
        let e = p.expr()?;
        self.pos += p.position();
        Ok(e)
    }

    /// Operands up to (not including) the keyword `stop`.
    fn operands_until(&mut self, stop: &str) -> PResult<Vec<Expr>> {
        let mut out = Vec::new();
        while !self.at_end() && !self.peek_kw(stop) {
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
        if let Some((name, n)) = crate::parser::words::inline_decl(rest) {
            self.pos += n;
            return Ok(Out::Decl(name));
        }
        Ok(Out::Path(self.path()?))
    }

    fn character_mode(&mut self) -> PResult<()> {
        if self.eat_kws(&["IN", "CHARACTER", "MODE"]) {
            return Ok(());
        }
        if self.peek_kws(&["IN", "BYTE", "MODE"]) {
            return unsup("IN BYTE MODE");
        }
        Ok(())
    }

    fn case(&mut self) -> bool {
        if self.eat_kws(&["IGNORING", "CASE"]) {
            return true;
        }
        self.eat_kws(&["RESPECTING", "CASE"]);
        false
    }
}

/// Parses a string statement (`toks` without the keyword).
pub fn parse(kw: &str, toks: &[Token]) -> PResult<TextStmt> {
    let mut c = Cursor::new(toks);
    let stmt = match kw {
        "CONCATENATE" => concatenate(&mut c)?,
        "SPLIT" => split(&mut c)?,
        "CONDENSE" => {
            let target = c.path()?;
            let no_gaps = c.eat_kws(&["NO-GAPS"]);
            TextStmt::Condense { target, no_gaps }
        }
        "TRANSLATE" => {
            let target = c.path()?;
            if c.eat_kws(&["TO", "UPPER", "CASE"]) {
                TextStmt::Translate {
                    target,
                    upper: Some(true),
                    mask: None,
                }
            } else if c.eat_kws(&["TO", "LOWER", "CASE"]) {
                TextStmt::Translate {
                    target,
                    upper: Some(false),
                    mask: None,
                }
            } else if c.eat_kws(&["USING"]) {
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
            let mask = if c.eat_kws(&["USING"]) {
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
    if !c.at_end() {
        let what = c.toks.get(c.pos).and_then(Token::word).map_or_else(
            || kw.to_string(),
            |w| format!("{kw} … {}", w.to_uppercase()),
        );
        return unsup(&what);
    }
    Ok(stmt)
}

fn concatenate(c: &mut Cursor) -> PResult<TextStmt> {
    let lines_of = c.eat_kws(&["LINES", "OF"]);
    let parts = c.operands_until("INTO")?;
    if !c.eat_kws(&["INTO"]) || parts.is_empty() || (lines_of && parts.len() != 1) {
        return unsup("CONCATENATE");
    }
    let into = c.out()?;
    let mut separated_by = None;
    let mut respecting_blanks = false;
    loop {
        c.character_mode()?;
        if c.eat_kws(&["SEPARATED", "BY"]) {
            separated_by = Some(c.operand()?);
        } else if c.eat_kws(&["RESPECTING", "BLANKS"]) {
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
    if c.eat_kws(&["TABLE"]) {
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
    while !c.at_end() && !c.peek_kw("IN") {
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
    while !c.at_end() {
        if c.eat_kws(&["BY"]) {
            by = Some(c.operand()?);
            c.need(&["PLACES"], "SHIFT BY")?;
        } else if c.eat_kws(&["UP", "TO"]) {
            up_to = Some(c.operand()?);
        } else if c.eat_kws(&["LEFT", "DELETING", "LEADING"]) {
            deleting = Some(c.operand()?);
        } else if c.eat_kws(&["RIGHT", "DELETING", "TRAILING"]) {
            right = true;
            deleting = Some(c.operand()?);
        } else if c.eat_kws(&["LEFT"]) {
        } else if c.eat_kws(&["RIGHT"]) {
            right = true;
        } else if c.eat_kws(&["CIRCULAR"]) {
            circular = true;
        } else if c.peek_kw("IN") {
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

/// `[FIRST OCCURRENCE OF | ALL OCCURRENCES OF] [SUBSTRING | REGEX | PCRE] sub`; the flavor is
/// `None` for a substring (regular expressions run on `abap_regex.rs`).
fn search_pattern(c: &mut Cursor) -> PResult<(bool, Expr, Option<Flavor>)> {
    let all = if c.eat_kws(&["ALL", "OCCURRENCES", "OF"]) || c.eat_kws(&["ALL", "OCCURRENCE", "OF"])
    {
        true
    } else {
        c.eat_kws(&["FIRST", "OCCURRENCE", "OF"]);
        false
    };
    let regex = if c.eat_kws(&["REGEX"]) {
        Some(Flavor::Posix)
    } else if c.eat_kws(&["PCRE"]) {
        Some(Flavor::Pcre)
    } else {
        c.eat_kws(&["SUBSTRING"]);
        None
    };
    Ok((all, c.operand()?, regex))
}

/// `IN [SECTION [OFFSET o] [LENGTH l] OF] dobj` after the pattern; returns the section.
fn section(c: &mut Cursor) -> PResult<Option<(Option<Expr>, Option<Expr>)>> {
    if !c.eat_kws(&["SECTION"]) {
        return Ok(None);
    }
    let offset = if c.eat_kws(&["OFFSET"]) {
        Some(c.operand()?)
    } else {
        None
    };
    let length = if c.eat_kws(&["LENGTH"]) {
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
    while !c.at_end() {
        if c.peek_kws(&["IGNORING", "CASE"]) || c.peek_kws(&["RESPECTING", "CASE"]) {
            a.ignoring_case = c.case();
        } else if c.peek_kw("IN") {
            if !c.peek_kws(&["IN", "CHARACTER", "MODE"]) {
                return unsup("IN BYTE MODE");
            }
            c.character_mode()?;
        } else if c.eat_kws(&[word, "COUNT"]) {
            a.count = Some(c.out()?);
        } else if c.eat_kws(&[word, "OFFSET"]) {
            a.offset = Some(c.out()?);
        } else if c.eat_kws(&[word, "LENGTH"]) {
            a.length = Some(c.out()?);
        } else if c.eat_kws(&[word, "LINE"]) {
            a.line = Some(c.out()?);
        } else if c.eat_kws(&["RESULTS"]) {
            a.results = Some(c.out()?);
        } else if word == "MATCH" && c.eat_kws(&["SUBMATCHES"]) {
            while !c.at_end() && !ADDITION_WORDS.iter().any(|w| c.peek_kw(w)) {
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
    if c.eat_kws(&["TABLE"]) {
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
    let pattern_form = c.peek_kw("FIRST")
        || c.peek_kw("ALL")
        || c.peek_kw("SUBSTRING")
        || c.peek_kw("REGEX")
        || c.peek_kw("PCRE")
        || {
            // `REPLACE sub IN dobj WITH new` (pattern form) or `REPLACE sub WITH new INTO
            // dobj` (obsolete form): the word after the first operand tells.
            let mut probe = Cursor {
                pos: c.pos,
                ..Cursor::new(c.toks)
            };
            probe.operand().is_ok() && probe.peek_kw("IN")
        };
    if !pattern_form {
        // Obsolete: `REPLACE sub WITH new INTO dobj`.
        let sub = c.operand()?;
        c.need(&["WITH"], "REPLACE")?;
        let with = c.operand()?;
        c.need(&["INTO"], "REPLACE")?;
        let target = c.path()?;
        c.character_mode()?;
        if c.peek_kw("LENGTH") {
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
    if c.eat_kws(&["TABLE"]) {
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

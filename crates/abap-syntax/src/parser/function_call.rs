//! `CALL FUNCTION`, `RAISE name` and `MESSAGE … RAISING name` (see
//! [`crate::ast::FunctionStmt`]).

use crate::ast::{Expr, FunctionCall, FunctionStmt, StmtKind};
use crate::lexer::{Token, TokenKind};
use crate::parser::cursor::Cursor;
use crate::parser::expr::parse_full_expr;
use crate::parser::words::{Unsup, describe, is_name};
use crate::statements::Statement;

/// The sections of a parameter list, in the order ABAP fixes.
const SECTIONS: [&str; 5] = ["EXPORTING", "IMPORTING", "TABLES", "CHANGING", "EXCEPTIONS"];

/// Additions this simulator does not run (remote, update and parallel calls, dynamic
/// parameter tables).
const NOT_RUN: [&str; 6] = [
    "DESTINATION",
    "IN",
    "STARTING",
    "PARAMETER-TABLE",
    "EXCEPTION-TABLE",
    "KEEPING",
];

fn unsupported(what: impl Into<String>) -> StmtKind {
    StmtKind::Unsupported {
        what: what.into(),
        stop: true,
    }
}

/// `CALL FUNCTION name …` (the caller has checked the first two words).
pub fn call_function(st: &Statement) -> StmtKind {
    match parse_call(st.tokens.get(2..).unwrap_or(&[])) {
        Ok(call) => StmtKind::Function(Box::new(FunctionStmt::Call(call))),
        Err(Unsup(what)) => unsupported(format!("CALL FUNCTION {what}")),
    }
}

fn parse_call(toks: &[Token]) -> Result<FunctionCall, Unsup> {
    let Some(name_tok) = toks.first() else {
        return Err(Unsup("without a name".into()));
    };
    let name = parse_full_expr(std::slice::from_ref(name_tok))?;
    let mut call = FunctionCall {
        name,
        exporting: Vec::new(),
        importing: Vec::new(),
        tables: Vec::new(),
        changing: Vec::new(),
        exceptions: Vec::new(),
    };
    let rest = toks.get(1..).unwrap_or(&[]);
    let mut p = Cursor::new(rest);
    let mut last_section = None;
    while !p.at_end() {
        let Some(section) = SECTIONS.iter().position(|s| p.peek_kw_any(&[s])) else {
            let word = rest.get(p.position()).map(describe).unwrap_or_default();
            if NOT_RUN.iter().any(|k| p.peek_kw_any(&[k])) {
                return Err(Unsup(word));
            }
            return Err(Unsup(format!("unexpected {word}")));
        };
        if last_section.is_some_and(|l| l >= section) {
            return Err(Unsup(format!("{} out of order", SECTIONS[section])));
        }
        last_section = Some(section);
        p.skip_kw(SECTIONS[section]);
        while let Some(name) = formal_name(rest, p.position()) {
            // The name, then `=` (an exception may stand alone: it gets 1).
            p.next();
            let has_value = rest
                .get(p.position())
                .is_some_and(|t| t.word() == Some("="));
            if section == 4 {
                let value = if has_value {
                    p.next();
                    p.expr()?
                } else {
                    Expr::Lit(abap_data::value::Value::I(1))
                };
                call.exceptions.push((name, value));
                continue;
            }
            if !has_value {
                return Err(Unsup(format!("parameter {name} without =")));
            }
            p.next();
            if section > 0
                && rest
                    .get(p.position())
                    .and_then(Token::word)
                    .is_some_and(|w| {
                        let up = w.to_ascii_uppercase();
                        up.starts_with("DATA(") || up == "DATA" || up == "FINAL"
                    })
            {
                return Err(Unsup("with an inline declaration".into()));
            }
            match section {
                0 => call.exporting.push((name, p.expr()?)),
                1 => call.importing.push((name, p.target_path()?)),
                2 => call.tables.push((name, p.target_path()?)),
                _ => call.changing.push((name, p.target_path()?)),
            }
        }
    }
    Ok(call)
}

/// The upper-case formal name at `at` when a parameter (or exception) starts there: a name
/// that is no section keyword.
fn formal_name(toks: &[Token], at: usize) -> Option<String> {
    let w = toks.get(at)?.word()?.to_ascii_uppercase();
    let w = w.strip_prefix('!').map(str::to_string).unwrap_or(w);
    if SECTIONS.contains(&w.as_str()) || NOT_RUN.contains(&w.as_str()) || !is_name(&w) {
        return None;
    }
    Some(w)
}

/// `RAISE name.`: a classic exception (not `RAISE EXCEPTION`, `RAISE RESUMABLE EXCEPTION`,
/// `RAISE EVENT`, `RAISE SHORTDUMP`).
pub fn classic_raise(st: &Statement) -> Option<StmtKind> {
    let [_, name] = st.tokens.as_slice() else {
        return None;
    };
    let up = name.word()?.to_ascii_uppercase();
    if ["EXCEPTION", "RESUMABLE", "EVENT", "SHORTDUMP"].contains(&up.as_str()) || !is_name(&up) {
        return None;
    }
    Some(StmtKind::Function(Box::new(FunctionStmt::Raise(up))))
}

/// The position of `RAISING name` in a `MESSAGE` statement, if it has one.
fn raising_at(st: &Statement) -> Option<usize> {
    // Words inside parentheses (`e001(zmsg)`) are never the keyword; `RAISING` as a variable
    // name after `WITH` would be followed by no name.
    let mut depth = 0usize;
    for (i, t) in st.tokens.iter().enumerate() {
        match t.kind {
            TokenKind::LParen => depth += 1,
            TokenKind::RParen => depth = depth.saturating_sub(1),
            _ if depth == 0 && i > 1 && t.is_kw("RAISING") => {
                let next = st.tokens.get(i + 1)?.word()?;
                return is_name(&next.to_ascii_uppercase()).then_some(i);
            }
            _ => {}
        }
    }
    None
}

/// `MESSAGE … RAISING name`: the message as `parse_message` reads it without the addition.
pub fn message_raising(
    st: &Statement,
    parse_message: impl Fn(&Statement) -> StmtKind,
) -> Option<StmtKind> {
    let at = raising_at(st)?;
    let exception = st.tokens.get(at + 1)?.word()?.to_ascii_uppercase();
    let mut tokens = st.tokens.clone();
    tokens.drain(at..at + 2);
    let without = Statement {
        tokens,
        line: st.line,
    };
    Some(match parse_message(&without) {
        StmtKind::Message(m) => StmtKind::Function(Box::new(FunctionStmt::MessageRaising {
            message: *m,
            exception,
        })),
        other => other,
    })
}

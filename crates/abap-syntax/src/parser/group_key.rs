//! The key of a grouping, shared by `LOOP AT … GROUP BY` (a statement) and `FOR GROUPS … OF`
//! (a constructor expression): it sits with the expression core because its components are
//! expressions, so the statement parser for groups depends on it and not the other way round.

use crate::ast::{GroupKey, KeyPart};
use crate::lexer::{Token, TokenKind, upper_word};
use crate::parser::cursor::Cursor;
use crate::parser::words::is_name;

/// `expr` or `( name = expr|GROUP SIZE|GROUP INDEX … )`.
pub fn group_key(toks: &[Token]) -> Result<GroupKey, String> {
    let structured = toks.first().is_some_and(|t| t.kind == TokenKind::LParen)
        && toks.last().is_some_and(|t| t.kind == TokenKind::RParen)
        && upper_word(toks.get(2)) == "=";
    if !structured {
        let mut p = Cursor::new(toks);
        let e = p.expr().map_err(|u| u.0)?;
        p.expect_end().map_err(|u| u.0)?;
        return Ok(GroupKey::Single(e));
    }
    let inner = toks.get(1..toks.len() - 1).unwrap_or(&[]);
    let mut out = Vec::new();
    let mut i = 0;
    while i < inner.len() {
        let name = upper_word(inner.get(i));
        if !is_name(&name) || upper_word(inner.get(i + 1)) != "=" {
            return Err("group key component".into());
        }
        i += 2;
        match (
            upper_word(inner.get(i)).as_str(),
            upper_word(inner.get(i + 1)).as_str(),
        ) {
            ("GROUP", "SIZE") => {
                out.push((name, KeyPart::Size));
                i += 2;
            }
            ("GROUP", "INDEX") => {
                out.push((name, KeyPart::Index));
                i += 2;
            }
            _ => {
                let rest = inner.get(i..).unwrap_or(&[]);
                let mut p = Cursor::new(rest);
                let e = p.expr().map_err(|u| u.0)?;
                i += p.position();
                out.push((name, KeyPart::Expr(e)));
            }
        }
    }
    if out.is_empty() {
        return Err("empty group key".into());
    }
    Ok(GroupKey::Fields(out))
}

/// The name of the variable holding the members of group `name`.
pub fn members_var(name: &str) -> String {
    format!("%MEMBERS%{name}")
}

//! Parsing offset/length access `dobj+off(len)` (operands and assignment targets).

use crate::ast::Expr;
use crate::ast::SubAccess;
use crate::lexer::Token;
use crate::lexer::TokenKind;
use crate::parser::words::Unsup;
use crate::parser::words::parse_path;
use abap_data::number::Dec;
use abap_data::value::Value;
/// An offset or length: a number or a data object name.
pub fn operand(word: &str) -> Result<Expr, Unsup> {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()) {
        return match word.parse::<i128>() {
            Ok(n) => Ok(Expr::Lit(Value::P {
                m: Dec::int(n).m.into(),
                len: 16,
                dec: 0,
            })),
            Err(_) => Err(Unsup(format!("offset/length {word}"))),
        };
    }
    parse_path(word)
        .map(Expr::Path)
        .ok_or_else(|| Unsup(format!("offset/length {word}")))
}

/// Recognises an offset/length access whose first word is `word` (already consumed);
/// `rest` are the tokens after it. Returns the access and how many tokens of `rest` it used,
/// or `None` when `word` is a plain operand.
pub fn parse(word: &str, rest: &[Token]) -> Result<Option<(SubAccess, usize)>, Unsup> {
    let (base_word, off_word) = match word.find('+') {
        Some(i) if i > 0 => (word.get(..i).unwrap_or(""), word.get(i + 1..)),
        _ => (word, None),
    };
    // `(len)` glued to the word and with nothing but one word inside: a call always has a
    // blank after its parenthesis.
    let len_word = match rest {
        [open, inner, close, ..]
            if open.kind == TokenKind::LParen
                && !open.space_before
                && !inner.space_before
                && close.kind == TokenKind::RParen
                && !close.space_before =>
        {
            inner.word()
        }
        _ => None,
    };
    if off_word.is_none() && len_word.is_none() {
        return Ok(None);
    }
    if NOT_DATA.iter().any(|w| base_word.eq_ignore_ascii_case(w)) {
        return Ok(None);
    }
    let Some(base) = parse_path(base_word) else {
        return Err(Unsup(format!("offset/length access {word}")));
    };
    let off = off_word.map(operand).transpose()?;
    let len = match len_word {
        Some("*") => return Err(Unsup("offset/length access with (*)".into())),
        Some(w) => Some(operand(w)?),
        None => None,
    };
    let used = if len.is_some() { 3 } else { 0 };
    Ok(Some((SubAccess { base, off, len }, used)))
}

/// A statement `dobj+off(len) = …`: the access and the number of tokens before the `=`.
pub fn assignment_target(toks: &[Token]) -> Option<(SubAccess, usize)> {
    let word = toks.first()?.word()?;
    let (access, used) = parse(word, toks.get(1..)?).ok()??;
    let eq = toks.get(1 + used)?;
    (eq.word() == Some("=")).then_some((access, 1 + used))
}

/// Words that are followed by a glued `(x)` without being an offset/length access.
const NOT_DATA: &[&str] = &["DATA", "FINAL", "FIELD-SYMBOL", "VALUE", "REFERENCE"];

//! Parsing `GET TIME [STAMP]`, `CONVERT TIME STAMP` and `CONVERT DATE`.

use crate::ast::Expr;
use crate::ast::Target;
use crate::ast::TimeStmt;
use crate::lexer::Token;
use crate::lexer::upper_word;
use crate::parser::expr::parse_full_expr;
use crate::parser::words::inline_decl;
use crate::parser::words::parse_path;
pub fn target(toks: &[Token]) -> Option<Target> {
    if let Some((name, n)) = inline_decl(toks) {
        return (n == toks.len()).then_some(Target::Inline(name));
    }
    match toks {
        [t] => t.word().and_then(parse_path).map(Target::Path),
        _ => None,
    }
}

/// Splits `toks` at the given keyword phrases (each a sequence of words, in any order, each at
/// most once): the operand tokens after each phrase.
pub fn clauses<'t>(toks: &'t [Token], phrases: &[&[&str]]) -> Option<Vec<Option<&'t [Token]>>> {
    let mut starts: Vec<(usize, usize, usize)> = Vec::new(); // (phrase, start, operand start)
    let mut i = 0;
    while i < toks.len() {
        let found = phrases.iter().enumerate().find(|(_, p)| {
            p.iter()
                .enumerate()
                .all(|(k, w)| toks.get(i + k).is_some_and(|t| t.is_kw(w)))
        });
        match found {
            Some((n, p)) => {
                if starts.iter().any(|(m, _, _)| *m == n) {
                    return None;
                }
                starts.push((n, i, i + p.len()));
                i += p.len();
            }
            None => i += 1,
        }
    }
    if starts.first().is_none_or(|(_, s, _)| *s != 0) {
        return None;
    }
    let mut out = vec![None; phrases.len()];
    for (k, (n, _, from)) in starts.iter().enumerate() {
        let to = starts.get(k + 1).map_or(toks.len(), |(_, s, _)| *s);
        let slot = out.get_mut(*n)?;
        *slot = Some(toks.get(*from..to)?);
    }
    Some(out)
}

/// `GET TIME …` (tokens of the whole statement).
pub fn parse_get_time(toks: &[Token]) -> Result<TimeStmt, String> {
    let bad = || "GET TIME".to_string();
    match (
        upper_word(toks.get(2)).as_str(),
        upper_word(toks.get(3)).as_str(),
    ) {
        ("", _) => Ok(TimeStmt::GetTime(None)),
        ("FIELD", _) => target(toks.get(3..).unwrap_or(&[]))
            .map(|t| TimeStmt::GetTime(Some(t)))
            .ok_or_else(bad),
        ("STAMP", "FIELD") => target(toks.get(4..).unwrap_or(&[]))
            .map(TimeStmt::GetTimeStamp)
            .ok_or_else(|| "GET TIME STAMP".to_string()),
        _ => Err(bad()),
    }
}

pub fn operand(toks: Option<&[Token]>) -> Option<Expr> {
    parse_full_expr(toks?).ok()
}

/// `CONVERT TIME STAMP …` / `CONVERT DATE …` (tokens of the whole statement).
pub fn parse_convert(toks: &[Token]) -> Result<TimeStmt, String> {
    let rest = toks.get(1..).unwrap_or(&[]);
    let bad = || format!("CONVERT {}", upper_word(rest.first()));
    if upper_word(rest.first()) == "TIME" && upper_word(rest.get(1)) == "STAMP" {
        let c = clauses(
            rest,
            &[
                &["TIME", "STAMP"],
                &["TIME", "ZONE"],
                &["INTO", "DATE"],
                &["INTO", "TIME"],
                &["TIME"],
                &["DAYLIGHT", "SAVING", "TIME"],
            ],
        )
        .ok_or_else(bad)?;
        let get = |k: usize| c.get(k).copied().flatten();
        // `INTO TIME t` without DATE is the `INTO TIME` phrase; after DATE it is `TIME`.
        let time = get(3).or(get(4));
        let tgt = |t: Option<&[Token]>| match t {
            Some(t) => target(t).map(Some).ok_or_else(bad),
            None => Ok(None),
        };
        return Ok(TimeStmt::StampToDate {
            stamp: operand(get(0)).ok_or_else(bad)?,
            zone: operand(get(1)).ok_or_else(bad)?,
            date: tgt(get(2))?,
            time: tgt(time)?,
            dst: tgt(get(5))?,
        });
    }
    if upper_word(rest.first()) == "DATE" {
        let c = clauses(
            rest,
            &[
                &["DATE"],
                &["TIME", "ZONE"],
                &["INTO", "TIME", "STAMP"],
                &["TIME"],
                &["DAYLIGHT", "SAVING", "TIME"],
            ],
        )
        .ok_or_else(bad)?;
        let get = |k: usize| c.get(k).copied().flatten();
        if get(4).is_some() {
            return Err("CONVERT DATE … DAYLIGHT SAVING TIME".into());
        }
        return Ok(TimeStmt::DateToStamp {
            date: operand(get(0)).ok_or_else(bad)?,
            time: match get(3) {
                Some(t) => Some(operand(Some(t)).ok_or_else(bad)?),
                None => None,
            },
            stamp: get(2).and_then(target).ok_or_else(bad)?,
            zone: operand(get(1)).ok_or_else(bad)?,
        });
    }
    Err(bad())
}

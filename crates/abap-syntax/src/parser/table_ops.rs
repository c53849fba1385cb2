//! Parsing the internal table statements beyond the basics: `APPEND|INSERT LINES OF`,
//! `COLLECT`, `MODIFY … TRANSPORTING … WHERE`, `DESCRIBE TABLE`, `DELETE … WHERE`,
//! `DELETE ADJACENT DUPLICATES`, `READ TABLE … WITH KEY`.

use crate::ast::Expr;
use crate::ast::Path;
use crate::ast::RowTarget;
use crate::ast::TableOp;
use crate::lexer::Token;
use crate::lexer::TokenKind;
use crate::lexer::upper_word;
use crate::parser::expr::parse_full_cond;
use crate::parser::expr::parse_full_expr;
use crate::parser::words::parse_path;
pub fn expr(toks: &[Token]) -> Result<Expr, String> {
    parse_full_expr(toks).map_err(|u| u.0)
}

pub fn path(t: Option<&Token>) -> Result<Path, String> {
    t.and_then(Token::word)
        .and_then(parse_path)
        .ok_or_else(|| "table operand".to_string())
}

/// Splits `toks` at the top-level (outside parentheses) clause keywords `kws`: the tokens
/// before the first clause, then each clause keyword with its tokens. `WHERE` takes the rest.
pub fn clauses<'t>(toks: &'t [Token], kws: &[&str]) -> (&'t [Token], Vec<(String, &'t [Token])>) {
    let mut depth = 0usize;
    let mut cuts: Vec<(usize, String)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.kind {
            TokenKind::LParen => depth += 1,
            TokenKind::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
        let w = upper_word(Some(t));
        if depth == 0 && kws.contains(&w.as_str()) && t.kind != TokenKind::LParen {
            cuts.push((i, w.clone()));
            if w == "WHERE" {
                break;
            }
        }
    }
    let head_end = cuts.first().map_or(toks.len(), |c| c.0);
    let mut out = Vec::new();
    for (k, (at, w)) in cuts.iter().enumerate() {
        let end = cuts.get(k + 1).map_or(toks.len(), |c| c.0);
        out.push((w.clone(), toks.get(at + 1..end).unwrap_or(&[])));
    }
    (toks.get(..head_end).unwrap_or(&[]), out)
}

/// The component names after `TRANSPORTING`.
fn comp_names(toks: &[Token]) -> Result<Vec<String>, String> {
    if toks.is_empty() {
        return Err("TRANSPORTING without components".into());
    }
    toks.iter()
        .map(|t| {
            let w = upper_word(Some(t));
            if crate::parser::words::is_name(&w) || w.contains('-') {
                Ok(w)
            } else {
                Err(format!("TRANSPORTING {w}"))
            }
        })
        .collect()
}

/// Parses the statements of this module; `None` when the statement is one of the basic forms
/// `parser/tables.rs` handles.
pub fn parse(kw: &str, toks: &[Token]) -> Option<Result<TableOp, String>> {
    let rest = toks.get(1..).unwrap_or(&[]);
    match kw {
        "APPEND" | "INSERT"
            if upper_word(rest.first()) == "LINES" && upper_word(rest.get(1)) == "OF" =>
        {
            Some(lines(kw == "INSERT", rest.get(2..).unwrap_or(&[])))
        }
        "COLLECT" => Some(collect(rest)),
        "MODIFY" if upper_word(rest.first()) == "TABLE" => Some(modify_table(rest)),
        "MODIFY" if rest.iter().any(|t| t.is_kw("TRANSPORTING")) => Some(modify_comps(rest)),
        "READ" if rest.iter().any(|t| t.is_kw("FROM")) => Some(read_from(rest)),
        "READ" => {
            let (toks, using) = crate::parser::table_ops::split_key_name(toks);
            match crate::parser::tables::parse_table_stmt(kw, &toks) {
                Ok(crate::ast::TableStmt::Read {
                    table,
                    target,
                    index: None,
                    key,
                }) => Some(Ok(TableOp::ReadKey {
                    table,
                    target,
                    key,
                    from: None,
                    binary: rest.iter().any(|t| t.is_kw("BINARY")),
                    using,
                })),
                _ if using.is_some() => Some(Err("READ TABLE … KEY name".into())),
                _ => None,
            }
        }
        "DESCRIBE" => Some(describe(rest)),
        "DELETE" if upper_word(rest.first()) == "TABLE" => Some(delete_table(rest)),
        "DELETE" if matches!(upper_word(rest.get(1)).as_str(), "FROM" | "TO") => {
            Some(delete_range(rest))
        }
        _ => None,
    }
}

pub fn lines(insert: bool, toks: &[Token]) -> Result<TableOp, String> {
    let target_kw = if insert { "INTO" } else { "TO" };
    // The destination follows the last top-level `TO`/`INTO` (`FROM 2 TO 3 TO itab`).
    let mut depth = 0usize;
    let mut last = None;
    for (i, t) in toks.iter().enumerate() {
        match t.kind {
            TokenKind::LParen => depth += 1,
            TokenKind::RParen => depth = depth.saturating_sub(1),
            _ if depth == 0 && t.is_kw(target_kw) => last = Some(i),
            _ => {}
        }
    }
    let at = last.ok_or_else(|| format!("LINES OF without {target_kw}"))?;
    let (src, parts) = clauses(toks.get(..at).unwrap_or(&[]), &["FROM", "TO"]);
    let src = expr(src)?;
    let (mut from, mut to) = (None, None);
    for (k, t) in parts {
        match k.as_str() {
            "FROM" => from = Some(expr(t)?),
            _ => to = Some(expr(t)?),
        }
    }
    let dest = toks.get(at + 1..).unwrap_or(&[]);
    let by_key = insert && upper_word(dest.first()) == "TABLE";
    let dest = if by_key { &dest[1..] } else { dest };
    let table = path(dest.first())?;
    let index = match (upper_word(dest.get(1)).as_str(), insert, by_key) {
        ("", _, _) => None,
        ("INDEX", true, false) => Some(expr(dest.get(2..).unwrap_or(&[]))?),
        (other, _, _) => return Err(format!("LINES OF … {other}")),
    };
    Ok(TableOp::Lines {
        insert,
        src,
        from,
        to,
        table,
        by_key,
        index,
    })
}

/// `READ TABLE itab FROM wa INTO …|ASSIGNING …|REFERENCE INTO …|TRANSPORTING NO FIELDS`.
fn read_from(rest: &[Token]) -> Result<TableOp, String> {
    if upper_word(rest.first()) != "TABLE" {
        return Err("READ".into());
    }
    let table = path(rest.get(1))?;
    let tail = rest.get(2..).unwrap_or(&[]);
    let (head, parts) = clauses(
        tail,
        &["FROM", "INTO", "ASSIGNING", "REFERENCE", "TRANSPORTING"],
    );
    if !head.is_empty() {
        return Err("READ TABLE".into());
    }
    let mut from = None;
    let mut target = RowTarget::None;
    // Row targets are parsed from the clause keyword on (`INTO DATA(x)`, `REFERENCE INTO r`).
    let mut at = 0usize;
    let mut after_reference = false;
    for (k, t) in parts {
        // `REFERENCE INTO r`: the `INTO` belongs to the `REFERENCE` clause.
        if std::mem::replace(&mut after_reference, k == "REFERENCE") && k == "INTO" {
            continue;
        }
        let start = tail
            .iter()
            .enumerate()
            .skip(at)
            .find(|(_, x)| upper_word(Some(x)) == k)
            .map_or(tail.len(), |(i, _)| i);
        at = start + 1 + t.len();
        match k.as_str() {
            "FROM" => from = Some(expr(t)?),
            _ => target = crate::parser::tables::row_target(tail, start)?.0,
        }
    }
    Ok(TableOp::ReadKey {
        table,
        target,
        key: Vec::new(),
        from: Some(from.ok_or("READ TABLE without FROM")?),
        binary: false,
        using: None,
    })
}

pub fn collect(rest: &[Token]) -> Result<TableOp, String> {
    let (what, parts) = clauses(rest, &["INTO"]);
    match parts.as_slice() {
        [(_, t)] if t.len() == 1 => Ok(TableOp::Collect {
            what: expr(what)?,
            table: path(t.first())?,
        }),
        // `COLLECT itab.`: the header line into the body (`header_lines.rs`).
        [] if what.len() == 1 => Ok(TableOp::Collect {
            what: expr(what)?,
            table: path(what.first())?,
        }),
        _ => Err("COLLECT with additions".into()),
    }
}

fn modify_table(rest: &[Token]) -> Result<TableOp, String> {
    let table = path(rest.get(1))?;
    let (head, parts) = clauses(rest.get(2..).unwrap_or(&[]), &["FROM", "TRANSPORTING"]);
    if !head.is_empty() {
        return Err("MODIFY TABLE".into());
    }
    let mut from = None;
    let mut comps = Vec::new();
    for (k, t) in parts {
        match k.as_str() {
            "FROM" => from = Some(expr(t)?),
            _ => comps = comp_names(t)?,
        }
    }
    Ok(TableOp::ModifyTable {
        table,
        from: from.ok_or("MODIFY TABLE without FROM")?,
        comps,
    })
}

fn modify_comps(rest: &[Token]) -> Result<TableOp, String> {
    let table = path(rest.first())?;
    let (head, parts) = clauses(
        rest.get(1..).unwrap_or(&[]),
        &["FROM", "INDEX", "TRANSPORTING", "WHERE"],
    );
    if !head.is_empty() {
        return Err("MODIFY".into());
    }
    let (mut from, mut index, mut comps, mut cond) = (None, None, Vec::new(), None);
    for (k, t) in parts {
        match k.as_str() {
            "FROM" => from = Some(expr(t)?),
            "INDEX" => index = Some(expr(t)?),
            "TRANSPORTING" => comps = comp_names(t)?,
            _ => cond = Some(parse_full_cond(t).map_err(|u| u.0)?),
        }
    }
    if index.is_some() && cond.is_some() {
        return Err("MODIFY with INDEX and WHERE".into());
    }
    Ok(TableOp::ModifyComps {
        table,
        from: from.ok_or("MODIFY without FROM")?,
        index,
        comps,
        cond,
    })
}

pub fn describe(rest: &[Token]) -> Result<TableOp, String> {
    if upper_word(rest.first()) != "TABLE" {
        return Err("DESCRIBE FIELD".into());
    }
    let table = path(rest.get(1))?;
    let (head, parts) = clauses(rest.get(2..).unwrap_or(&[]), &["KIND", "LINES", "OCCURS"]);
    if !head.is_empty() {
        return Err("DESCRIBE TABLE".into());
    }
    let (mut kind, mut lines, mut occurs) = (None, None, None);
    let mut declared = Vec::new();
    for (k, t) in parts {
        let p = match t {
            [one] => path(Some(one))?,
            _ => match crate::parser::words::inline_decl(t) {
                Some((name, used)) if used == t.len() => {
                    declared.push(name.clone());
                    Path {
                        base: name,
                        rest: Vec::new(),
                    }
                }
                _ => return Err(format!("DESCRIBE TABLE … {k}")),
            },
        };
        match k.as_str() {
            "KIND" => kind = Some(p),
            "LINES" => lines = Some(p),
            _ => occurs = Some(p),
        }
    }
    Ok(TableOp::Describe {
        table,
        kind,
        lines,
        occurs,
        declared,
    })
}

fn delete_range(rest: &[Token]) -> Result<TableOp, String> {
    let table = path(rest.first())?;
    let (head, parts) = clauses(rest.get(1..).unwrap_or(&[]), &["FROM", "TO", "WHERE"]);
    if !head.is_empty() {
        return Err("DELETE".into());
    }
    let (mut from, mut to, mut cond) = (None, None, None);
    for (k, t) in parts {
        match k.as_str() {
            "FROM" => from = Some(expr(t)?),
            "TO" => to = Some(expr(t)?),
            _ => cond = Some(parse_full_cond(t).map_err(|u| u.0)?),
        }
    }
    Ok(TableOp::DeleteRange {
        table,
        from,
        to,
        cond,
    })
}

fn delete_table(rest: &[Token]) -> Result<TableOp, String> {
    let table = path(rest.get(1))?;
    let tail = rest.get(2..).unwrap_or(&[]);
    match (
        upper_word(tail.first()).as_str(),
        upper_word(tail.get(1)).as_str(),
    ) {
        ("FROM", _) => Ok(TableOp::DeleteTable {
            table,
            from: Some(expr(&tail[1..])?),
            key: Vec::new(),
        }),
        ("WITH", "TABLE") if upper_word(tail.get(2)) == "KEY" => Ok(TableOp::DeleteTable {
            table,
            from: None,
            key: crate::parser::tables::key_list(tail.get(3..).unwrap_or(&[]))?,
        }),
        _ => Err("DELETE TABLE".into()),
    }
}

/// `… KEY name COMPONENTS …` in a `READ TABLE`: the tokens without `name COMPONENTS` and
/// the key name (`PRIMARY_KEY` gives `None`).
pub fn split_key_name(toks: &[Token]) -> (Vec<Token>, Option<String>) {
    let at = toks.iter().enumerate().position(|(i, t)| {
        t.is_kw("KEY") && toks.get(i + 2).is_some_and(|c| c.is_kw("COMPONENTS"))
    });
    let Some(at) = at else {
        return (toks.to_vec(), None);
    };
    let name = upper_word(toks.get(at + 1));
    let out: Vec<Token> = toks
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != at + 1 && *i != at + 2)
        .map(|(_, t)| t.clone())
        .collect();
    let using = (name != "PRIMARY_KEY").then_some(name);
    (out, using)
}

//! Parsing the basic internal table statements (`APPEND`, `INSERT`, `READ TABLE`, `MODIFY`,
//! `DELETE`, `SORT`, `CLEAR`/`REFRESH`/`FREE`) and `LOOP AT`.

use crate::ast::Expr;
use crate::ast::Path;
use crate::ast::RowTarget;
use crate::ast::TableStmt;
use crate::lexer::Token;
use crate::lexer::TokenKind;
use crate::lexer::upper_word;
use crate::parser::expr::parse_full_cond;
use crate::parser::expr::parse_full_expr;
use crate::parser::words::inline_decl;
use crate::parser::words::parse_path;
fn find_kw(toks: &[Token], kw: &str) -> Option<usize> {
    toks.iter().position(|t| t.is_kw(kw))
}

pub fn expr(toks: &[Token]) -> Result<Expr, String> {
    parse_full_expr(toks).map_err(|u| u.0)
}

pub fn path(t: Option<&Token>) -> Result<Path, String> {
    t.and_then(Token::word)
        .and_then(parse_path)
        .ok_or_else(|| "table operand".to_string())
}

/// `INTO wa` / `INTO DATA(wa)` / `ASSIGNING <fs>` / `ASSIGNING FIELD-SYMBOL(<fs>)` /
/// `TRANSPORTING NO FIELDS` at `toks[i..]`: the target and the tokens used.
pub fn row_target(toks: &[Token], i: usize) -> Result<(RowTarget, usize), String> {
    match upper_word(toks.get(i)).as_str() {
        "INTO" => {
            let rest = toks.get(i + 1..).unwrap_or(&[]);
            if let Some((name, n)) = inline_decl(rest) {
                return Ok((RowTarget::IntoDecl(name), 1 + n));
            }
            Ok((RowTarget::Into(path(rest.first())?), 2))
        }
        "ASSIGNING" => {
            let rest = toks.get(i + 1..).unwrap_or(&[]);
            if rest.first().is_some_and(|t| t.is_kw("FIELD-SYMBOL")) {
                let name = upper_word(rest.get(2));
                return Ok((RowTarget::Assign(name), 5));
            }
            Ok((RowTarget::Assign(upper_word(rest.first())), 2))
        }
        "TRANSPORTING" if upper_word(toks.get(i + 1)) == "NO" => Ok((RowTarget::None, 3)),
        "REFERENCE" if upper_word(toks.get(i + 1)) == "INTO" => {
            let rest = toks.get(i + 2..).unwrap_or(&[]);
            if let Some((name, n)) = inline_decl(rest) {
                let p = parse_path(&name).ok_or_else(|| "REFERENCE INTO".to_string())?;
                return Ok((RowTarget::Ref(p, true), 2 + n));
            }
            Ok((RowTarget::Ref(path(rest.first())?, false), 3))
        }
        other => Err(format!("row target {other}")),
    }
}

/// `c = v [AND] c = v …` (key components).
pub fn key_list(toks: &[Token]) -> Result<Vec<(String, Expr)>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].is_kw("AND") {
            i += 1;
            continue;
        }
        let name = upper_word(toks.get(i));
        if toks.get(i + 1).and_then(Token::word) != Some("=") {
            return Err("key component".into());
        }
        let end = toks[i + 2..]
            .iter()
            .enumerate()
            .position(|(k, t)| {
                toks.get(i + 2 + k + 1).and_then(Token::word) == Some("=") && k > 0
                    || t.is_kw("AND")
            })
            .map_or(toks.len(), |p| i + 2 + p);
        out.push((name, expr(&toks[i + 2..end])?));
        i = end;
    }
    Ok(out)
}

/// Parses a table statement (not `LOOP`, whose body the block parser reads); `Err` names the
/// unsupported construct.
pub fn parse_table_stmt(kw: &str, toks: &[Token]) -> Result<TableStmt, String> {
    let rest = toks.get(1..).unwrap_or(&[]);
    match kw {
        // `APPEND itab.`: the header line to the body (`header_lines.rs`).
        "APPEND" if rest.len() == 1 => {
            let table = path(rest.first())?;
            Ok(TableStmt::Append {
                what: Some(Expr::Path(table.clone())),
                table,
                target: RowTarget::None,
            })
        }
        "APPEND" => {
            let to = find_kw(rest, "TO").ok_or("APPEND without TO")?;
            let what = if rest.first().is_some_and(|t| t.is_kw("INITIAL"))
                && upper_word(rest.get(1)) == "LINE"
            {
                None
            } else if rest.first().is_some_and(|t| t.is_kw("LINES")) {
                return Err("APPEND LINES OF".into());
            } else {
                Some(expr(&rest[..to])?)
            };
            let table = path(rest.get(to + 1))?;
            let target = if rest.len() > to + 2 {
                row_target(rest, to + 2)?.0
            } else {
                RowTarget::None
            };
            Ok(TableStmt::Append {
                what,
                table,
                target,
            })
        }
        // `INSERT itab [INDEX n].`: the header line into the body.
        "INSERT"
            if find_kw(rest, "INTO").is_none()
                && (rest.len() == 1 || upper_word(rest.get(1)) == "INDEX") =>
        {
            let table = path(rest.first())?;
            let index = match rest.get(2..) {
                Some(ix) if !ix.is_empty() => expr(ix)?,
                _ => Expr::Path(Path {
                    base: "SY".into(),
                    rest: vec![(crate::ast::Sel::Dash, "TABIX".into())],
                }),
            };
            Ok(TableStmt::Insert {
                what: Some(Expr::Path(table.clone())),
                table,
                index: Some(index),
                target: RowTarget::None,
            })
        }
        "INSERT" => {
            let into = find_kw(rest, "INTO").ok_or("INSERT without INTO")?;
            if rest.first().is_some_and(|t| t.is_kw("LINES")) {
                return Err("INSERT LINES OF".into());
            }
            let what = if upper_word(rest.first()) == "INITIAL" {
                None
            } else {
                Some(expr(&rest[..into])?)
            };
            // `ASSIGNING <fs>` / `REFERENCE INTO dref` at the end.
            let target_at = (into + 1..rest.len())
                .find(|k| matches!(upper_word(rest.get(*k)).as_str(), "ASSIGNING" | "REFERENCE"));
            let target = match target_at {
                Some(k) => {
                    let (t, n) = row_target(rest, k)?;
                    if k + n != rest.len() {
                        return Err("INSERT … with additions".into());
                    }
                    t
                }
                None => RowTarget::None,
            };
            let end = target_at.unwrap_or(rest.len());
            if upper_word(rest.get(into + 1)) == "TABLE" {
                if end != into + 3 {
                    return Err("INSERT INTO TABLE with additions".into());
                }
                return Ok(TableStmt::Insert {
                    what,
                    table: path(rest.get(into + 2))?,
                    index: None,
                    target,
                });
            }
            let table = path(rest.get(into + 1))?;
            let index = match upper_word(rest.get(into + 2)).as_str() {
                "INDEX" => Some(expr(rest.get(into + 3..end).unwrap_or(&[]))?),
                _ if end == into + 2 => None,
                other => return Err(format!("INSERT … {other}")),
            };
            Ok(TableStmt::Insert {
                what,
                table,
                index: Some(index.unwrap_or(Expr::Path(Path {
                    base: "SY".into(),
                    rest: vec![(crate::ast::Sel::Dash, "TABIX".into())],
                }))),
                target,
            })
        }
        "READ" => {
            let table = path(rest.get(1))?;
            let mut i = 2;
            let mut target = RowTarget::HeaderLine(table.clone());
            let mut index = None;
            let mut key = Vec::new();
            while i < rest.len() {
                match upper_word(rest.get(i)).as_str() {
                    "INTO" | "ASSIGNING" | "TRANSPORTING" | "REFERENCE" => {
                        let (t, n) = row_target(rest, i)?;
                        target = t;
                        i += n;
                    }
                    "INDEX" => {
                        let end = (i + 1..rest.len())
                            .find(|k| {
                                matches!(
                                    upper_word(rest.get(*k)).as_str(),
                                    "INTO" | "ASSIGNING" | "TRANSPORTING" | "REFERENCE"
                                )
                            })
                            .unwrap_or(rest.len());
                        index = Some(expr(&rest[i + 1..end])?);
                        i = end;
                    }
                    "WITH" => {
                        let mut k = i + 1;
                        if upper_word(rest.get(k)) == "TABLE" {
                            k += 1;
                        }
                        if upper_word(rest.get(k)) != "KEY" {
                            return Err("READ TABLE WITH".into());
                        }
                        let end = (k + 1..rest.len())
                            .find(|j| {
                                matches!(
                                    upper_word(rest.get(*j)).as_str(),
                                    "INTO" | "ASSIGNING" | "TRANSPORTING" | "REFERENCE" | "BINARY"
                                )
                            })
                            .unwrap_or(rest.len());
                        key = key_list(&rest[k + 1..end])?;
                        i = end;
                    }
                    "BINARY" => i += 2,
                    other => return Err(format!("READ TABLE … {other}")),
                }
            }
            if index.is_none() && key.is_empty() {
                return Err("READ TABLE without INDEX or KEY".into());
            }
            Ok(TableStmt::Read {
                table,
                target,
                index,
                key,
            })
        }
        "MODIFY" => {
            if upper_word(rest.first()) == "TABLE" {
                return Err("MODIFY TABLE".into());
            }
            let table = path(rest.first())?;
            let (from, index) = match (
                upper_word(rest.get(1)).as_str(),
                upper_word(rest.get(2)).as_str(),
            ) {
                // `MODIFY itab [INDEX n].`: from the header line.
                ("", _) => (Expr::Path(table.clone()), None),
                ("INDEX", _) if find_kw(rest, "FROM").is_none() => {
                    (Expr::Path(table.clone()), Some(expr(&rest[2..])?))
                }
                ("FROM", _) => {
                    let ix = find_kw(rest, "INDEX");
                    if find_kw(rest, "TRANSPORTING").is_some() || find_kw(rest, "WHERE").is_some() {
                        return Err("MODIFY … TRANSPORTING".into());
                    }
                    let from = expr(&rest[2..ix.unwrap_or(rest.len())])?;
                    (from, ix.map(|k| expr(&rest[k + 1..])).transpose()?)
                }
                ("INDEX", _) => {
                    let f = find_kw(rest, "FROM").ok_or("MODIFY without FROM")?;
                    if find_kw(rest, "TRANSPORTING").is_some() {
                        return Err("MODIFY … TRANSPORTING".into());
                    }
                    (expr(&rest[f + 1..])?, Some(expr(&rest[2..f])?))
                }
                _ => return Err("MODIFY".into()),
            };
            Ok(TableStmt::Modify { table, from, index })
        }
        "DELETE" => {
            if upper_word(rest.first()) == "ADJACENT" {
                let table = path(rest.get(3))?;
                let comparing = match upper_word(rest.get(4)).as_str() {
                    "COMPARING" => rest[5..].iter().map(|t| upper_word(Some(t))).collect(),
                    "" => Vec::new(),
                    other => return Err(format!("DELETE ADJACENT DUPLICATES … {other}")),
                };
                return Ok(TableStmt::DeleteAdjacent { table, comparing });
            }
            let table = path(rest.first())?;
            match upper_word(rest.get(1)).as_str() {
                "INDEX" => Ok(TableStmt::Delete {
                    table,
                    index: Some(expr(&rest[2..])?),
                    cond: None,
                }),
                "WHERE" => Ok(TableStmt::Delete {
                    table,
                    index: None,
                    cond: Some(match crate::parser::dynamic::dynamic_where(&rest[2..]) {
                        Some(c) => c,
                        None => parse_full_cond(&rest[2..]).map_err(|u| u.0)?,
                    }),
                }),
                "" => Ok(TableStmt::Delete {
                    table,
                    index: None,
                    cond: None,
                }),
                other => Err(format!("DELETE … {other}")),
            }
        }
        "SORT" => {
            let table = path(rest.first())?;
            let mut descending = false;
            let mut by: Vec<(String, bool)> = Vec::new();
            let mut in_by = false;
            let mut as_text = false;
            for t in rest.iter().skip(1) {
                match upper_word(Some(t)).as_str() {
                    "ASCENDING" | "DESCENDING" => {
                        let d = t.is_kw("DESCENDING");
                        match (in_by, by.last_mut()) {
                            (true, Some(last)) => last.1 = d,
                            _ => descending = d,
                        }
                    }
                    "BY" => in_by = true,
                    "STABLE" => {}
                    // `AS TEXT` sorts by the locale's collation; for the texts programs
                    // compare here the code point order is taken as that.
                    "AS" => as_text = true,
                    "TEXT" if as_text => as_text = false,
                    w if in_by => by.push((w.to_string(), descending)),
                    other => return Err(format!("SORT … {other}")),
                }
            }
            Ok(TableStmt::Sort {
                table,
                descending,
                by,
            })
        }
        "REFRESH" | "FREE" if rest.len() == 1 => Ok(TableStmt::Refresh(
            path(rest.first())?,
            if kw == "FREE" { "FREE" } else { "REFRESH" },
        )),
        other => Err(other.to_string()),
    }
}

/// `LOOP AT itab [INTO …|ASSIGNING …|TRANSPORTING NO FIELDS] [FROM n] [TO m] [WHERE cond]`
/// without the body.
pub fn parse_loop(toks: &[Token]) -> Result<TableStmt, String> {
    if upper_word(toks.get(1)) != "AT" {
        return Err("LOOP".into());
    }
    let is_clause = |w: &str| {
        matches!(
            w,
            "INTO" | "ASSIGNING" | "TRANSPORTING" | "REFERENCE" | "FROM" | "TO" | "WHERE" | "USING"
        )
    };
    let (table, source, mut i) = loop_operand(toks, &is_clause)?;
    let mut target = match source {
        None => RowTarget::HeaderLine(table.clone()),
        Some(_) => RowTarget::None,
    };
    let (mut from, mut to, mut cond, mut key) = (None, None, None, None);
    while i < toks.len() {
        match upper_word(toks.get(i)).as_str() {
            "INTO" | "ASSIGNING" | "TRANSPORTING" | "REFERENCE" => {
                let (t, n) = row_target(toks, i)?;
                target = t;
                i += n;
            }
            k @ ("FROM" | "TO") => {
                let end = (i + 1..toks.len())
                    .find(|j| is_clause(&upper_word(toks.get(*j))))
                    .unwrap_or(toks.len());
                let e = expr(&toks[i + 1..end])?;
                if k == "FROM" {
                    from = Some(e);
                } else {
                    to = Some(e);
                }
                i = end;
            }
            "WHERE" => {
                cond = match crate::parser::dynamic::dynamic_where(&toks[i + 1..]) {
                    Some(c) => Some(c),
                    None => Some(parse_full_cond(&toks[i + 1..]).map_err(|u| u.0)?),
                };
                i = toks.len();
            }
            "USING" if upper_word(toks.get(i + 1)) == "KEY" => {
                // `USING KEY (name)`: the key's name is in a data object (kept as `(NAME)`).
                if toks.get(i + 2).is_some_and(|t| t.kind == TokenKind::LParen)
                    && let Some(dobj) = toks.get(i + 3).and_then(Token::word)
                    && toks.get(i + 4).is_some_and(|t| t.kind == TokenKind::RParen)
                {
                    key = Some(format!("({})", dobj.to_ascii_uppercase()));
                    i += 5;
                    continue;
                }
                let name = upper_word(toks.get(i + 2));
                if name.is_empty() {
                    return Err("LOOP AT … USING KEY".into());
                }
                if name != "PRIMARY_KEY" {
                    key = Some(name);
                }
                i += 3;
            }
            other => return Err(format!("LOOP AT … {other}")),
        }
    }
    Ok(TableStmt::Loop {
        table,
        source,
        target,
        from,
        to,
        cond,
        key,
        body: Vec::new(),
    })
}

/// The table operand of `LOOP AT` from `toks[2]` up to the first addition: a data object, or
/// an expression (`meth( )`, `itab[ … ]-comp`, `VALUE #( … )`) that the loop evaluates once
/// into an internal variable named after its line. Returns the table, the expression and the
/// index of the first addition.
fn loop_operand(
    toks: &[Token],
    is_clause: &dyn Fn(&str) -> bool,
) -> Result<(Path, Option<Box<Expr>>, usize), String> {
    let mut depth = 0usize;
    let mut end = 2;
    while let Some(t) = toks.get(end) {
        match t.kind {
            TokenKind::LParen => depth += 1,
            TokenKind::RParen => depth = depth.saturating_sub(1),
            _ if depth == 0 && is_clause(&upper_word(Some(t))) => break,
            _ => {}
        }
        // `meth(` and `itab[` open a bracket of their own.
        if t.word()
            .is_some_and(|w| w.ends_with('(') || w.ends_with('['))
        {
            depth += 1;
        }
        if t.word()
            .is_some_and(|w| w.starts_with(')') || w.starts_with(']'))
        {
            depth = depth.saturating_sub(1);
        }
        end += 1;
    }
    let operand = toks.get(2..end).unwrap_or(&[]);
    if let [single] = operand
        && let Some(p) = single.word().and_then(parse_path)
    {
        return Ok((p, None, end));
    }
    if operand.is_empty() {
        return Err("table operand".into());
    }
    let e = expr(operand)?;
    let line = operand.first().map_or(0, |t| t.line);
    let table = Path {
        base: format!("%LOOP%{line}"),
        rest: Vec::new(),
    };
    Ok((table, Some(Box::new(e)), end))
}

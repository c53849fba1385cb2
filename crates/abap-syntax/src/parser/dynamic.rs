//! Parsing the dynamic statements: `CALL METHOD` with a method or class name in parentheses,
//! `CREATE OBJECT … TYPE (name)`, `CREATE DATA … TYPE (name)` and its table and reference
//! forms, `SORT … BY (name)`, `READ TABLE … WITH KEY (name) = …`, and `WHERE (cond)`.

use crate::ast::{Cond, DynArgs, DynCall, DynCallTarget, DynDataKind, DynName, DynStmt};
use crate::ast::{Expr, Path, RowTarget};
use crate::lexer::{Token, TokenKind, upper_word};
use crate::parser::expr::{parse_call_args, parse_full_expr};
use crate::parser::words::{is_name, parse_path};

/// `( dobj )` at `toks[i..]`: the operand inside.
fn paren_operand(toks: &[Token], i: usize) -> Option<Expr> {
    let open = toks.get(i)?;
    let inner = toks.get(i + 1)?;
    let close = toks.get(i + 2)?;
    if open.kind != TokenKind::LParen || close.kind != TokenKind::RParen {
        return None;
    }
    match &inner.kind {
        TokenKind::Word(_) | TokenKind::CharLit(_) | TokenKind::StrLit(_) => {
            parse_full_expr(std::slice::from_ref(inner)).ok()
        }
        _ => None,
    }
}

/// Whether `CALL METHOD …` names its method or class at run time.
pub fn is_dynamic_call(toks: &[Token]) -> bool {
    let Some(first) = toks.get(2) else {
        return false;
    };
    if first.kind == TokenKind::LParen {
        return true;
    }
    let glued_paren = toks
        .get(3)
        .is_some_and(|t| t.kind == TokenKind::LParen && !t.space_before);
    glued_paren
        && first
            .word()
            .is_some_and(|w| w.ends_with("->") || w.ends_with("=>"))
}

/// `PARAMETER-TABLE ptab [EXCEPTION-TABLE etab]` or a parameter list.
fn dyn_args(rest: &[Token]) -> Result<DynArgs, String> {
    let starts_tables = rest
        .first()
        .is_some_and(|t| t.is_kw("PARAMETER-TABLE") || t.is_kw("EXCEPTION-TABLE"));
    if !starts_tables {
        return parse_call_args(rest).map(DynArgs::List).map_err(|u| u.0);
    }
    let (mut params, mut exceptions) = (None, None);
    let mut i = 0;
    while let Some(t) = rest.get(i) {
        let operand = rest
            .get(i + 1)
            .map(std::slice::from_ref)
            .ok_or("PARAMETER-TABLE without a table")?;
        let e = parse_full_expr(operand).map_err(|u| u.0)?;
        if t.is_kw("PARAMETER-TABLE") && params.is_none() {
            params = Some(e);
        } else if t.is_kw("EXCEPTION-TABLE") && exceptions.is_none() {
            exceptions = Some(e);
        } else {
            return Err(format!("CALL METHOD … {}", upper_word(Some(t))));
        }
        i += 2;
    }
    Ok(DynArgs::Tables { params, exceptions })
}

/// `CALL METHOD` with a dynamic method or class (all tokens of the statement).
pub fn parse_call(toks: &[Token]) -> Result<DynStmt, String> {
    let rest = toks.get(2..).unwrap_or(&[]);
    let (target, method, used) = match rest {
        // `(class)=>…`
        [open, _, close, arrow, ..]
            if open.kind == TokenKind::LParen
                && close.kind == TokenKind::RParen
                && arrow.word().is_some_and(|w| w.starts_with("=>"))
                && !arrow.space_before =>
        {
            let class = DynName::Dynamic(paren_operand(rest, 0).ok_or("CALL METHOD (class)")?);
            let after = arrow.word().unwrap_or_default().get(2..).unwrap_or("");
            if after.is_empty() {
                let m = paren_operand(rest, 4).ok_or("CALL METHOD (class)=>(meth)")?;
                (DynCallTarget::Class(class), DynName::Dynamic(m), 7)
            } else {
                let m = after.to_ascii_uppercase();
                if !is_name(&m) {
                    return Err(format!("CALL METHOD (class)=>{m}"));
                }
                (DynCallTarget::Class(class), DynName::Static(m), 4)
            }
        }
        // `(meth)`
        [open, ..] if open.kind == TokenKind::LParen => {
            let m = paren_operand(rest, 0).ok_or("CALL METHOD (meth)")?;
            (DynCallTarget::Own, DynName::Dynamic(m), 3)
        }
        // `oref->(meth)` / `class=>(meth)`
        [head, ..] => {
            let w = upper_word(Some(head));
            let m = DynName::Dynamic(paren_operand(rest, 1).ok_or("CALL METHOD …->( )")?);
            let target = if let Some(obj) = w.strip_suffix("->") {
                DynCallTarget::Object(parse_path(obj).ok_or("CALL METHOD oref->( )")?)
            } else if let Some(class) = w.strip_suffix("=>") {
                if !is_name(class) {
                    return Err(format!("CALL METHOD {w}( )"));
                }
                DynCallTarget::Class(DynName::Static(class.to_string()))
            } else {
                return Err("CALL METHOD".into());
            };
            (target, m, 4)
        }
        [] => return Err("CALL METHOD".into()),
    };
    let args = dyn_args(rest.get(used..).unwrap_or(&[]))?;
    Ok(DynStmt::CallMethod(Box::new(DynCall {
        target,
        method,
        args,
    })))
}

/// `c`, `n`, `x` or `p` at `toks[4]` followed by `LENGTH`/`DECIMALS` with an operand that is
/// no number literal: a length known at run time.
fn run_time_length(toks: &[Token]) -> bool {
    let builtin = ["C", "N", "X", "P"]
        .iter()
        .any(|k| toks.get(4).is_some_and(|t| t.is_kw(k)));
    builtin
        && toks.iter().enumerate().skip(5).any(|(i, t)| {
            (t.is_kw("LENGTH") || t.is_kw("DECIMALS"))
                && toks
                    .get(i + 1)
                    .and_then(Token::word)
                    .is_some_and(|w| !w.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// Whether `CREATE OBJECT|DATA target TYPE …` names its type in parentheses: `TYPE (name)`,
/// `TYPE [STANDARD] TABLE OF (name)`, `TYPE REF TO (name)`, or gives a length only known at
/// run time (`TYPE c LENGTH len`).
pub fn is_dynamic_create(toks: &[Token]) -> bool {
    if !toks.get(3).is_some_and(|t| t.is_kw("TYPE")) {
        return false;
    }
    if toks.get(1).is_some_and(|t| t.is_kw("DATA")) && run_time_length(toks) {
        return true;
    }
    let words = toks
        .iter()
        .skip(4)
        .take_while(|t| {
            ["STANDARD", "TABLE", "OF", "REF", "TO"]
                .iter()
                .any(|k| t.is_kw(k))
        })
        .count();
    toks.get(4 + words)
        .is_some_and(|t| t.kind == TokenKind::LParen)
}

fn target_of(toks: &[Token]) -> Result<Path, String> {
    toks.get(2)
        .and_then(Token::word)
        .and_then(parse_path)
        .ok_or_else(|| "CREATE target".to_string())
}

/// `CREATE OBJECT oref TYPE (name) …`.
pub fn parse_create_object(toks: &[Token]) -> Result<DynStmt, String> {
    let target = target_of(toks)?;
    let class = paren_operand(toks, 4).ok_or("CREATE OBJECT … TYPE ( )")?;
    let args = dyn_args(toks.get(7..).unwrap_or(&[]))?;
    match &args {
        DynArgs::Tables {
            exceptions: Some(_),
            ..
        } => return Err("CREATE OBJECT … EXCEPTION-TABLE".into()),
        DynArgs::List(a) if !a.exceptions.is_empty() => {
            return Err("CREATE OBJECT … TYPE ( ) EXCEPTIONS".into());
        }
        _ => {}
    }
    Ok(DynStmt::CreateObject {
        target,
        class,
        args: Box::new(args),
    })
}

/// `CREATE DATA dref TYPE (name)`, `TYPE [STANDARD] TABLE OF (name)`, `TYPE REF TO (name)`.
pub fn parse_create_data(toks: &[Token]) -> Result<DynStmt, String> {
    let target = target_of(toks)?;
    let words: Vec<String> = toks
        .iter()
        .skip(4)
        .take_while(|t| {
            ["STANDARD", "TABLE", "OF", "REF", "TO"]
                .iter()
                .any(|k| t.is_kw(k))
        })
        .map(|t| upper_word(Some(t)))
        .collect();
    let kind = match words
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => DynDataKind::Type,
        ["TABLE", "OF"] | ["STANDARD", "TABLE", "OF"] => DynDataKind::TableOf,
        ["REF", "TO"] => DynDataKind::RefTo,
        _ => return Err(format!("CREATE DATA … TYPE {} ( )", words.join(" "))),
    };
    let at = 4 + words.len();
    let (name, used) = match paren_operand(toks, at) {
        Some(e) => (DynName::Dynamic(e), 3),
        None => match toks.get(at).and_then(Token::word) {
            Some(w) if kind == DynDataKind::Type && is_name(&w.to_ascii_uppercase()) => {
                (DynName::Static(w.to_ascii_uppercase()), 1)
            }
            _ => return Err("CREATE DATA … TYPE ( )".into()),
        },
    };
    let (mut length, mut decimals) = (None, None);
    let mut i = at + used;
    while let Some(t) = toks.get(i) {
        let operand = toks
            .get(i + 1)
            .map(std::slice::from_ref)
            .ok_or("CREATE DATA … LENGTH")?;
        let e = parse_full_expr(operand).map_err(|u| u.0)?;
        if kind == DynDataKind::Type && t.is_kw("LENGTH") && length.is_none() {
            length = Some(e);
        } else if kind == DynDataKind::Type && t.is_kw("DECIMALS") && decimals.is_none() {
            decimals = Some(e);
        } else {
            return Err(format!("CREATE DATA … TYPE ( ) {}", upper_word(Some(t))));
        }
        i += 2;
    }
    Ok(DynStmt::CreateData {
        target,
        kind,
        name,
        length,
        decimals,
    })
}

/// Whether a `SORT` or `READ TABLE` statement names components in parentheses.
pub fn is_dynamic_table_stmt(kw: &str, toks: &[Token]) -> bool {
    let names = |after: &str| {
        toks.iter().position(|t| t.is_kw(after)).is_some_and(|p| {
            toks.iter()
                .skip(p + 1)
                .any(|t| t.kind == TokenKind::LParen && (t.space_before || after == "BY"))
        })
    };
    match kw {
        "SORT" => names("BY"),
        "READ" => upper_word(toks.get(1)) == "TABLE" && names("KEY"),
        _ => false,
    }
}

/// `SORT itab [STABLE] [ASCENDING|DESCENDING] BY c|(name) [ASCENDING|DESCENDING] …`.
pub fn parse_sort(toks: &[Token]) -> Result<DynStmt, String> {
    let table = toks
        .get(1)
        .and_then(Token::word)
        .and_then(parse_path)
        .ok_or("SORT table operand")?;
    let mut descending = false;
    let mut by: Vec<(DynName, Option<bool>)> = Vec::new();
    let mut in_by = false;
    let mut i = 2;
    while let Some(t) = toks.get(i) {
        let w = upper_word(Some(t));
        match w.as_str() {
            "ASCENDING" | "DESCENDING" => {
                let d = w == "DESCENDING";
                match (in_by, by.last_mut()) {
                    (true, Some(last)) => last.1 = Some(d),
                    _ => descending = d,
                }
            }
            "STABLE" if !in_by => {}
            "BY" if !in_by => in_by = true,
            // `BY expr`: an expression giving the sort order table, the whole rest.
            _ if in_by
                && by.is_empty()
                && toks
                    .get(i + 1..i + 3)
                    .into_iter()
                    .flatten()
                    .any(|p| p.kind == TokenKind::LParen && !p.space_before) =>
            {
                let e = parse_full_expr(toks.get(i..).unwrap_or(&[])).map_err(|u| u.0)?;
                by.push((DynName::Dynamic(e), None));
                break;
            }
            _ if in_by && t.kind == TokenKind::LParen => {
                let e = paren_operand(toks, i).ok_or("SORT … BY ( )")?;
                by.push((DynName::Dynamic(e), None));
                i += 3;
                continue;
            }
            _ if in_by && is_name(&w) => by.push((DynName::Static(w), None)),
            _ => return Err(format!("SORT … {w}")),
        }
        i += 1;
    }
    Ok(DynStmt::Sort {
        table,
        descending,
        by,
    })
}

/// Where a key component starts at `toks[j]`: a name or `(name)` followed by `=`.
fn component_start(toks: &[Token], j: usize) -> Option<usize> {
    let is_eq = |k: usize| toks.get(k).and_then(Token::word) == Some("=");
    let t = toks.get(j)?;
    if t.kind == TokenKind::LParen && paren_operand(toks, j).is_some() && is_eq(j + 3) {
        return Some(3);
    }
    (t.word().is_some_and(|w| is_name(&w.to_ascii_uppercase())) && is_eq(j + 1)).then_some(1)
}

/// `c = v … (name) = v …` after `WITH [TABLE] KEY`.
fn dyn_key_list(toks: &[Token]) -> Result<Vec<(DynName, Expr)>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks.get(i).is_some_and(|t| t.is_kw("AND")) {
            i += 1;
            continue;
        }
        let n = component_start(toks, i).ok_or("READ TABLE key component")?;
        let name = if n == 3 {
            DynName::Dynamic(paren_operand(toks, i).ok_or("READ TABLE key component")?)
        } else {
            DynName::Static(upper_word(toks.get(i)))
        };
        let start = i + n + 1;
        let end = (start + 1..toks.len())
            .find(|j| {
                component_start(toks, *j).is_some() || toks.get(*j).is_some_and(|t| t.is_kw("AND"))
            })
            .unwrap_or(toks.len());
        let value = parse_full_expr(toks.get(start..end).unwrap_or(&[])).map_err(|u| u.0)?;
        out.push((name, value));
        i = end;
    }
    Ok(out)
}

/// `READ TABLE itab [result] WITH [TABLE] KEY (name) = v … [result]`.
pub fn parse_read(toks: &[Token]) -> Result<DynStmt, String> {
    let table = toks
        .get(2)
        .and_then(Token::word)
        .and_then(parse_path)
        .ok_or("READ TABLE table operand")?;
    let is_result = |t: &Token| {
        matches!(
            upper_word(Some(t)).as_str(),
            "INTO" | "ASSIGNING" | "TRANSPORTING" | "REFERENCE"
        )
    };
    let mut target = RowTarget::None;
    let mut key = Vec::new();
    let mut table_key = false;
    let mut i = 3;
    while let Some(t) = toks.get(i) {
        match upper_word(Some(t)).as_str() {
            "WITH" => {
                let mut k = i + 1;
                if upper_word(toks.get(k)) == "TABLE" {
                    table_key = true;
                    k += 1;
                }
                if upper_word(toks.get(k)) != "KEY" {
                    return Err("READ TABLE … WITH".into());
                }
                if upper_word(toks.get(k + 2)) == "COMPONENTS" {
                    return Err("READ TABLE … WITH KEY keyname COMPONENTS".into());
                }
                let end = (k + 1..toks.len())
                    .find(|j| {
                        toks.get(*j)
                            .is_some_and(|t| is_result(t) || t.is_kw("BINARY"))
                    })
                    .unwrap_or(toks.len());
                key = dyn_key_list(toks.get(k + 1..end).unwrap_or(&[]))?;
                i = end;
            }
            _ if is_result(t) => {
                let (r, n) = crate::parser::tables::row_target(toks, i)?;
                target = r;
                i += n;
            }
            other => return Err(format!("READ TABLE … {other}")),
        }
    }
    if key.is_empty() {
        return Err("READ TABLE without a key".into());
    }
    Ok(DynStmt::Read {
        table,
        target,
        key,
        table_key,
    })
}

/// `WHERE ( dobj )` whose operand holds the condition at run time; `None` for a static
/// condition (a parenthesised static condition has an operator inside).
pub fn dynamic_where(toks: &[Token]) -> Option<Cond> {
    if toks.len() != 3 {
        return None;
    }
    paren_operand(toks, 0).map(|e| Cond::Dynamic(Box::new(e)))
}

/// Whether the statement starting with `kw` is one of the dynamic forms parsed here.
pub fn is_dynamic(kw: &str, toks: &[Token]) -> bool {
    match kw {
        "CALL" => toks.get(1).is_some_and(|t| t.is_kw("METHOD")) && is_dynamic_call(toks),
        "CREATE" => {
            toks.get(1)
                .is_some_and(|t| t.is_kw("OBJECT") || t.is_kw("DATA"))
                && is_dynamic_create(toks)
        }
        _ => is_dynamic_table_stmt(kw, toks),
    }
}

/// Parses a statement [`is_dynamic`] accepted.
pub fn parse(kw: &str, toks: &[Token]) -> Result<DynStmt, String> {
    match kw {
        "CALL" => parse_call(toks),
        "CREATE" if toks.get(1).is_some_and(|t| t.is_kw("OBJECT")) => parse_create_object(toks),
        "CREATE" => parse_create_data(toks),
        "SORT" => parse_sort(toks),
        _ => parse_read(toks),
    }
}

/// The name operand of `ASSIGN (class)=>(attr)` / `ASSIGN (class)=>attr`: the class text,
/// `=>` and the attribute (text or name) joined, resolved as one dynamic name at run time.
pub fn class_attribute_name(class: &Token, arrow: &Token, attr: &[Token]) -> Option<Expr> {
    let class = parse_full_expr(std::slice::from_ref(class)).ok()?;
    let after = arrow.word()?.get(2..)?;
    let tail = match attr {
        [] if is_name(&after.to_ascii_uppercase()) => {
            Expr::Lit(abap_data::value::Value::Str(format!("=>{after}").into()))
        }
        [open, inner, close]
            if after.is_empty()
                && open.kind == TokenKind::LParen
                && close.kind == TokenKind::RParen =>
        {
            let attr = parse_full_expr(std::slice::from_ref(inner)).ok()?;
            Expr::Concat(
                Box::new(Expr::Lit(abap_data::value::Value::Str("=>".into()))),
                Box::new(attr),
            )
        }
        _ => return None,
    };
    Some(Expr::Concat(Box::new(class), Box::new(tail)))
}

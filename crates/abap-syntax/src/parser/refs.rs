//! Parsing the field symbol and data reference statements (`ASSIGN`, `UNASSIGN`, `GET
//! REFERENCE`, `CREATE DATA`) and the `REF #( )` operand.

use crate::ast::AssignSource;
use crate::ast::Expr;
use crate::ast::Path;
use crate::ast::RefStmt;
use crate::ast::is_row_chain;
use crate::lexer::Token;
use crate::lexer::TokenKind;
use crate::lexer::upper_word;
use crate::parser::expr::parse_full_expr;
use crate::parser::words::is_name;
use crate::parser::words::parse_path;
/// `<name>` with a valid name inside.
pub fn is_field_symbol(n: &str) -> bool {
    n.len() > 2
        && n.starts_with('<')
        && n.ends_with('>')
        && is_name(n.get(1..n.len() - 1).unwrap_or(""))
}

/// `FIELD-SYMBOL(<fs>)` at the start of `toks`: the name.
fn inline_field_symbol(toks: &[Token]) -> Option<String> {
    if !toks.first()?.is_kw("FIELD-SYMBOL") {
        return None;
    }
    let open = toks.get(1)?;
    let name = upper_word(toks.get(2));
    (open.kind == TokenKind::LParen
        && is_field_symbol(&name)
        && toks.get(3)?.kind == TokenKind::RParen
        && toks.len() == 4)
        .then_some(name)
}

/// `ASSIGN …` (all tokens of the statement).
pub fn parse_assign(toks: &[Token]) -> Result<RefStmt, String> {
    let body = toks.get(1..).unwrap_or(&[]);
    // The target follows the last `TO`; `ELSE UNASSIGN` may close the statement.
    let (body, else_unassign) = match body {
        [rest @ .., e, u] if e.is_kw("ELSE") && u.is_kw("UNASSIGN") => (rest, true),
        _ => (body, false),
    };
    let to = body
        .iter()
        .rposition(|t| t.is_kw("TO"))
        .ok_or("ASSIGN without TO")?;
    let (src, target) = (&body[..to], &body[to + 1..]);
    let (fs, inline) = match target {
        [t] if is_field_symbol(&upper_word(Some(t))) => (upper_word(Some(t)), false),
        _ => match inline_field_symbol(target) {
            Some(n) => (n, true),
            None => return Err("ASSIGN with CASTING, RANGE or another addition".into()),
        },
    };
    let source = match src {
        [] => return Err("ASSIGN without a source".into()),
        [c, rest @ ..] if c.is_kw("COMPONENT") => {
            let of = rest
                .iter()
                .position(|t| t.is_kw("OF"))
                .ok_or("ASSIGN COMPONENT without OF")?;
            match &rest[of + 1..] {
                [s, name] if s.is_kw("STRUCTURE") => AssignSource::Component {
                    comp: parse_full_expr(&rest[..of]).map_err(|u| u.0)?,
                    of: name
                        .word()
                        .and_then(parse_path)
                        .ok_or("ASSIGN COMPONENT OF STRUCTURE operand")?,
                },
                _ => return Err("ASSIGN COMPONENT".into()),
            }
        }
        // `(class)=>(name)` / `(class)=>name`: the text names the class too.
        [open, class, close, arrow, attr @ ..]
            if open.kind == TokenKind::LParen
                && close.kind == TokenKind::RParen
                && !arrow.space_before
                && arrow.word().is_some_and(|w| w.starts_with("=>")) =>
        {
            AssignSource::Dynamic {
                prefix: String::new(),
                name: crate::parser::dynamic::class_attribute_name(class, arrow, attr)
                    .ok_or("ASSIGN (class)=>…")?,
            }
        }
        [open, inner @ .., close]
            if open.kind == TokenKind::LParen && close.kind == TokenKind::RParen =>
        {
            AssignSource::Dynamic {
                prefix: String::new(),
                name: parse_full_expr(inner).map_err(|u| u.0)?,
            }
        }
        // `oref->(name)` / `class=>(name)` / `struc-(comp)`: dynamic attribute or component.
        [head, open, inner @ .., close]
            if open.kind == TokenKind::LParen
                && !open.space_before
                && close.kind == TokenKind::RParen
                && head.word().is_some_and(|w| {
                    w.ends_with("->") || w.ends_with("=>") || (w.ends_with('-') && w.len() > 1)
                }) =>
        {
            let prefix = upper_word(Some(head));
            let cut = if prefix.ends_with('-') { 1 } else { 2 };
            let object = prefix.get(..prefix.len().saturating_sub(cut)).unwrap_or("");
            if parse_path(object).is_none() {
                return Err(format!("ASSIGN {prefix}( )"));
            }
            AssignSource::Dynamic {
                prefix,
                name: parse_full_expr(inner).map_err(|u| u.0)?,
            }
        }
        [t] => match t.word().and_then(parse_path) {
            Some(p) => AssignSource::Static(p),
            None => return Err(format!("ASSIGN {}", upper_word(Some(t)))),
        },
        _ => match parse_full_expr(src).map_err(|u| u.0)? {
            e if is_row_chain(&e) => AssignSource::Row(e),
            _ => return Err("ASSIGN of an expression".into()),
        },
    };
    Ok(RefStmt::Assign {
        source,
        fs,
        inline,
        else_unassign,
    })
}

/// `UNASSIGN <fs>`.
pub fn parse_unassign(toks: &[Token]) -> Result<RefStmt, String> {
    match toks {
        [_, t] if is_field_symbol(&upper_word(Some(t))) => {
            Ok(RefStmt::Unassign(upper_word(Some(t))))
        }
        _ => Err("UNASSIGN".into()),
    }
}

/// `INTO dref` / `INTO DATA(dref)` tokens: the target and whether it is declared inline.
fn into_target(toks: &[Token]) -> Option<(Path, bool)> {
    if let Some((name, n)) = crate::parser::words::inline_decl(toks) {
        return (n == toks.len()).then(|| parse_path(&name).map(|p| (p, true)))?;
    }
    match toks {
        [t] => t.word().and_then(parse_path).map(|p| (p, false)),
        _ => None,
    }
}

/// `GET REFERENCE OF dobj INTO dref`.
pub fn parse_get_reference(toks: &[Token]) -> Result<RefStmt, String> {
    let bad = || format!("GET {}", upper_word(toks.get(1)));
    if !(upper_word(toks.get(1)) == "REFERENCE" && upper_word(toks.get(2)) == "OF") {
        return Err(bad());
    }
    let rest = toks.get(3..).unwrap_or(&[]);
    let into = rest.iter().rposition(|t| t.is_kw("INTO")).ok_or_else(bad)?;
    let of = parse_full_expr(&rest[..into]).map_err(|u| u.0)?;
    if !(matches!(of, Expr::Path(_)) || is_row_chain(&of)) {
        return Err(bad());
    }
    let (into, inline) = into_target(&rest[into + 1..]).ok_or_else(bad)?;
    Ok(RefStmt::GetReference { of, into, inline })
}

/// `CREATE DATA dref [TYPE …|LIKE …]`.
pub fn parse_create_data(toks: &[Token]) -> Result<RefStmt, String> {
    let target = toks
        .get(2)
        .and_then(Token::word)
        .and_then(parse_path)
        .ok_or("CREATE DATA")?;
    let rest = toks.get(3..).unwrap_or(&[]);
    if rest.is_empty() {
        return Ok(RefStmt::CreateData { target, ty: None });
    }
    if let [ty, handle, descr @ ..] = rest
        && ty.is_kw("TYPE")
        && handle.is_kw("HANDLE")
    {
        let handle = parse_full_expr(descr).map_err(|u| u.0)?;
        return Ok(RefStmt::CreateDataHandle { target, handle });
    }
    if rest
        .iter()
        .any(|t| t.kind == TokenKind::LParen && t.space_before)
    {
        return Err("CREATE DATA with a dynamic type".into());
    }
    match crate::parser::declarations::type_and_value(rest) {
        (Ok(ty), None) => Ok(RefStmt::CreateData {
            target,
            ty: Some(ty),
        }),
        (Err(e), _) => Err(format!("CREATE DATA {e}")),
        (Ok(_), Some(_)) => Err("CREATE DATA with VALUE".into()),
    }
}

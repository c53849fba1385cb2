//! Statements without blocks of their own (assignments, calls, `RAISE`, `MESSAGE`, `WRITE`,
//! `PERFORM`, …), and the "not supported" statement for the rest.

use super::words::word_at;
use crate::ast::{AssignOp, CallArgs, Cond, Expr, MessageStmt, Path, StmtKind};
use crate::lexer::{Token, TokenKind, upper_word};
use crate::parser::cursor::Cursor;
use crate::parser::expr::{parse_call_args, parse_full_cond, parse_full_expr};
use crate::parser::words::{Unsup, describe, inline_decl, is_name, parse_path};
use crate::statements::Statement;

pub(super) fn is_assignment(st: &Statement) -> bool {
    st.tokens
        .get(1)
        .and_then(Token::word)
        .is_some_and(|w| matches!(w, "=" | "+=" | "-=" | "*=" | "/=" | "&&=" | "?="))
        || crate::parser::access::assignment_target(&st.tokens).is_some()
        || crate::parser::row_targets::row_target(&st.tokens).is_some()
        || inline_decl(&st.tokens)
            .is_some_and(|(_, n)| st.tokens.get(n).and_then(Token::word) == Some("="))
}

/// The statement's keyword(s) for "not supported" messages (`LOOP AT`, `SELECT SINGLE`).
fn keywords(st: &Statement) -> String {
    const SECOND: &[&str] = &[
        "AT",
        "TABLE",
        "FUNCTION",
        "METHOD",
        "OBJECT",
        "EXCEPTION",
        "SINGLE",
        "LINES",
        "INITIAL",
        "ADJACENT",
        "REFERENCE",
        "SCREEN",
        "TRANSACTION",
        "EVENT",
        "COMPONENT",
        "CORRESPONDING",
        "WORK",
        "TRANSFORMATION",
        "DATA",
        "OF",
        "TYPE",
    ];
    let mut out = st.tokens.first().map(describe).unwrap_or_default();
    if let Some(w) = st.tokens.get(1).and_then(Token::word)
        && SECOND.iter().any(|k| w.eq_ignore_ascii_case(k))
    {
        out.push(' ');
        out.push_str(&w.to_ascii_uppercase());
    }
    out
}

/// Statements that contain no statements of their own (no blocks), parsed apart from
/// [`Body::statement`](super::body::Body::statement): their large temporaries stay out of the
/// frame that nests once per block level, so deep nesting fails with the nesting limit, not
/// with a stack overflow.
#[inline(never)]
pub(super) fn leaf_statement(st: &Statement, kw: &str, rest: &[Token]) -> Option<StmtKind> {
    let kind = match kw {
        // A name directly followed by `(` (no blank) calls a method, even when the name is a
        // statement keyword too: `check( x ).`, `sort( ).`, `delete( key ).`
        _ if call_statement(st) => match parse_full_expr(&st.tokens) {
            Ok(Expr::Call(c)) => StmtKind::Call(*c),
            Ok(_) => unsupported(st, true),
            Err(u) => StmtKind::Unsupported {
                what: u.0,
                stop: true,
            },
        },
        "RAISE" => crate::parser::function_call::classic_raise(st).unwrap_or_else(|| raise(st)),
        "MESSAGE" => crate::parser::function_call::message_raising(st, message)
            .unwrap_or_else(|| message(st)),
        "CALL" if word_at(st, 1) == "FUNCTION" => crate::parser::function_call::call_function(st),
        "WRITE" if crate::parser::write_to::is_write_to(rest) => {
            match crate::parser::write_to::parse(rest) {
                Ok(w) => StmtKind::Text(Box::new(crate::ast::TextStmt::WriteTo(w))),
                Err(Unsup(what)) => StmtKind::Unsupported { what, stop: true },
            }
        }
        "WRITE" => write(st),
        "ULINE" => StmtKind::Uline,
        "FORMAT" if crate::parser::list::is_plain_format(rest) => StmtKind::ListFormat,
        "SKIP" => match rest {
            [] => StmtKind::Skip(None),
            [t] => match parse_full_expr(std::slice::from_ref(t)) {
                Ok(e) => StmtKind::Skip(Some(e)),
                Err(u) => StmtKind::Unsupported {
                    what: u.0,
                    stop: true,
                },
            },
            _ => unsupported(st, true),
        },
        "NEW-LINE" if rest.is_empty() => StmtKind::NewLine,
        "PERFORM" => perform(st),
        "GET" if word_at(st, 1) == "TIME" && !call_statement(st) => {
            match crate::parser::time::parse_get_time(&st.tokens) {
                Ok(t) => StmtKind::Time(Box::new(t)),
                Err(what) => StmtKind::Unsupported { what, stop: true },
            }
        }
        "CONVERT" if matches!(word_at(st, 1).as_str(), "TIME" | "DATE") && !call_statement(st) => {
            match crate::parser::time::parse_convert(&st.tokens) {
                Ok(t) => StmtKind::Time(Box::new(t)),
                Err(what) => StmtKind::Unsupported { what, stop: true },
            }
        }
        "CREATE" | "CALL" | "SORT" | "READ"
            if !call_statement(st) && crate::parser::dynamic::is_dynamic(kw, &st.tokens) =>
        {
            match crate::parser::dynamic::parse(kw, &st.tokens) {
                Ok(d) => StmtKind::Dynamic(Box::new(d)),
                Err(what) => StmtKind::Unsupported { what, stop: true },
            }
        }
        "ASSIGN" | "UNASSIGN" | "GET" | "CREATE"
            if !call_statement(st)
                && match kw {
                    "CREATE" => word_at(st, 1) == "DATA",
                    "GET" => word_at(st, 1) == "REFERENCE",
                    _ => true,
                } =>
        {
            let parsed = match kw {
                "ASSIGN" => crate::parser::refs::parse_assign(&st.tokens),
                "UNASSIGN" => crate::parser::refs::parse_unassign(&st.tokens),
                "GET" => crate::parser::refs::parse_get_reference(&st.tokens),
                _ => crate::parser::refs::parse_create_data(&st.tokens),
            };
            match parsed {
                Ok(r) => StmtKind::Refs(Box::new(r)),
                Err(what) => StmtKind::Unsupported { what, stop: true },
            }
        }
        "CREATE" if st.tokens.get(1).is_some_and(|t| t.is_kw("OBJECT")) => create_object(st),
        "CALL" if st.tokens.get(1).is_some_and(|t| t.is_kw("METHOD")) => call_method(st),
        "CLEAR" => {
            let paths: Option<Vec<_>> = if rest.len() == 1 {
                rest[0].word().and_then(parse_path).map(|p| vec![p])
            } else {
                None
            };
            match paths {
                Some(p) => StmtKind::Clear(p),
                None => unsupported(st, true),
            }
        }
        "SELECT" | "UPDATE" | "COMMIT" | "ROLLBACK" | "INSERT" | "MODIFY" | "DELETE"
            if crate::parser::sql::is_sql(st, kw) =>
        {
            crate::parser::sql::parse(st, kw)
        }
        "APPEND" | "INSERT" | "READ" | "MODIFY" | "DELETE" | "COLLECT" | "DESCRIBE"
            if let Some(op) = crate::parser::table_ops::parse(kw, &st.tokens) =>
        {
            match op {
                Ok(t) => StmtKind::TableOp(Box::new(t)),
                Err(_) => unsupported(st, true),
            }
        }
        // (`split( … ).` is a call of a method that happens to have that name.)
        "CONCATENATE" | "SPLIT" | "CONDENSE" | "REPLACE" | "FIND" | "TRANSLATE" | "SHIFT"
        | "OVERLAY" | "SEARCH"
            if !call_statement(st) =>
        {
            match crate::parser::text::parse(kw, rest) {
                Ok(t) => StmtKind::Text(Box::new(t)),
                Err(Unsup(what)) => StmtKind::Unsupported { what, stop: true },
            }
        }
        "APPEND" | "INSERT" | "READ" | "MODIFY" | "DELETE" | "SORT" | "REFRESH" | "FREE" => {
            match crate::parser::tables::parse_table_stmt(kw, &st.tokens) {
                Ok(t) => StmtKind::Table(Box::new(t)),
                Err(_) => unsupported(st, true),
            }
        }
        "EXIT" if rest.is_empty() => StmtKind::Exit,
        "CONTINUE" if rest.is_empty() => StmtKind::Continue,
        "RETURN" if rest.is_empty() => StmtKind::Return,
        "CHECK" => StmtKind::Check(cond(rest)),
        "MOVE" | "ADD" | "SUBTRACT" | "MULTIPLY" | "DIVIDE" if !call_statement(st) => {
            obsolete_arithmetic(kw, rest)
        }
        "ASSERT" if word_at(st, 1) == "ID" => StmtKind::Assert(None),
        "ASSERT" => StmtKind::Assert(Some(cond(rest))),
        "MOVE-CORRESPONDING" => match crate::parser::constructors::move_corresponding(&st.tokens) {
            Ok(k) => k,
            Err(what) => StmtKind::Unsupported { what, stop: true },
        },
        // `NEW zcl_x( )->m( ).`, `CAST zcl_x( o )->m( ).`
        "NEW" | "CAST" => match parse_full_expr(&st.tokens) {
            Ok(Expr::Call(c)) => StmtKind::Call(*c),
            Ok(_) => unsupported(st, true),
            Err(u) => StmtKind::Unsupported {
                what: u.0,
                stop: true,
            },
        },
        _ => return None,
    };
    Some(kind)
}

/// `RAISE EXCEPTION TYPE cx [EXPORTING …]`, `RAISE EXCEPTION NEW cx( … )`, `RAISE EXCEPTION
/// obj`.
fn raise(st: &Statement) -> StmtKind {
    let toks = &st.tokens;
    if !toks.get(1).is_some_and(|t| t.is_kw("EXCEPTION")) {
        return unsupported(st, true);
    }
    let rest = toks.get(2..).unwrap_or(&[]);
    let expr = if rest.first().is_some_and(|t| t.is_kw("TYPE")) {
        let class = rest
            .get(1)
            .and_then(Token::word)
            .map(str::to_ascii_uppercase);
        let Some(class) = class.filter(|c| is_name(c)) else {
            return unsupported(st, true);
        };
        let args_toks = rest.get(2..).unwrap_or(&[]);
        let mut args = CallArgs::default();
        if let Some(first) = args_toks.first() {
            if first.is_kw("MESSAGE") || first.is_kw("USING") {
                return StmtKind::Unsupported {
                    what: "RAISE EXCEPTION … MESSAGE".into(),
                    stop: true,
                };
            }
            match parse_call_args(args_toks) {
                Ok(a) => args = a,
                Err(u) => {
                    return StmtKind::Unsupported {
                        what: u.0,
                        stop: true,
                    };
                }
            }
        }
        Expr::New {
            class,
            args: Box::new(args),
        }
    } else {
        match parse_full_expr(rest) {
            Ok(e) => e,
            Err(u) => {
                return StmtKind::Unsupported {
                    what: u.0,
                    stop: true,
                };
            }
        }
    };
    StmtKind::Raise(Box::new(expr))
}

/// `MESSAGE e001(zmsg) [WITH …]`, `MESSAGE ID 'Z' TYPE 'E' NUMBER '001' [WITH …]`, `MESSAGE
/// 'text' TYPE 'I' [DISPLAY LIKE 'E']`, `… INTO target`.
fn message(st: &Statement) -> StmtKind {
    let toks = st.tokens.get(1..).unwrap_or(&[]);
    let mut m = MessageStmt {
        id: None,
        number: None,
        msg_type: None,
        text: None,
        type_expr: None,
        with: Vec::new(),
        into: None,
    };
    let bad = |what: &str| StmtKind::Unsupported {
        what: format!("MESSAGE {what}"),
        stop: true,
    };
    let mut i;
    let lit = |t: Option<&Token>| -> Option<String> {
        match &t?.kind {
            TokenKind::CharLit(s) | TokenKind::StrLit(s) => Some(s.to_ascii_uppercase()),
            _ => None,
        }
    };
    // The message itself.
    match toks.first() {
        Some(t) if t.is_kw("ID") => {
            m.id = lit(toks.get(1));
            if m.id.is_none() {
                return bad("ID with a variable");
            }
            i = 2;
        }
        Some(t) => {
            // `e001(zmsg)`: a word glued to `(`.
            let short = t.word().and_then(|w| {
                let up = w.to_ascii_uppercase();
                let mut chars = up.chars();
                let ty = chars.next()?;
                let num: String = chars.collect();
                ("AEISWX".contains(ty) && num.len() == 3 && num.chars().all(|c| c.is_ascii_digit()))
                    .then_some((ty.to_string(), num))
            });
            let glued = toks
                .get(1)
                .is_some_and(|p| p.kind == TokenKind::LParen && !p.space_before);
            if let (Some((ty, num)), true) = (short, glued) {
                m.msg_type = Some(ty);
                m.number = Some(num);
                m.id = toks
                    .get(2)
                    .and_then(Token::word)
                    .map(str::to_ascii_uppercase);
                if !toks.get(3).is_some_and(|t| t.kind == TokenKind::RParen) {
                    return bad("short form");
                }
                i = 4;
            } else {
                // A text operand up to TYPE.
                let end = toks
                    .iter()
                    .position(|t| t.is_kw("TYPE"))
                    .unwrap_or(toks.len());
                match parse_full_expr(&toks[..end]) {
                    Ok(e) => m.text = Some(e),
                    Err(u) => return bad(&u.0),
                }
                m.id = Some(String::new());
                m.number = Some("000".into());
                i = end;
            }
        }
        None => return bad(""),
    }
    while let Some(t) = toks.get(i) {
        let w = t.word().map(str::to_ascii_uppercase).unwrap_or_default();
        match w.as_str() {
            "TYPE" => {
                match lit(toks.get(i + 1)) {
                    Some(ty) => m.msg_type = Some(ty),
                    None => match toks
                        .get(i + 1)
                        .map(|t| parse_full_expr(std::slice::from_ref(t)))
                    {
                        Some(Ok(e)) => m.type_expr = Some(e),
                        _ => return bad("TYPE"),
                    },
                }
                i += 2;
            }
            "NUMBER" => {
                m.number = lit(toks.get(i + 1)).or_else(|| {
                    toks.get(i + 1)
                        .and_then(Token::word)
                        .map(|w| format!("{:0>3}", w))
                });
                i += 2;
            }
            "DISPLAY" => i += 3,
            "INTO" => {
                m.into = toks.get(i + 1).and_then(Token::word).and_then(parse_path);
                if m.into.is_none() {
                    return bad("INTO");
                }
                i += 2;
            }
            "WITH" => {
                let mut p = Cursor::new(toks.get(i + 1..).unwrap_or(&[]));
                while !p.at_end() && !p.peek_kw_any(&["INTO", "DISPLAY", "RAISING"]) {
                    match p.expr() {
                        Ok(e) => m.with.push(e),
                        Err(u) => return bad(&u.0),
                    }
                }
                i += 1 + p.position();
            }
            _ => return bad(&w),
        }
    }
    StmtKind::Message(Box::new(m))
}

/// `WRITE [AT] [/] operand [options]`.
fn write(st: &Statement) -> StmtKind {
    match crate::parser::list::parse(st.tokens.get(1..).unwrap_or(&[])) {
        Ok(w) => StmtKind::Write(Box::new(w)),
        Err(u) => StmtKind::Unsupported {
            what: u.0,
            stop: true,
        },
    }
}

/// The obsolete forms `MOVE a TO b`, `ADD a TO b`, `SUBTRACT a FROM b`, `MULTIPLY b BY a` and
/// `DIVIDE b BY a`, as the assignments `b = a`, `b += a`, `b -= a`, `b *= a`, `b /= a`.
fn obsolete_arithmetic(kw: &str, rest: &[Token]) -> StmtKind {
    let (word, target_after) = match kw {
        "MOVE" | "ADD" => ("TO", true),
        "SUBTRACT" => ("FROM", true),
        _ => ("BY", false),
    };
    let unsupported = || StmtKind::Unsupported {
        what: format!("{kw} …"),
        stop: true,
    };
    let Some(at) = rest.iter().position(|t| t.is_kw(word)) else {
        return unsupported();
    };
    let (before, after) = (
        rest.get(..at).unwrap_or(&[]),
        rest.get(at + 1..).unwrap_or(&[]),
    );
    let (target, operand) = if target_after {
        (after, before)
    } else {
        (before, after)
    };
    let Some(target) = (match target {
        [one] => one.word().and_then(parse_path),
        _ => None,
    }) else {
        return unsupported();
    };
    let op = match kw {
        "MOVE" => AssignOp::Set,
        "ADD" => AssignOp::Add,
        "SUBTRACT" => AssignOp::Sub,
        "MULTIPLY" => AssignOp::Mul,
        _ => AssignOp::Div,
    };
    match parse_full_expr(operand) {
        Ok(expr) => StmtKind::Assign { target, op, expr },
        Err(Unsup(what)) => StmtKind::Unsupported { what, stop: true },
    }
}

/// `PERFORM form [USING a b] [CHANGING c]`.
fn perform(st: &Statement) -> StmtKind {
    let toks = st.tokens.get(1..).unwrap_or(&[]);
    let Some(form) = toks
        .first()
        .and_then(Token::word)
        .map(str::to_ascii_uppercase)
    else {
        return unsupported(st, true);
    };
    if !is_name(&form)
        || toks
            .get(1)
            .is_some_and(|t| t.is_kw("IN") || t.kind == TokenKind::LParen)
    {
        return unsupported(st, true);
    }
    let mut using = Vec::new();
    let mut changing = Vec::new();
    let mut section = "";
    let mut i = 1;
    while let Some(t) = toks.get(i) {
        if t.is_kw("USING") || t.is_kw("CHANGING") || t.is_kw("TABLES") {
            section = match upper_word(Some(t)).as_str() {
                "CHANGING" => "C",
                "TABLES" => "T",
                _ => "U",
            };
            i += 1;
            continue;
        }
        let Some(p) = t.word().and_then(parse_path) else {
            // Literals are only possible in USING.
            match (section, parse_full_expr(std::slice::from_ref(t))) {
                ("U", Ok(e)) => using.push(e),
                _ => return unsupported(st, true),
            }
            i += 1;
            continue;
        };
        match section {
            "U" => using.push(Expr::Path(p)),
            // `TABLES itab` passes the table body (`header_lines.rs`).
            "T" if p.rest.is_empty() && !p.base.ends_with("[]") && !p.base.starts_with('<') => {
                using.push(Expr::Path(Path {
                    base: crate::parser::header_lines::body_name(&p.base),
                    rest: Vec::new(),
                }))
            }
            "T" => using.push(Expr::Path(p)),
            "C" => changing.push(p),
            _ => return unsupported(st, true),
        }
        i += 1;
    }
    StmtKind::Perform {
        form,
        using,
        changing,
    }
}

/// `CREATE OBJECT ref [TYPE cls] [EXPORTING …]`.
fn create_object(st: &Statement) -> StmtKind {
    let toks = st.tokens.get(2..).unwrap_or(&[]);
    let Some(target) = toks.first().and_then(Token::word).and_then(parse_path) else {
        return unsupported(st, true);
    };
    let mut rest = toks.get(1..).unwrap_or(&[]);
    let mut class = None;
    if rest.first().is_some_and(|t| t.is_kw("TYPE")) {
        match rest.get(1).and_then(Token::word) {
            Some(c) if is_name(&c.to_ascii_uppercase()) => class = Some(c.to_ascii_uppercase()),
            _ => {
                return StmtKind::Unsupported {
                    what: "CREATE OBJECT … TYPE (dynamic)".into(),
                    stop: true,
                };
            }
        }
        rest = rest.get(2..).unwrap_or(&[]);
    }
    match parse_call_args(rest) {
        Ok(args) => StmtKind::CreateObject {
            target,
            class,
            args,
        },
        Err(u) => StmtKind::Unsupported {
            what: u.0,
            stop: true,
        },
    }
}

/// `CALL METHOD ref->meth [EXPORTING …] [IMPORTING …]` / `CALL METHOD meth( … )`.
fn call_method(st: &Statement) -> StmtKind {
    let toks = st.tokens.get(2..).unwrap_or(&[]);
    let Some(first) = toks.first() else {
        return unsupported(st, true);
    };
    let glued = toks
        .get(1)
        .is_some_and(|t| t.kind == TokenKind::LParen && !t.space_before);
    let expr = if glued {
        parse_full_expr(toks)
    } else {
        // Rebuild as `meth( args )`.
        let mut v = vec![first.clone()];
        v.push(Token {
            kind: TokenKind::LParen,
            line: first.line,
            space_before: false,
        });
        v.extend(toks.get(1..).unwrap_or(&[]).iter().cloned());
        v.push(Token {
            kind: TokenKind::RParen,
            line: first.line,
            space_before: true,
        });
        parse_full_expr(&v)
    };
    match expr {
        Ok(Expr::Call(c)) => StmtKind::Call(*c),
        Ok(_) => unsupported(st, true),
        Err(u) => StmtKind::Unsupported {
            what: u.0,
            stop: true,
        },
    }
}

pub(super) fn cond(toks: &[Token]) -> Cond {
    parse_full_cond(toks).unwrap_or_else(|u| Cond::Unsupported(u.0))
}

pub(super) fn unsupported(st: &Statement, stop: bool) -> StmtKind {
    StmtKind::Unsupported {
        what: keywords(st),
        stop,
    }
}

/// A statement that is one method call: `meth( … ).`, `out->write( … )->write( … ).`
fn call_statement(st: &Statement) -> bool {
    matches!(st.tokens.get(1), Some(t) if t.kind == TokenKind::LParen && !t.space_before)
        && st
            .tokens
            .first()
            .and_then(Token::word)
            .and_then(parse_path)
            .is_some()
}

pub(super) fn assignment(st: &Statement) -> StmtKind {
    let toks = &st.tokens;
    if let Some((target, used)) = crate::parser::access::assignment_target(toks) {
        return match parse_full_expr(toks.get(used + 1..).unwrap_or(&[])) {
            Ok(expr) => StmtKind::AssignSub {
                target: Box::new(target),
                expr,
            },
            Err(Unsup(what)) => StmtKind::Unsupported { what, stop: true },
        };
    }
    if let Some((target, used)) = crate::parser::row_targets::row_target(toks) {
        return crate::parser::row_targets::row_assignment(toks, target, used);
    }
    if let Some((name, n)) = inline_decl(toks) {
        return match parse_full_expr(toks.get(n + 1..).unwrap_or(&[])) {
            Ok(expr) => StmtKind::Assign {
                target: Path {
                    base: name,
                    rest: Vec::new(),
                },
                op: AssignOp::Declare,
                expr,
            },
            Err(Unsup(what)) => StmtKind::Unsupported { what, stop: true },
        };
    }
    let op = match toks.get(1).and_then(Token::word) {
        Some("=") => AssignOp::Set,
        Some("+=") => AssignOp::Add,
        Some("-=") => AssignOp::Sub,
        Some("*=") => AssignOp::Mul,
        Some("/=") => AssignOp::Div,
        Some("&&=") => AssignOp::Concat,
        // `a ?= b` is `a = CAST #( b )`.
        Some("?=") => AssignOp::Set,
        _ => {
            return StmtKind::Unsupported {
                what: "?=".into(),
                stop: true,
            };
        }
    };
    let Some(target) = toks.first().and_then(Token::word).and_then(parse_path) else {
        let what = toks.first().map(describe).unwrap_or_default();
        return StmtKind::Unsupported {
            what: format!("assignment target {what}"),
            stop: true,
        };
    };
    let cast = toks.get(1).and_then(Token::word) == Some("?=");
    match parse_full_expr(toks.get(2..).unwrap_or(&[])) {
        Ok(arg) if cast => StmtKind::Assign {
            target,
            op,
            expr: Expr::Ctor(Box::new(crate::ast::Ctor::Cast { ty: None, arg })),
        },
        Ok(expr) => StmtKind::Assign { target, op, expr },
        Err(Unsup(what)) => StmtKind::Unsupported { what, stop: true },
    }
}

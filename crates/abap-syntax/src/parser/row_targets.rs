//! Assignments whose target is a table expression: `itab[ 1 ] = …`, `itab[ k = v ]-comp += …`,
//! `matrix[ i ][ j ] = …` (the row is changed where it is).

use crate::ast::{AssignOp, Expr, StmtKind, is_row_chain};
use crate::lexer::Token;
use crate::parser::cursor::Cursor;
use crate::parser::expr::parse_full_expr;
use crate::parser::words::Unsup;

/// The assignment operators and what they do.
pub(super) fn assign_op(word: &str) -> Option<AssignOp> {
    Some(match word {
        "=" => AssignOp::Set,
        "+=" => AssignOp::Add,
        "-=" => AssignOp::Sub,
        "*=" => AssignOp::Mul,
        "/=" => AssignOp::Div,
        "&&=" => AssignOp::Concat,
        _ => return None,
    })
}

/// The table expression a statement starts with and the number of its tokens, when an
/// assignment operator follows it.
pub(super) fn row_target(toks: &[Token]) -> Option<(Expr, usize)> {
    if !toks.first()?.word()?.ends_with('[') {
        return None;
    }
    let mut p = Cursor::new(toks);
    let target = p.operand_only().ok()?;
    let used = p.position();
    assign_op(toks.get(used)?.word()?)?;
    is_row_chain(&target).then_some((target, used))
}

/// `target op expr.` for a [`row_target`].
pub(super) fn row_assignment(toks: &[Token], target: Expr, used: usize) -> StmtKind {
    let Some(op) = toks.get(used).and_then(Token::word).and_then(assign_op) else {
        return StmtKind::Unsupported {
            what: "assignment to a table expression".into(),
            stop: true,
        };
    };
    match parse_full_expr(toks.get(used + 1..).unwrap_or(&[])) {
        Ok(expr) => StmtKind::AssignRow {
            target: Box::new(target),
            op,
            expr,
        },
        Err(Unsup(what)) => StmtKind::Unsupported { what, stop: true },
    }
}

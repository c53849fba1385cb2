//! Parsing `CASE TYPE OF` and its `WHEN TYPE` branches.

use crate::ast::CaseType;
use crate::ast::Expr;
use crate::ast::Path;
use crate::ast::StmtKind;
use crate::ast::When;
use crate::ast::WhenType;
use crate::lexer::Token;
use crate::lexer::upper_word;
/// The `WHEN` statement of a `CASE TYPE OF`.
pub fn parse_when_type(toks: &[Token]) -> When {
    let w = |i: usize| upper_word(toks.get(i));
    if w(1) == "OTHERS" && toks.len() == 2 {
        return When::Others;
    }
    let class = w(2);
    if w(1) != "TYPE" || !crate::parser::words::is_name(&class) {
        return When::Unsupported("WHEN in CASE TYPE OF".into());
    }
    let into = match (w(3).as_str(), toks.get(4..)) {
        ("", _) => None,
        ("INTO", Some(rest)) => match crate::parser::words::inline_decl(rest) {
            Some((name, n)) if n == rest.len() => Some((
                Path {
                    base: name,
                    rest: Vec::new(),
                },
                true,
            )),
            _ => match rest {
                [one] => match one.word().and_then(crate::parser::words::parse_path) {
                    Some(p) => Some((p, false)),
                    None => return When::Unsupported("WHEN TYPE … INTO".into()),
                },
                _ => return When::Unsupported("WHEN TYPE … INTO".into()),
            },
        },
        _ => return When::Unsupported("WHEN TYPE …".into()),
    };
    When::Type { class, into }
}

/// The statement `CASE TYPE OF` with the operand tokens after `OF`.
pub fn case_type(operand: &[Token], whens: Vec<WhenType>) -> StmtKind {
    let subject =
        crate::parser::expr::parse_full_expr(operand).unwrap_or_else(|u| Expr::Unsupported(u.0));
    StmtKind::CaseType(Box::new(CaseType { subject, whens }))
}

//! What a type or an expression is, as runtime error texts and typing rules ask.

use abap_data::value::Type;
use abap_syntax::ast::Expr;

/// A type's name in runtime error texts.
pub fn display_type(t: &Type) -> String {
    match t {
        Type::C(n) => format!("C({n})"),
        Type::N(n) => format!("N({n})"),
        Type::X(n) => format!("X({n})"),
        Type::P { len, dec } => format!("P({len},{dec})"),
        Type::Struct(s) if s.name.is_empty() => "structure".into(),
        Type::Table(t) if t.name.is_empty() => "table".into(),
        other => other.name(),
    }
}

/// An arithmetic expression (its calculation type depends on the target).
pub fn is_arith(e: &Expr) -> bool {
    matches!(e, Expr::Bin(..) | Expr::Neg(_))
}

/// The name a declaration's type was given by (`TYPE ty_amount` → `TY_AMOUNT`), for the
/// debugger's `DECLARED_TYPE_NAME`; `None` for built-in types written with their letter.
pub(crate) fn declared_name(ty: &abap_syntax::ast::TypeSpec) -> Option<String> {
    match ty {
        Ok(Type::Named(n)) => Some(n.clone()),
        _ => None,
    }
}

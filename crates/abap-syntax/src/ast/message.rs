//! Syntax tree of `MESSAGE`.

use crate::ast::expr::{Expr, Path};

/// `MESSAGE …`.
#[derive(Debug, Clone)]
pub struct MessageStmt {
    /// Statically known id, number and type (`MESSAGE e001(zmsg)`); text messages have an empty
    /// id and number `000`.
    pub id: Option<String>,
    pub number: Option<String>,
    pub msg_type: Option<String>,
    /// `MESSAGE 'text' TYPE 'I'` / `MESSAGE lv_text TYPE 'E'`.
    pub text: Option<Expr>,
    /// `TYPE` given as an expression (not a literal).
    pub type_expr: Option<Expr>,
    pub with: Vec<Expr>,
    /// `DISPLAY LIKE`, `INTO`: `INTO` target.
    pub into: Option<Path>,
}

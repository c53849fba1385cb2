//! Syntax tree of `CASE TYPE OF`.

use crate::ast::Expr;
use crate::ast::Path;
use crate::ast::Stmt;
/// `CASE TYPE OF oref.`
#[derive(Debug, Clone)]
pub struct CaseType {
    pub subject: Expr,
    pub whens: Vec<WhenType>,
}

#[derive(Debug, Clone)]
pub struct WhenType {
    pub line: u32,
    pub when: When,
    pub body: Vec<Stmt>,
}

/// What a `WHEN` of `CASE TYPE OF` tests.
#[derive(Debug, Clone)]
pub enum When {
    /// `WHEN TYPE class [INTO target]` (`true`: `INTO DATA(x)`).
    Type {
        class: String,
        into: Option<(Path, bool)>,
    },
    Others,
    /// Not understood: a runtime error when reached.
    Unsupported(String),
}

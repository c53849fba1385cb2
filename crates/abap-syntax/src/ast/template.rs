//! Syntax tree of string template formatting options (`WIDTH = 10`, `ALIGN = RIGHT`, …).

use crate::ast::Expr;
/// The value of a formatting option: a keyword (`ISO`) or an operand (`(dobj)`, a literal).
#[derive(Debug, Clone)]
pub enum OptionValue {
    Keyword(String),
    Operand(Expr),
}

#[derive(Debug, Clone)]
pub struct TemplateOption {
    /// Upper case (`DATE`).
    pub name: String,
    pub value: OptionValue,
}

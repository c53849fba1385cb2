//! Function modules: `CALL FUNCTION`, the classic exceptions a module raises (`RAISE name`,
//! `MESSAGE … RAISING name`), and what a module's interface adds to a method signature.

use crate::ast::expr::{Expr, Path};
use crate::ast::message::MessageStmt;

/// Statements of function modules and their callers (`interp/function_call.rs`).
#[derive(Debug, Clone)]
pub enum FunctionStmt {
    Call(FunctionCall),
    /// `RAISE name`: a classic (non-class-based) exception of the function module.
    Raise(String),
    /// `MESSAGE … RAISING name`: the exception when the caller handles it, else the message.
    MessageRaising {
        message: MessageStmt,
        exception: String,
    },
}

impl FunctionStmt {
    /// The keyword as the ADT statement breakpoint catalogue names it.
    pub fn keyword(&self) -> &'static str {
        match self {
            FunctionStmt::Call(_) => "CALL FUNCTION",
            FunctionStmt::Raise(_) => "RAISE",
            FunctionStmt::MessageRaising { .. } => "MESSAGE",
        }
    }
}

/// `CALL FUNCTION name EXPORTING … IMPORTING … TABLES … CHANGING … EXCEPTIONS …`.
#[derive(Debug, Clone)]
pub struct FunctionCall {
    /// The module's name: a literal (`'Z_X'`) or a data object holding it.
    pub name: Expr,
    /// Formal importing parameter ← actual (an expression).
    pub exporting: Vec<(String, Expr)>,
    /// Formal exporting parameter → actual.
    pub importing: Vec<(String, Path)>,
    pub tables: Vec<(String, Path)>,
    pub changing: Vec<(String, Path)>,
    /// `EXCEPTIONS name = n`: upper-case name (`OTHERS`, `ERROR_MESSAGE` included) and the
    /// value `sy-subrc` gets (a literal or constant; a name without `= n` gets 1).
    pub exceptions: Vec<(String, Expr)>,
}

/// What a function module's interface says beyond its parameters (which are a
/// [`crate::ast::MethodDecl`] of the group's program: `TABLES` parameters are changing ones
/// passed by reference).
#[derive(Debug, Clone, Default)]
pub struct FunctionInterface {
    /// Module name, upper case.
    pub name: String,
    /// `TABLES` parameters (upper case).
    pub tables: Vec<String>,
    /// Classic exceptions, or with `class_based` the exception classes of `RAISING`.
    pub exceptions: Vec<String>,
    pub class_based: bool,
}

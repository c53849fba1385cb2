//! The parsed program: classes, methods, statements and expressions.
//!
//! All identifiers are upper case here (ABAP names are case-insensitive), so the interpreter
//! and the debugger compare names without further normalisation.
//!
//! The files are layered: `expr.rs` (expressions and conditions) with `constructors.rs` (the
//! constructor expressions, which hold expressions in turn) at the bottom; the statement groups'
//! nodes that hold only expressions above them; `stmt.rs` (statements and the control
//! structures with bodies) with `tables.rs` and `sql.rs` (loops that hold bodies) above those;
//! `class.rs` (classes and method implementations) on top. Each type is re-exported here, so
//! every type is `crate::ast::X`.

mod class;
mod constructors;
mod dynamic;
mod expr;
mod function_call;
mod list;
mod message;
mod refs;
mod row_target;
mod sql;
mod stmt;
mod tables;
mod text;
mod time;

pub use class::*;
pub use constructors::*;
pub use dynamic::*;
pub use expr::*;
pub use function_call::*;
pub use list::*;
pub use message::*;
pub use refs::*;
pub use row_target::*;
pub use sql::*;
pub use stmt::*;
pub use tables::*;
pub use text::*;
pub use time::*;

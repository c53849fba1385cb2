//! The syntax of the simulator's ABAP: tokens, statements, the syntax tree and the parser
//! that builds it from source text (classes, programs, function groups).
//!
//! # Layout
//!
//! - `lexer`: tokens; `statements`: the statement splitter (chains expanded);
//! - `ast`: every node type, one file per statement group;
//! - `parser`: the grammars, one file per statement group named as in `ast`.
//!
//! Never here: execution. The tree knows nothing of how it is run (abap-runtime), the data
//! layer (abap-data) nothing of the tree; Cargo keeps both edges one way.

pub mod ast;
mod file_order;
pub mod lexer;
pub mod parser;
pub mod statements;

// Last: the circle scanner reads a file only up to its first `cfg(test)` item.
#[cfg(test)]
pub(crate) mod file_circles;

//! Tree-walking interpreter: statements, method calls, objects, and the debugger hook.
//!
//! ABAP calls map onto Rust calls (a method call inside an expression simply recurses), and the
//! hook runs on this thread with a read-only view of the state, so stepping and inspection need
//! no extra machinery. Errors and debugger termination travel as [`Unwind`] through `?`.
//!
//! This file only declares the modules and re-exports what the whole interpreter shares
//! (`machine.rs`); the runs start in `run.rs` and `unit_run.rs`.

pub(crate) mod abap_regex;
pub(crate) mod access;
pub(crate) mod bit_ops;
pub(crate) mod block;
pub(crate) mod bound;
pub(crate) mod builtins;
pub(crate) mod calc;
pub(crate) mod call_stack;
pub(crate) mod calls;
pub(crate) mod condition;
pub(crate) mod constructors;
pub(crate) mod context;
pub(crate) mod control_levels;
pub(crate) mod data_access;
pub(crate) mod database;
pub(crate) mod dynamic;
pub(crate) mod errors;
pub(crate) mod eval;
pub(crate) mod exec;
pub(crate) mod function_call;
pub(crate) mod function_state;
pub(crate) mod groups;
pub(crate) mod header_lines;
pub(crate) mod instances;
pub(crate) mod list;
pub(crate) mod machine;
pub(crate) mod match_results;
pub(crate) mod oo;
pub(crate) mod ranges;
pub(crate) mod refs;
pub(crate) mod regex_backtrack;
pub(crate) mod row_refs;
pub(crate) mod run;
pub(crate) mod search_statement;
pub(crate) mod secondary_keys;
pub(crate) mod shapes;
pub(crate) mod sql;
pub(crate) mod state;
pub(crate) mod table_assign;
pub(crate) mod table_exprs;
pub(crate) mod table_ops;
pub(crate) mod table_search;
pub(crate) mod tables;
pub(crate) mod template;
pub(crate) mod text;
pub(crate) mod text_compare;
pub(crate) mod time;
pub(crate) mod types;
pub(crate) mod unit_run;
pub(crate) mod var;
pub(crate) mod write_to;

pub use machine::{Dump, Exec, Failure, Flow, Interp, Unwind};

//! Open SQL for the ADT simulator: database tables defined by abapGit dictionary files,
//! filled from JSON data files, kept in an embedded SQLite, and the Open SQL statements
//! ABAP programs run against them. See `README.md` beside this crate for the data file
//! format, the type mapping, the `sy-subrc` / `sy-dbcnt` rules and what is refused.
//!
//! The crate knows nothing of the interpreter: the interpreter hands over a statement's
//! text ([`parse`] / [`Database::run`]) and resolves host operands through
//! [`HostResolver`]; the engine answers with typed rows ([`ResultSet`]) and the values of
//! `sy-subrc` and `sy-dbcnt` ([`Outcome`]).

pub mod ast;
mod cell;
mod cond;
mod data;
mod db;
mod ddic;
mod decimal;
mod error;
mod host;
mod lexer;
mod outcome;
mod parser;
mod query;
mod types;
mod write;
mod xml;

pub use cell::Cell;
pub use db::{Database, LoadReport, Options};
pub use ddic::Dictionary;
pub use error::{Error, Result};
pub use host::{Components, HostMap, HostResolver, HostValue};
pub use outcome::{Column, Outcome, ResultSet};
pub use parser::parse;
pub use types::{AbapType, DdicType, DecKind, Field, MAX_PACKED_DIGITS, TableClass, TableDef};

#![doc = include_str!("../README.md")]

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
mod subquery;
mod types;
mod wide;
mod write;
mod xml;

pub use cell::Cell;
pub use db::{DEFAULT_LOCK_WAIT, Database, LoadReport, Options};
pub use ddic::Dictionary;
pub use error::{Error, Result};
pub use host::{Components, HostMap, HostResolver, HostValue};
pub use outcome::{Column, Outcome, ResultSet, SelectLoop};
pub use parser::parse;
pub use types::{AbapType, DdicType, DecKind, Field, MAX_PACKED_DIGITS, TableClass, TableDef};

//! ABAP for the abapdbg simulator: lexer, statement splitter, parser and a tree-walking
//! interpreter with a debugger hook. No HTTP here; `crates/sim` is the only crate that runs it.
//!
//! This crate is the surface: the work is done by three crates that Cargo orders along the
//! interpreter's layers, each using only the ones below it:
//!
//! 1. `abap-data`: values and types, conversions, dictionary types, places, and what the
//!    callers and the debugger see;
//! 2. `abap-syntax`: lexer, statement splitter, syntax tree and parser;
//! 3. `abap-runtime`: the interpreter and the repository of loaded objects.
//!
//! CONTRACT (used by crates/sim; extend, do not break):
//! - [`Repository`] holds loaded objects (`Repository::load_dir`, which skips and names the
//!   objects it cannot load, and `Repository::add_file`).
//! - [`Repository::source`] gives the source text of an object part (for ADT source reads).
//! - [`Repository::stop_point`] answers "is there an executable statement starting on this
//!   line?" with the resolved [`debug::Location`] (breakpoint validation and ids).
//! - [`Repository::run_classrun`] runs `IF_OO_ADT_CLASSRUN~MAIN` of a class, calling the hook
//!   before every executable statement, and returns the text written with `out->write( )`.
//! - [`Repository::run_report`] runs a report (events, `FORM`s) and returns its list output.
//! - [`Repository::run_unit_tests`] runs the ABAP Unit tests of a class or program.
//! - [`check_condition`] and [`StopContext::condition_holds`]: breakpoint and watchpoint
//!   conditions, parsed and judged as the interpreter judges an `IF`.

pub use abap_data::debug;
pub use abap_data::limits::Limits;
pub use abap_data::unit::{
    TestStatus, UnitAlert, UnitClassResult, UnitMethodResult, UnitRunResult,
};
pub use abap_data::{LoadError, RunError};
pub use abap_runtime::{Loaded, Repository, check_condition};

pub use debug::{
    DebugHook, Frame, Location, NoDebugger, ObjectKind, Resume, RuntimeError, ScopeEntry,
    SourcePart, StopContext, VarFields, VarRecord,
};

//! ABAP for the abapdbg simulator: lexer, statement splitter, parser and a tree-walking
//! interpreter with a debugger hook. No HTTP here; `crates/sim` is the only crate that runs it.
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

// The layers, lowest first (`layers.rs` keeps dependencies pointing down).
// Data: values, types, where data lives, what callers and the debugger see.
mod calendar;
mod char_case;
mod conversion;
mod ddic;
pub mod debug;
mod float;
mod limits;
mod number;
mod place;
mod text;
mod type_pool;
mod unit;
mod value;
// Syntax: tokens, statements, the tree.
mod ast;
mod lexer;
mod statements;
// The parser.
mod parser;
// The runtime.
mod interp;
// Loading and running (the crate's surface), and the layer test.
mod layers;
mod repository;

pub use limits::Limits;

/// Checks that `text` is a condition the debugger can judge (an ABAP logical expression, at
/// most 1000 characters); `Err` says why not. [`StopContext::condition_holds`] judges one.
pub fn check_condition(text: &str) -> Result<(), String> {
    interp::condition::parse(text).map(|_| ())
}
pub use repository::{Loaded, Repository};
pub use unit::{TestStatus, UnitAlert, UnitClassResult, UnitMethodResult, UnitRunResult};

pub use debug::{
    DebugHook, Frame, Location, NoDebugger, ObjectKind, Resume, RuntimeError, ScopeEntry,
    SourcePart, StopContext, VarFields, VarRecord,
};

/// Failure to load an object (unreadable file, syntax error the parser cannot recover from).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}:{line}: {message}")]
    Syntax {
        file: String,
        line: u32,
        message: String,
    },
}

/// Why a run did not complete normally.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum RunError {
    /// The debugger terminated the program.
    #[error("program terminated by the debugger")]
    Terminated,
    /// A runtime error (short dump), e.g. `not supported by the simulator: <statement> at
    /// <include>:<line>` for statements outside the subset.
    #[error("runtime error {id}: {text}")]
    Dump {
        /// Dump id, e.g. `SIMULATOR_NOT_SUPPORTED`, `COMPUTE_INT_ZERODIVIDE`.
        id: String,
        text: String,
        /// Where it happened, when known.
        location: Option<Location>,
        /// Output written before the dump.
        output: String,
    },
    /// The class (for `run_classrun`) or object (for `run_report`, `run_unit_tests`: a
    /// program or class that is not loaded) does not exist.
    #[error("unknown class {0}")]
    UnknownClass(String),
    #[error("class {0} does not implement IF_OO_ADT_CLASSRUN")]
    NotRunnable(String),
}

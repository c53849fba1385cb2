//! The data layer of the simulator's ABAP: values and their types, the conversions between
//! them, dictionary types and type pools, where data lives (places), and what the callers and
//! the debugger see of a run (stop points, variables, limits, unit results, errors).
//!
//! # Layout
//!
//! - `text`, `number`, `float`, `calendar`, `char_case`: the elementary pieces (texts kept
//!   inline, packed numbers, floats, dates and times, upper and lower case);
//! - `types`: `Type`; `value`: `Value`; `conversion` the conversion rules between them;
//! - `ddic`, `type_pool`: dictionary types and the type pool `ABAP`;
//! - `place`: where data lives (a variable slot plus component and row steps);
//! - `debug`, `limits`, `unit`: what a debugger hook, the caller and a unit run see.
//!
//! Never here: syntax, parsing, execution. The crates above (`abap-syntax`, `abap-runtime`)
//! use this one, never the other way round, and Cargo checks it.

pub mod calendar;
pub mod char_case;
pub mod conversion;
pub mod ddic;
pub mod debug;
pub mod float;
pub mod limits;
pub mod number;
pub mod place;
pub mod text;
pub mod type_pool;
pub mod types;
pub mod unit;
pub mod value;

// The test that keeps the modules above in one order.
mod module_order;

pub use limits::Limits;

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
        location: Option<debug::Location>,
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

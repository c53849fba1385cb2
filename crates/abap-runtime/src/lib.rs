//! The runtime of the simulator's ABAP: the tree-walking interpreter with its debugger hook,
//! and the repository of loaded objects that runs them.
//!
//! # Layout
//!
//! - `interp`: the interpreter (`Interp`), its state, the statements it runs, the built-in
//!   functions and classes;
//! - `repository`: loading objects, stop points, running classruns, reports and unit tests;
//! - `run_memory`: the process's allocator, counting what each thread (each run) holds;
//! - `file_order`: the test that keeps this crate's and abap-data's files out of circles of
//!   more than three (with abap-syntax's scanner, `file_circles.rs`).
//!
//! The crate's surface is re-exported by the `abap` crate, which crates/sim uses. Never here:
//! HTTP (crates/sim), parsing rules (abap-syntax), data types and conversions (abap-data).

mod file_order;
mod interp;
mod repository;
mod run_memory;

/// Checks that `text` is a condition the debugger can judge (an ABAP logical expression, at
/// most 1000 characters); `Err` says why not. [`StopContext::condition_holds`] judges one.
///
/// [`StopContext::condition_holds`]: abap_data::debug::StopContext::condition_holds
pub fn check_condition(text: &str) -> Result<(), String> {
    interp::condition::parse(text).map(|_| ())
}
pub use repository::{Loaded, Repository};

// Last: the circle scanner reads a file only up to its first `cfg(test)` item.
#[cfg(test)]
#[allow(
    dead_code,
    reason = "the scanner is shared with abap-syntax, which uses all of it"
)]
#[path = "../../abap-syntax/src/file_circles.rs"]
mod file_circles;

//! The integration tests of this crate, in one test binary (one link instead of one per
//! file). A file in this folder that is not declared here is never compiled: the e2e crate's
//! `layout` test fails on any such file.

/// What the modules share.
mod common;

// Deep and endless recursion over real HTTP.
mod call_depth;
// Connections bounded, idle ones closed.
mod connections;
// Breakpoints, listener, attach, stack, variables, steps and terminate against the demo class.
mod debugging;
// Short dumps: the feed and one dump, for every way a run dies.
mod dumps;
// One test per error of adt-wire.md §13.2 that the simulator produces.
mod errors;
// Fault injection over HTTP.
mod faults;
// Issue-4 features over real HTTP.
mod features;
// Function groups: sources at their ADT URIs, the quick search, a breakpoint in an include.
mod function_groups;
// Golden tests of the debugger view.
mod golden;
// The interpreter's abilities wired into the simulator, over real HTTP.
mod interpreter;
// Open SQL in the simulator over real HTTP.
mod open_sql;
// Wire behaviour that does not need a program to stop.
mod protocol;
// Type descriptors (RTTI) in the debugger view over real HTTP.
mod rtti;
// The sample objects in `<repo>/samples`, each compared with its expected output.
mod samples;
// Big data and long runs over real HTTP.
mod scale;
// Structure tests.
mod shapes;
// Dictionary files of several programs folders as one dictionary.
mod sql_folders;
// Each run its own database logical unit of work, over real HTTP.
mod sql_isolation;

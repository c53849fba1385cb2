//! The integration tests of this crate, in one test binary (one link instead of one per
//! file). A file in this folder that is not declared here is never compiled: the e2e crate's
//! `layout` test fails on any such file.

/// What the modules share.
mod common;

// Each request names its thread and frame, or takes the session's (issue 24).
mod cursors;
// A 20,000-row table through the protocol.
mod big_tables;
// The command table against the running engine.
mod commands;
// What the system lists: capabilities, refusals, the cache, a refused scope read.
mod discovery;
// Short dumps: listed, read, caught before they happen again.
mod dumps;
// A function module debugged through the protocol, set by its abapGit file.
mod function_modules;
// Frames name the abapGit file and line of each kind of source (issue 24).
mod frame_files;
// Field symbols at a stop, listed by `vars`.
mod field_symbols;
// Events that report what happens without a request.
mod events;
// Random requests, every command with arguments of random shape, against a live session.
mod fuzz_requests;
// Honest answers at the edges of the protocol and of the system.
mod limits;
// A session killed without releasing is released by the next start, from its state file.
mod orphan;
// Features that need more of the ABAP language than the demo class.
mod programs;
// The protocol commands against the simulator over HTTP.
mod protocol;
// The engine against the simulator over real HTTP, in one process.
mod release;
// Issue 14's guarantees against the simulator's fault injection.
mod reliability;
// The answer of a `run` (or `test`) reaches whoever sees its program end.
mod run_output;
// Issue 25's guarantees in the engine: the listener we hold, CSRF during the release,
// breakpoints bounded.
mod round_two;
// Session commands and the malformed-input battery.
mod session;
// One session shared by several clients.
mod sharing;
// `table` names its columns with their types.
mod table_columns;

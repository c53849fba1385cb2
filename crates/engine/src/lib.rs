//! The abapdbg debugger engine.
//!
//! It owns one ADT system connection and every debuggee caught there, and speaks the
//! JSON-lines protocol of the `jsonl` crate over any byte stream ([`serve`]). It never knows
//! whether it talks to a simulator or a real system: everything below it is `adt::Client`.
//!
//! Concurrency model: each request runs in its own task, so a long `wait`, `run` or
//! `step continue` never blocks `status`. Shared facts live in [`engine::Engine`] behind one
//! short-held mutex; every change bumps a watch channel that `wait` observes.

mod at;
mod breakpoint_sync;
mod breakpoints;
mod commands;
mod config;
mod debuggee;
mod discovery;
mod engine;
mod errors;
mod export_file;
mod field_symbols;
mod grace;
mod keepalive;
mod linereader;
mod listener;
mod outbox;
mod private_dir;
mod reads;
#[cfg(test)]
mod real_captures;
mod recovery;
mod release;
mod runs;
mod serve;
mod source;
mod statefile;
mod table_json;
mod to_proto;
mod user_listeners;

pub use breakpoints::MAX_BREAKPOINTS;
pub use config::{EngineConfig, ReleasePolicy};
pub use engine::DEFAULT_SOURCE_CONTEXT;
pub use release::Receipt;
pub use serve::{ServeError, serve, serve_socket};
pub use statefile::StateError;

//! The abapdbg JSON-lines protocol: the contract between the coprocess (`abapdbg serve`) and
//! every client (bash coproc scripts, editors, agents, the Nushell plugin, the CLI).
//!
//! One JSON object per line. Clients send [`Request`]s; the server writes exactly one
//! [`Response`] per request and unsolicited [`Event`]s, each with a strictly increasing `seq`
//! and the session [`State`]. PROTOCOL.md next to this crate is the prose contract.
//!
//! This crate depends on nothing else of abapdbg, so clients can use it alone.

pub mod args;
pub mod commands;
pub mod error;
pub mod events;
pub mod message;
pub mod paths;
pub mod results;
pub mod schema;
pub mod state;
pub mod validate;
mod wire;

pub use commands::{COMMANDS, Command, CommandSpec, cmd};
pub use error::{ErrorBody, ErrorCode};
pub use events::EventKind;
pub use message::{
    Event, Outgoing, Request, Response, WrittenResponse, parse_outgoing, parse_request,
};
pub use state::State;

/// Protocol name and version, `MAJOR.MINOR`; minors only add.
pub const PROTOCOL_VERSION: &str = "abapdbg/1.1";

/// Longest request line the server accepts, in bytes.
pub const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;

/// Every event the server emits.
pub const EVENTS: &[&str] = &[
    "ready",
    "listener.armed",
    "listener.stopped",
    "listener.conflict",
    "listener.failed",
    "stopped",
    "debuggee.ended",
    "debuggee.lost",
    "thread.released",
    "breakpoint.changed",
    "variable.changed",
    "orphan.released",
];

//! Typed client for the SAP ADT debugger REST API.
//!
//! This crate is the only code in abapdbg that speaks HTTP and XML to an SAP system. Callers
//! see typed values ([`types`]) and one typed error ([`AdtError`]) whose [`ErrorClass`] they
//! can switch on; the quirks of the wire (`adt-wire.md`) stay in here:
//!
//! * [`transport`] — one HTTP session: cookie jar, CSRF token (refetched on 403
//!   `Required`, one fetch shared by the requests refused meanwhile), `sap-client`/`sap-language`, stateful or stateless; Basic, bearer token,
//!   injected SSO cookies, client certificate, custom CA bundle, `insecure` on request. Reads
//!   (GETs and the POST reads of the debuggee) are retried on ICM "Service cannot be reached"
//!   pages and lost connections, never on timeouts and never for steps; a stateless session
//!   logs on again once after 400 `Session timed out`.
//! * [`client`] — the debugger operations, one method per ADT call, plus the batch endpoint
//!   ([`Client::batch`], [`Client::step_and_inspect`]: step, stack and variables in one round
//!   trip). Release differences (stack and frame-switch forms, a missing batch endpoint) are
//!   found on first use and remembered per client.
//! * [`codec`] — request bodies out, response documents in (quick-xml, never panics).
//! * [`dumps`] — the short dump feed, one dump's document and its formatted text.
//! * [`address`] — what users type (`ZCL_X:42`, abapGit paths) to ADT source URIs.
//! * [`error`] — the ADT error document and every other failure, classified.
//!
//! Fuzzing of every parser: see `FUZZING.md` in this crate.

pub mod address;
mod asx_plain_record;
mod asx_variables;
pub mod cassette;
pub mod client;
pub mod codec;
pub mod config;
pub mod discovery;
pub mod dumps;
pub mod error;
mod regular_file;
pub mod search;
pub mod transport;
pub mod types;
mod xml;

pub use client::Client;
pub use config::{Config, SessionMode};
pub use discovery::{Capabilities, SystemDiscovery};
pub use error::{AdtError, AdtException, ErrorClass};
pub use types::*;

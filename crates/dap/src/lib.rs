//! `abapdbg dap`: the Debug Adapter Protocol front end. An editor's generic DAP client (VS
//! Code, nvim-dap, Helix, Zed, Emacs dap-mode) talks DAP on stdin/stdout; this crate turns it
//! into requests on the session client, so the editor debugs ABAP through the same session the
//! shell uses (or one it starts). docs/dap.md has the launch configurations.
//!
//! # Layout
//!
//! - [`framing`]: the base protocol (`Content-Length` headers), bounded and typed on bad input.
//! - [`message`]: requests read from JSON; responses and events built.
//! - [`abapgit`]: abapGit file names ↔ the session's objects, includes and source URIs.
//! - [`config`]: the `launch`/`attach` arguments and the system they name.
//! - [`refs`]: frame ids and `variablesReference`s, valid within one stop.
//! - [`sources`]: local abapGit files of the workspace, and `sourceReference`s.
//! - `adapter/`: the loop and the request handlers, one file per group.
//!
//! Never here: the engine, the ADT client, the simulator. Like every front end, the adapter
//! speaks only the session protocol (jsonl/PROTOCOL.md) through the `client` crate.

pub use abapgit;
mod adapter;
pub mod config;
pub mod framing;
pub mod message;
pub mod refs;
pub mod sources;

pub use adapter::HitCondition;
pub use adapter::{Stopper, run};

//! The session client: what every abapdbg front end (the Nushell plugin, the one-shot CLI, the
//! completions, DAP) uses to reach the running debugging session.
//!
//! A session is one `abapdbg serve` process per system and user, listening on a Unix socket
//! whose path follows from the target system ([`Target::socket_path`], the same rule `serve`
//! uses). [`Session::connect_or_start`] connects to it, starting `abapdbg serve --daemon` when
//! none runs; [`Session::connect`] only connects (for completions, which must never start
//! anything). Requests carry ids chosen here; one reader thread routes each response to its
//! caller and every event to the subscribers, so a slow `wait` never holds up a `status`.
//!
//! Which system is meant comes from the caller's environment and, optionally, a named profile
//! of the config file ([`Target::resolve`], [`profile`]); secrets are obtained only when a
//! session has to be started, and reach it in its environment.
//!
//! Front ends speak only the protocol (the `jsonl` crate); they never link the engine or the
//! ADT client. Everything here is blocking std I/O: front ends are short-lived or already
//! threaded, and need no async runtime.

pub mod candidates;
mod error;
mod guard;
pub mod hints;
pub mod movement;
pub mod profile;
mod regular_file;
mod session;
mod start;
mod target;
mod typed;

pub use error::{ClientError, ProtocolError};
pub use guard::{MAX_REPLY_BYTES, check_peer_uid, check_socket_dir};
pub use profile::ProfileError;
pub use session::{Incoming, Session, Subscription};
pub use start::daemon_binary;
pub use target::{Credentials, OWN_DIR, Setting, Target, profile_key, socket_dir, state_dir};
pub use typed::{decode, decode_result, encode_args};

//! The DAP crate's tests, one binary: the base protocol's framing and request parsing on any
//! input (properties: no panic, no hang, a typed error), the editor's files and their index, hit
//! conditions, reference lifetimes and launch configurations.

mod config;
mod framing;
mod refs;
mod sources;

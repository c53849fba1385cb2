//! The DAP crate's tests, one binary: the base protocol's framing and request parsing on any
//! input (properties: no panic, no hang, a typed error), the abapGit mapping both ways, hit
//! conditions, reference lifetimes and launch configurations.

mod config;
mod framing;
mod mapping;
mod refs;

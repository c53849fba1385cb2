//! Shared by the test modules: a scripted HTTP server for behaviour the simulator does not
//! imitate, and the fuzz targets (also run longer by `examples/fuzz.rs`).

pub mod fuzz_targets;
pub mod mock;

//! The integration tests of this crate, in one test binary (one link instead of one per
//! file). A file in this folder that is not declared here is never compiled: the e2e crate's
//! `layout` test fails on any such file.

/// What the modules share.
mod support;

// A batch answer in every framing the multipart rules allow.
mod batch_framing;
// A system that never answers a step cannot hang the client.
mod blocking_timeout;
// Parsers and request builders against fixture files shaped like public captures.
mod codec;
// Bounded fuzzing of every parser (see FUZZING.md).
mod fuzz;
// Every operation of the client against the simulator over HTTP on loopback.
mod http;
// A redirect to another host does not tell it where we came from.
mod redirect;
// Behaviour the simulator does not imitate, against a scripted HTTP server.
mod releases;
// Transient failures against a scripted HTTP server.
mod resilience;

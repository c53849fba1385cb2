//! The integration tests of this crate, in one test binary (one link instead of one per
//! file). A file in this folder that is not declared here is never compiled: the e2e crate's
//! `layout` test fails on any such file.

// The session client against real sessions.
mod session;
// Issue 25: files, sockets and peers that are not what they should be, bounded reading.
mod hostile;

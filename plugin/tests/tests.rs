//! The integration tests of this crate, in one test binary (one link instead of one per
//! file). A file in this folder that is not declared here is never compiled: the e2e crate's
//! `layout` test fails on any such file.

// Every command's examples run as tests, in one scenario against a real session.
mod examples;

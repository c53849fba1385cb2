//! The integration tests of this crate, in one test binary (one link instead of one per
//! file). A file in this folder that is not declared here is never compiled: the e2e crate's
//! `layout` test fails on any such file.

// The one-shot commands as a shell user runs them.
mod cli;
// Shell completion and the coproc recipe, as a shell user meets them.
mod completions;
// Recorded ADT sessions (tests/cassettes) replayed: the same protocol answers.
mod cassettes;
// A third-party ADT client (abap-adt-api) runs a whole debug session against the simulator.
mod conformance;
// `serve --daemon`, `serve --relay`, and a second `serve` for the same system refusing.
mod daemon;
// `abapdbg doctor` against working and failing systems.
mod doctor;
// The release archive of scripts/dist.sh: what it holds.
mod dist;
// `abapdbg dap` driven by a third-party DAP client.
mod dap;
// Every way a session can end leaves nothing behind on the system.
mod kill;
// `abapdbg mcp` driven by the official MCP TypeScript SDK client.
mod mcp;
// No test file of the workspace is left out of its crate's test binary.
mod layout;
// The Nushell plugin driven by the real `nu` against the simulator.
mod nu;
// Issue 14 across processes (RELIABILITY.md).
mod reliability;
// The interactive debugger (`abapdbg repl`) as a person uses it.
mod repl;
// What `serve` must not do to its surroundings.
mod serve_guards;
// `abapdbg sim` on the command line.
mod sim_cli;
// Systems behind TLS.
mod tls;
// The walking skeleton end to end.
mod walking_skeleton;

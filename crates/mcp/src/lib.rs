//! `abapdbg mcp`: the debugger as Model Context Protocol tools, for AI agents.
//!
//! An agent host (Claude Code, VS Code, Cursor, any MCP client) starts `abapdbg mcp` and calls
//! tools (`abap_breakpoints`, `abap_run`, `abap_step`, `abap_variables`, `abap_table`, …,
//! `abap_end`, `abap_dumps`); every answer is structured content valid against the tool's output schema,
//! plus one line of text. The tools reach the same session daemon as the CLI, the REPL, the
//! Nushell plugin and DAP (`client::Session::connect_or_start`), so a person and an agent can
//! be on one stop; every request names its thread and frame, so an agent's reads never move
//! anyone's cursor. No call waits longer than its `wait_seconds` (at most 600).
//!
//! # Layout
//! - `server`: rmcp's `ServerHandler`: tools/list, tools/call, resources, subscriptions.
//! - `tools`: each tool's name, description, input and output schema.
//! - `ops`: what each tool does, on the session client (blocking), one file per group
//!   (status, breakpoints, waits, inspect, table, end).
//! - `view`: the shapes agents read (stop view, end, variables, breakpoints).
//! - `condition`: `abap_table`'s `where`.
//! - `link`: the session connection and what is remembered between calls.
//! - `http`: the streamable HTTP transport on loopback, with a bearer token.
//!
//! Never here: the engine, the ADT client, protocol JSON built by hand (typed calls only).

pub mod condition;
mod error;
mod http;
mod link;
mod ops;
mod server;
mod tools;
mod view;

use std::process::ExitCode;

pub use error::ToolError;
pub use server::Server;

/// `abapdbg mcp`'s options.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct McpArgs {
    /// Serve streamable HTTP on this loopback address (127.0.0.1:PORT or [::1]:PORT) instead
    /// of stdio; a bearer token made for this start is written to a 0600 file named on stderr.
    #[arg(long, value_name = "127.0.0.1:PORT")]
    pub http: Option<String>,
}

/// Runs the MCP server until its client leaves (stdio: stdin closes) or a signal ends it
/// (HTTP). `profile`: the command line's `--profile`, over `ABAPDBG_PROFILE`.
pub fn run(args: McpArgs, profile: Option<String>) -> ExitCode {
    let target = client::Target::resolve(|k| std::env::var(k).ok(), profile.as_deref())
        .map_err(|e| ToolError::from(client::ClientError::Profile(e)));
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("abapdbg mcp: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        let server = Server::new(target);
        match args.http {
            Some(addr) => http::serve(server, &addr).await,
            None => serve_stdio(server).await,
        }
    });
    // The blocking stdin reader would hold the process: everything is answered by now.
    runtime.shutdown_background();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("abapdbg mcp: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve_stdio(server: Server) -> Result<(), String> {
    use rmcp::ServiceExt;
    let running = server
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| format!("the MCP session did not start: {e}"))?;
    running
        .waiting()
        .await
        .map(|_| ())
        .map_err(|e| format!("the MCP session failed: {e}"))
}

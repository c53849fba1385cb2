//! What each tool does, on the session client: blocking calls (the server runs them on
//! tokio's blocking threads) that name the thread and frame in every request, so an agent's
//! reads never move the cursor a person at the REPL sees.

use std::time::Duration;

use jsonl::cmd;
use jsonl::commands::NoArgs;
use jsonl::results::StatusResult;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::error::ToolError;
use crate::link::Link;
use crate::view::DEFAULT_MAX_CHARS;

/// The longest wait a tool accepts, in seconds.
pub const MAX_WAIT_SECONDS: f64 = 600.0;
const DEFAULT_WAIT_SECONDS: f64 = 60.0;

/// One tool call's surroundings: the session link, whether the caller cancelled, and where
/// progress goes (`progress(elapsed_seconds, total_seconds, message)`; a no-op without a
/// progress token).
pub struct Call<'a> {
    pub link: &'a Link,
    pub cancelled: &'a (dyn Fn() -> bool + Sync),
    pub progress: &'a (dyn Fn(f64, f64, String) + Sync),
}

/// A tool's answer: the structured content and one short text for hosts that show text only.
pub struct Answered {
    pub structured: Value,
    pub summary: String,
}

fn answered(structured: Value, summary: impl Into<String>) -> Result<Answered, ToolError> {
    Ok(Answered {
        structured,
        summary: summary.into(),
    })
}

fn args<T: for<'de> Deserialize<'de>>(
    tool: &str,
    args: &Map<String, Value>,
) -> Result<T, ToolError> {
    serde_json::from_value(Value::Object(args.clone()))
        .map_err(|e| ToolError::invalid_args(format!("{tool}: {e}")))
}

/// Runs tool `name`.
pub fn call_tool(
    name: &str,
    arguments: &Map<String, Value>,
    call: &Call,
) -> Result<Answered, ToolError> {
    match name {
        "abap_status" => status::status(call, args(name, arguments)?),
        "abap_breakpoints" => breakpoints::breakpoints(call, args(name, arguments)?),
        "abap_run" => waits::run(call, args(name, arguments)?),
        "abap_wait" => waits::wait(call, args(name, arguments)?),
        "abap_step" => waits::step(call, args(name, arguments)?),
        "abap_stack" => inspect::stack(call, args(name, arguments)?),
        "abap_variables" => inspect::variables(call, args(name, arguments)?),
        "abap_table" => table::table(call, args(name, arguments)?),
        "abap_set_variable" => inspect::set_variable(call, args(name, arguments)?),
        "abap_source" => inspect::source(call, args(name, arguments)?),
        "abap_end" => end::end(call, args(name, arguments)?),
        "abap_dumps" => dumps::dumps(call, args(name, arguments)?),
        other => Err(
            ToolError::new("protocol.unknown_command", format!("no tool '{other}'"))
                .with_hint("tools/list names the tools"),
        ),
    }
}

fn max_chars(m: Option<usize>) -> usize {
    m.unwrap_or(DEFAULT_MAX_CHARS).max(1)
}

fn wait_for(seconds: Option<f64>) -> Result<Duration, ToolError> {
    let s = seconds.unwrap_or(DEFAULT_WAIT_SECONDS);
    if !s.is_finite() || s < 0.0 {
        return Err(ToolError::invalid_args(
            "wait_seconds must be a number from 0 to 600",
        ));
    }
    Ok(Duration::from_secs_f64(s.min(MAX_WAIT_SECONDS)))
}

fn status_now(call: &Call) -> Result<StatusResult, ToolError> {
    call.link.call::<cmd::Status>(&NoArgs {}, call.cancelled)
}

/// The thread a request is for: the one named, else the session's current one.
fn thread_or_current(call: &Call, thread: Option<u32>) -> Result<u32, ToolError> {
    if let Some(t) = thread {
        return Ok(t);
    }
    status_now(call)?.current_thread.ok_or_else(|| {
        ToolError::new("state.no_debuggee", "no program is caught").with_hint(
            "set a breakpoint (abap_breakpoints), then abap_run a class, or abap_wait to catch \
             a program started elsewhere",
        )
    })
}

/// `abap_breakpoints`.
mod breakpoints;
/// `abap_dumps`.
mod dumps;
/// `abap_end`.
mod end;
/// `abap_stack`, `abap_variables`, `abap_set_variable`, `abap_source`.
mod inspect;
/// `abap_status` and the stop resource.
mod status;
/// `abap_table`.
mod table;
/// `abap_run`, `abap_wait`, `abap_step`.
mod waits;

pub use inspect::source_resource;
pub use status::stop_resource;

//! One function per command, grouped by what they touch. `dispatch` is the only entry.

mod bp;
mod control;
mod inspect;
mod session;

use std::sync::Arc;

use jsonl::{ErrorBody, ErrorCode, Request};
use serde_json::Value;

use crate::engine::Engine;

pub(crate) type Outcome = Result<Value, ErrorBody>;

/// Runs one request to its outcome. `shutdown` is handled by the serve loop.
pub(crate) async fn dispatch(engine: &Arc<Engine>, req: &Request) -> Outcome {
    match req.cmd.as_str() {
        "hello" => session::hello(engine, &req.args),
        "status" => session::status(engine),
        "bp.set" => bp::set(engine, &req.args).await,
        "bp.list" => bp::list(engine),
        "listen" => control::listen(engine).await,
        "run" => control::run(engine, &req.args).await,
        "wait" => control::wait(engine, &req.args).await,
        "step" => control::step(engine, &req.args, &req.id).await,
        "terminate" => control::terminate(engine).await,
        "stack" => inspect::stack(engine).await,
        "vars" => inspect::vars(engine, &req.args).await,
        other => Err(ErrorBody::new(
            ErrorCode::UnknownCommand,
            format!("unknown command '{other}'"),
        )
        .with_hint(format!("known commands: {}", jsonl::COMMANDS.join(", ")))),
    }
}

/// The attached, stopped debuggee's session, or the error a client should see.
pub(crate) fn stopped_client(engine: &Engine) -> Result<adt::Client, ErrorBody> {
    let inner = engine.lock();
    match &inner.debuggee {
        Some(d) if !d.running => Ok(d.client.clone()),
        Some(_) => Err(ErrorBody::new(
            ErrorCode::NotStopped,
            "the debuggee is running (a step or continue is in flight)",
        )
        .with_hint("wait for the 'stopped' event or send {\"cmd\":\"wait\",\"args\":{\"until\":\"stopped\"}}")),
        None => Err(ErrorBody::new(ErrorCode::NotStopped, "no debuggee is stopped")
            .with_hint("set a breakpoint, then 'run' a class (or 'listen') and 'wait' until stopped")),
    }
}

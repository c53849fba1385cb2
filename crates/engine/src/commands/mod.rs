//! One function per command, grouped by what they touch. `dispatch` is the only entry.

mod bp;
mod control;
mod inspect;
mod search;
mod session;
mod tables;
mod triggers;
mod watch;

pub(crate) use triggers::run_answer;

use std::sync::Arc;

use jsonl::{ErrorBody, ErrorCode, Request};
use serde_json::Value;

use crate::engine::{Engine, Origin};

pub(crate) type Outcome = Result<Value, ErrorBody>;

/// Runs one request to its outcome. `shutdown` is handled by the serve loop.
pub(crate) async fn dispatch(engine: &Arc<Engine>, origin: &Origin, req: &Request) -> Outcome {
    let args = &req.args;
    match req.cmd.as_str() {
        "hello" => session::hello(engine, origin, args).await,
        "configure" => session::configure(engine, args).await,
        "schema" => Ok(jsonl::schema::protocol_schema()),
        "status" => session::status(engine),
        "bp.set" => bp::set(engine, args).await,
        "bp.list" => bp::list(engine),
        "bp.delete" => bp::delete(engine, args).await,
        "bp.enable" => bp::enable(engine, args, true).await,
        "bp.disable" => bp::enable(engine, args, false).await,
        "bp.export" => bp::export(engine),
        "bp.import" => bp::import(engine, args).await,
        "listen" => control::listen(engine, args).await,
        "unlisten" => control::unlisten(engine).await,
        "run" => triggers::run(engine, args).await,
        "test" => triggers::test(engine, args).await,
        "watch.set" => watch::set(engine, args).await,
        "watch.list" => watch::list(engine).await,
        "watch.delete" => watch::delete(engine, args).await,
        "wait" => control::wait(engine, args).await,
        "step" => control::step(engine, args, origin).await,
        "run_to_line" => control::to_line(engine, args, origin, false).await,
        "jump_to_line" => {
            if !engine.config.allow_writes {
                return Err(writes_not_allowed("jump_to_line"));
            }
            control::to_line(engine, args, origin, true).await
        }
        "terminate" => control::terminate(engine, origin).await,
        "detach" => control::detach(engine, origin).await,
        "threads" => control::threads(engine),
        "thread" => control::thread(engine, args),
        "stack" => inspect::stack(engine).await,
        "frame" => inspect::frame(engine, args).await,
        "vars" => inspect::vars(engine, args).await,
        "get" => inspect::get(engine, args).await,
        "set" => inspect::set(engine, args).await,
        "table" => tables::table(engine, args).await,
        "export" => tables::export(engine, args).await,
        "source" => inspect::source(engine, args).await,
        "search" => search::search(engine, args).await,
        other => Err(ErrorBody::new(
            ErrorCode::UnknownCommand,
            format!("unknown command '{other}'"),
        )
        .with_hint(format!("known commands: {}", jsonl::COMMANDS.join(", ")))),
    }
}

pub(crate) fn writes_not_allowed(cmd: &str) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::WriteNotAllowed,
        format!("'{cmd}' changes the program and writes are not allowed in this session"),
    )
    .with_hint("start the session with 'abapdbg serve --allow-writes' to permit it")
}

/// Errors that mean the debuggee is no longer there.
pub(crate) fn is_gone(e: &adt::AdtError) -> bool {
    matches!(
        e.class(),
        adt::ErrorClass::DebuggeeEnded
            | adt::ErrorClass::NoSessionAttached
            | adt::ErrorClass::Terminated
    )
}

/// The current thread and its session, when it is stopped; otherwise the error a client
/// should see.
pub(crate) fn stopped_client(engine: &Engine) -> Result<(u32, adt::Client), ErrorBody> {
    let inner = engine.lock();
    match inner.current() {
        Some(d) if !d.running => Ok((d.thread, d.client.clone())),
        Some(_) => Err(ErrorBody::new(
            ErrorCode::NotStopped,
            "the debuggee is running (a step or continue is in flight)",
        )
        .with_hint("wait for the 'stopped' event or send {\"cmd\":\"wait\",\"args\":{\"until\":\"stopped\"}}")),
        None => Err(ErrorBody::new(ErrorCode::NotStopped, "no debuggee is stopped")
            .with_hint("set a breakpoint, then 'run' a class (or 'listen') and 'wait' until stopped")),
    }
}

//! One function per command, grouped by what they touch. `dispatch` is the only entry: an
//! exhaustive `match` over `jsonl::Command`, the protocol's one command table, so a command
//! cannot be listed without being dispatched here. Results are `jsonl::results` types, built
//! in `crate::to_proto`.

mod bp;
mod control;
mod dump_stack;
mod dumps;
pub(crate) mod inspect;
mod search;
mod session;
pub(crate) mod tables;
mod triggers;
mod watch;

use std::sync::Arc;

use jsonl::{Command, ErrorBody, ErrorCode, Request};
use serde_json::Value;

use crate::engine::{Engine, Origin, Reply};
use crate::table_json::table_json;
use crate::to_proto::result;

/// What a command answers.
pub(crate) type Outcome = Result<Value, ErrorBody>;

/// Runs one request to its outcome.
pub(crate) async fn dispatch(
    engine: &Arc<Engine>,
    origin: &Origin,
    req: &Request,
) -> Result<Reply, ErrorBody> {
    let Some(command) = Command::from_name(&req.cmd) else {
        return Err(unknown_command(&req.cmd));
    };
    let args = &req.args;
    let value = match command {
        Command::Hello => result(session::hello(engine, origin, args).await),
        Command::Configure => result(session::configure(engine, args).await),
        Command::Schema => Ok(jsonl::schema::protocol_schema()),
        Command::Status => {
            // Written straight to text: at a stop the answer holds the stop's frame and
            // source lines four times, and building them as a `Value` first cost more than
            // any cached read.
            return session::status(engine)
                .and_then(|s| written(&s))
                .map(Reply::Json);
        }
        Command::BpSet => bp::set(engine, args).await,
        Command::BpList => bp::list(engine),
        Command::BpDelete => bp::delete(engine, args).await,
        Command::BpEnable => bp::enable(engine, args, true).await,
        Command::BpDisable => bp::enable(engine, args, false).await,
        Command::BpExport => bp::export(engine),
        Command::BpImport => bp::import(engine, args).await,
        Command::Listen => control::listen(engine, args).await,
        Command::Unlisten => control::unlisten(engine).await,
        Command::Run => triggers::run(engine, args, origin).await,
        Command::Test => triggers::test(engine, args, origin).await,
        Command::WatchSet => result(watch::set(engine, args).await),
        Command::WatchList => result(watch::list(engine, args).await),
        Command::WatchDelete => result(watch::delete(engine, args).await),
        Command::Wait => control::wait(engine, args).await,
        Command::Step => control::step(engine, args, origin).await,
        Command::RunToLine => control::to_line(engine, args, origin, false).await,
        Command::JumpToLine => {
            if !engine.config.allow_writes {
                return Err(writes_not_allowed("jump_to_line"));
            }
            control::to_line(engine, args, origin, true).await
        }
        Command::Terminate => control::terminate(engine, args, origin).await,
        Command::Detach => control::detach(engine, args, origin).await,
        Command::Threads => control::threads(engine),
        Command::Thread => control::thread(engine, args),
        Command::Stack => result(inspect::stack(engine, args).await),
        Command::Frame => result(inspect::frame(engine, args).await),
        Command::Vars => result(inspect::vars(engine, args).await),
        Command::Get => result(inspect::get(engine, args).await),
        Command::Set => result(inspect::set(engine, args).await),
        Command::Table => {
            let page = tables::table(engine, args).await?;
            return table_json(&page).map(Reply::Json);
        }
        Command::Export => result(tables::export(engine, args).await),
        Command::Source => result(inspect::source(engine, args).await),
        Command::Search => result(search::search(engine, args).await),
        Command::Dumps => result(dumps::dumps(engine, args).await),
        Command::Dump => result(dumps::dump(engine, args).await),
        Command::DumpCatch => dumps::catch(engine, args).await,
        // The serve loop answers these itself (they act on the connection and the session,
        // not on the debugger); a request reaching here was routed wrongly.
        Command::Cancel | Command::Shutdown => Err(ErrorBody::new(
            ErrorCode::Internal,
            format!("'{command}' is answered by the serve loop, not dispatched"),
        )),
    };
    value.map(Reply::Value)
}

/// A result as JSON text, for a reply written without a `Value` in between.
fn written<T: serde::Serialize>(result: &T) -> Result<String, ErrorBody> {
    serde_json::to_string(result).map_err(|e| {
        ErrorBody::new(
            ErrorCode::Internal,
            format!("cannot encode the result: {e}"),
        )
    })
}

fn unknown_command(name: &str) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::UnknownCommand,
        format!("unknown command '{name}'"),
    )
    .with_hint(format!("known commands: {}", jsonl::COMMANDS.join(", ")))
}

pub(crate) fn writes_not_allowed(cmd: &str) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::WriteNotAllowed,
        format!("'{cmd}' changes the program and writes are not allowed in this session"),
    )
    .with_hint("start the session with 'abapdbg serve --allow-writes' to permit it")
}

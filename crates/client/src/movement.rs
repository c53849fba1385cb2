//! "Run until the next stop or the end": the one wait every front end uses after `run`,
//! `test`, `step`, `run_to_line` and `jump_to_line`, with a deadline and an interrupt
//! (Ctrl-C, a cancelled tool call). Only the wait is ever let go: what the request started on
//! the system goes on, and `wait` or `status` shows where it is.

use std::time::{Duration, Instant};

use jsonl::results::{Ended, MoveResult, Stopped};
use jsonl::{CommandSpec, EventKind};
use serde_json::Value;

use crate::error::ClientError;
use crate::session::{Incoming, Session};
use crate::typed::{decode, encode_args};

/// What the request itself answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// A movement (`step`, `run_to_line`, `jump_to_line`): `{stop}`, `{ended}`, or `{pending}`
    /// (then the event it caused follows).
    Movement,
    /// A trigger (`run`, `test`): it answers only when its program ended; a stop of the
    /// program it started comes first, as a `stopped` event caused by it.
    Trigger,
}

/// Where the program is once the wait is over.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// It stopped: the body of the `stopped` event.
    Stop(Box<Stopped>),
    /// It ended: the body of `debuggee.ended`.
    Ended(Box<Ended>),
    /// A trigger's own result (`run`, `test`): the program ended without stopping.
    Answered(Value),
    /// The deadline passed first; the request was let go, the program goes on.
    Waiting { elapsed: Duration },
}

/// Sends `cmd` (a movement or a trigger, by `answer`) and waits for the stop or the end,
/// until `deadline` (none: for as long as it takes) or until `interrupted()` says so (then
/// [`ClientError::Interrupted`]). `interrupted` is asked every 50 ms: a caller may also
/// report progress from it.
pub fn until_stop_or_end(
    session: &Session,
    cmd: &str,
    args: Value,
    answer: Answer,
    deadline: Option<Instant>,
    interrupted: &dyn Fn() -> bool,
) -> Result<Outcome, ClientError> {
    let started = Instant::now();
    let sub = session.subscribe();
    let id = session.send_routed(&sub, cmd, args)?;
    let ours = |cause: &Option<Value>| cause.as_ref().and_then(Value::as_u64) == Some(id);
    loop {
        let item = match sub.recv_until(deadline, interrupted) {
            Ok(Some(item)) => item,
            Ok(None) => {
                session.cancel(id);
                return Ok(Outcome::Waiting {
                    elapsed: started.elapsed(),
                });
            }
            Err(ClientError::Interrupted) => {
                session.cancel(id);
                return Err(ClientError::Interrupted);
            }
            Err(e) => return Err(e),
        };
        match item {
            Incoming::Event(ev) if ours(&ev.cause) => match ev.kind() {
                Ok(EventKind::Stopped(stop)) => return Ok(Outcome::Stop(stop)),
                Ok(EventKind::Ended(ended)) if answer == Answer::Movement => {
                    return Ok(Outcome::Ended(ended));
                }
                Ok(_) => {}
                Err(e) => return Err(ClientError::Malformed(e.to_string())),
            },
            Incoming::Event(_) => {}
            Incoming::Response(resp) => {
                if resp.id.as_u64() != Some(id) {
                    continue;
                }
                let result = crate::session::outcome(resp)?;
                match answer {
                    Answer::Trigger => return Ok(Outcome::Answered(result)),
                    Answer::Movement => match decode::<MoveResult>(cmd, result)? {
                        MoveResult::Stop { stop } => return Ok(Outcome::Stop(stop)),
                        MoveResult::Ended { ended } => return Ok(Outcome::Ended(ended)),
                        // The stop or the end still comes, as an event caused by us.
                        MoveResult::Pending { .. } => {}
                    },
                }
            }
        }
    }
}

/// [`until_stop_or_end`] for command `C` with its typed arguments.
pub fn typed_until_stop_or_end<C: CommandSpec>(
    session: &Session,
    args: &C::Args,
    answer: Answer,
    deadline: Option<Instant>,
    interrupted: &dyn Fn() -> bool,
) -> Result<Outcome, ClientError> {
    until_stop_or_end(
        session,
        C::COMMAND.name(),
        encode_args::<C>(args)?,
        answer,
        deadline,
        interrupted,
    )
}

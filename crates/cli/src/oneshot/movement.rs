//! Waiting for the program after `run`, `test`, `step`, `continue`, `run-to` and `jump-to`:
//! the stop or the end, whichever comes first (the logic of the Nushell plugin's
//! `until_stop_or_end`).

use client::{ClientError, Incoming};
use serde_json::{Value, json};

use super::ctx::{Ctx, Failure};
use super::{render, spinner};

/// What the request itself answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answer {
    /// A movement: `{stop}`, `{ended}` or `{pending}` (then the event caused by it follows).
    Movement,
    /// A trigger (`run`, `test`): answers only when the program ended; any stop comes first.
    Trigger,
}

/// Where the program is now.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// It stopped: the body of the `stopped` event.
    Stop(Value),
    /// It ended: the body of `debuggee.ended`.
    Ended(Value),
    /// A trigger's own result: the program ended without stopping.
    Answered(Value),
}

impl Outcome {
    /// What `--json` prints: `{"stop": …}` and `{"ended": …}` as movements answer them, or
    /// the trigger's result as the protocol answers it.
    pub(crate) fn to_json(&self) -> Value {
        match self {
            Outcome::Stop(body) => json!({ "stop": body }),
            Outcome::Ended(body) => json!({ "ended": body }),
            Outcome::Answered(result) => result.clone(),
        }
    }

    /// The human form of a stop or an end; a trigger's answer is rendered by its command.
    pub(crate) fn render(&self, color: bool) -> Option<String> {
        match self {
            Outcome::Stop(body) => Some(render::stop(body, color)),
            Outcome::Ended(body) => Some(render::ended(body, color)),
            Outcome::Answered(_) => None,
        }
    }
}

/// Sends `cmd` and waits, until Ctrl-C, for the program to stop or end; the spinner shows
/// `label` meanwhile.
pub(crate) fn until_stop_or_end(
    ctx: &Ctx,
    label: &str,
    cmd: &str,
    args: Value,
    answer: Answer,
) -> Result<Outcome, Failure> {
    let session = ctx.session()?;
    spinner::while_waiting(ctx, label, || {
        let sub = session.subscribe();
        let id = session.send_routed(&sub, cmd, args)?;
        let ours = |cause: &Option<Value>| cause.as_ref().and_then(Value::as_u64) == Some(id);
        loop {
            let item = match sub.recv_until(None, &|| ctx.interrupted()) {
                Ok(Some(item)) => item,
                Ok(None) => continue,
                Err(ClientError::Interrupted) => {
                    // Only the wait is let go: what the request started goes on.
                    session.cancel(id);
                    return Err(Failure::from(ClientError::Interrupted).with_hint(
                        "the program goes on; 'abapdbg wait' or 'abapdbg status' shows where it is",
                    ));
                }
                Err(e) => return Err(e.into()),
            };
            match item {
                Incoming::Event(ev) if answer == Answer::Trigger && ev.event == "stopped" => {
                    return Ok(Outcome::Stop(ev.body));
                }
                Incoming::Event(ev) if answer == Answer::Movement && ours(&ev.cause) => {
                    match ev.event.as_str() {
                        "stopped" => return Ok(Outcome::Stop(ev.body)),
                        "debuggee.ended" => return Ok(Outcome::Ended(ev.body)),
                        _ => {}
                    }
                }
                Incoming::Event(_) => {}
                Incoming::Response(resp) => {
                    if resp.id.as_u64() != Some(id) {
                        continue;
                    }
                    let result = resp
                        .outcome
                        .map_err(|e| Failure::from(ClientError::Protocol(e.into())))?;
                    match answer {
                        Answer::Trigger => return Ok(Outcome::Answered(result)),
                        Answer::Movement => {
                            if let Some(stop) = result.get("stop") {
                                return Ok(Outcome::Stop(stop.clone()));
                            }
                            if let Some(ended) = result.get("ended") {
                                return Ok(Outcome::Ended(ended.clone()));
                            }
                            // Pending: the stop or end still comes as an event caused by us.
                        }
                    }
                }
            }
        }
    })
}

/// Prints a movement's outcome in the chosen form.
pub(crate) fn print(ctx: &Ctx, outcome: &Outcome) {
    if ctx.json {
        ctx.print_json(&outcome.to_json());
    } else if let Some(text) = outcome.render(ctx.color) {
        super::ctx::out(&text);
    }
}

//! Waiting for the program after `run`, `test`, `step`, `continue`, `run-to` and `jump-to`:
//! the stop or the end, whichever comes first. The wait is the session client's
//! ([`client::movement::until_stop_or_end`], the one every front end uses); this module adds
//! the spinner, Ctrl-C as exit 130 with a hint, and the printing.

use client::ClientError;
use client::movement::typed_until_stop_or_end;
pub(crate) use client::movement::{Answer, Outcome};
use jsonl::CommandSpec;
use jsonl::results::MoveResult;

use super::ctx::{Ctx, Failure};
use super::{render, spinner};

/// Sends command `C` and waits, until Ctrl-C, for the program to stop or end; the spinner
/// shows `label` meanwhile. On Ctrl-C only the wait ends: the session and the program go on.
pub(crate) fn until_stop_or_end<C: CommandSpec>(
    ctx: &Ctx,
    label: &str,
    args: &C::Args,
    answer: Answer,
) -> Result<Outcome, Failure> {
    until_stop_or_end_within::<C>(ctx, label, args, answer, None)
}

/// [`until_stop_or_end`], giving up the wait after `limit` with `state.timed_out` (the
/// program goes on, as after Ctrl-C).
pub(crate) fn until_stop_or_end_within<C: CommandSpec>(
    ctx: &Ctx,
    label: &str,
    args: &C::Args,
    answer: Answer,
    limit: Option<std::time::Duration>,
) -> Result<Outcome, Failure> {
    let session = ctx.session()?;
    let deadline = limit.map(|l| std::time::Instant::now() + l);
    let outcome = spinner::while_waiting(ctx, label, || {
        typed_until_stop_or_end::<C>(session, args, answer, deadline, &|| ctx.interrupted())
    })
    .map_err(|e| match e {
        ClientError::Interrupted => Failure::from(e)
            .with_hint("the program goes on; 'abapdbg wait' or 'abapdbg status' shows where it is"),
        other => other.into(),
    })?;
    if let Outcome::Waiting { elapsed } = outcome {
        return Err(Failure::new(
            "state.timed_out",
            format!("neither a stop nor the end within {} s", elapsed.as_secs()),
        )
        .with_hint("the program goes on; 'abapdbg wait' or 'abapdbg status' shows where it is"));
    }
    Ok(outcome)
}

/// Prints a stop or an end in the chosen form: `--json` prints `{"stop": …}` or
/// `{"ended": …}` as movements answer them. A trigger's own answer is its command's to print.
pub(crate) fn print(ctx: &Ctx, outcome: &Outcome) -> Result<(), Failure> {
    match outcome {
        Outcome::Stop(stop) if ctx.json => ctx.print_json(&MoveResult::Stop { stop: stop.clone() }),
        Outcome::Ended(ended) if ctx.json => ctx.print_json(&MoveResult::Ended {
            ended: ended.clone(),
        }),
        Outcome::Stop(stop) => {
            super::ctx::out(&render::stop(stop, ctx.color));
            Ok(())
        }
        Outcome::Ended(ended) => {
            super::ctx::out(&render::ended(ended, ctx.color));
            Ok(())
        }
        // Without a deadline the wait never gives up; a trigger's answer is printed by its
        // command.
        Outcome::Answered(_) | Outcome::Waiting { .. } => Ok(()),
    }
}

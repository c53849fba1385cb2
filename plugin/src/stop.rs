//! Where a program is after `run`, `wait`, `step` or `continue`: one record, the stop or the
//! end, and the wait for it (the session client's one wait, `client::movement`).

use client::movement::{self, Outcome};
use client::{ClientError, Session};
use jsonl::CommandSpec;
use jsonl::results::{Ended, Frame, RunResult, SourceLine, Stopped};
use nu_plugin::EngineInterface;
use nu_protocol::{LabeledError, Record, Span, Value};
use serde::Serialize;
use serde_json::Value as Json;

use crate::errors::to_labeled;
use crate::values::from_json;

/// A protocol word (`breakpoint`, `finished`) as the wire spells it.
pub(crate) fn word<T: Serialize>(t: &T, span: Span) -> Value {
    match serde_json::to_value(t) {
        Ok(v) => from_json(&v, span),
        Err(_) => Value::nothing(span),
    }
}

/// `{event: "stopped", reason, thread, epoch, object, method, include, line, source}` from the
/// body of a `stopped` event.
pub(crate) fn stop_record(stop: &Stopped, span: Span) -> Value {
    stop_parts(
        word(&stop.reason, span),
        stop.thread,
        stop.epoch,
        stop.frame.as_ref(),
        span,
    )
}

/// A stop record from its parts (`reason` nothing where the stop's cause is not known).
pub(crate) fn stop_parts(
    reason: Value,
    thread: u32,
    epoch: Option<u64>,
    frame: Option<&Frame>,
    span: Span,
) -> Value {
    let text = |t: Option<&String>| t.map_or(Value::nothing(span), |t| Value::string(t, span));
    let mut rec = Record::new();
    rec.push("event", Value::string("stopped", span));
    rec.push("reason", reason);
    rec.push("thread", Value::int(i64::from(thread), span));
    rec.push(
        "epoch",
        epoch
            .and_then(|e| i64::try_from(e).ok())
            .map_or(Value::nothing(span), |e| Value::int(e, span)),
    );
    rec.push("object", text(frame.map(|f| &f.object)));
    rec.push("method", text(frame.map(|f| &f.method)));
    rec.push("include", text(frame.map(|f| &f.include)));
    rec.push(
        "line",
        frame.map_or(Value::nothing(span), |f| {
            Value::int(i64::from(f.line), span)
        }),
    );
    rec.push(
        "source",
        source_table(
            frame.and_then(|f| f.source.as_deref()).unwrap_or_default(),
            span,
        ),
    );
    Value::record(rec, span)
}

/// `{event: "ended", reason, output}`; `output` is what the run printed, when the session
/// knows it; plus `test` (the unit result) for a program `abap test` started.
pub(crate) fn ended_record(ended: &Ended, span: Span) -> Value {
    let mut rec = Record::new();
    rec.push("event", Value::string("ended", span));
    rec.push("reason", word(&ended.reason, span));
    rec.push(
        "output",
        ended
            .output
            .as_ref()
            .map_or(Value::nothing(span), |o| Value::string(o, span)),
    );
    // A program caught during `abap test` ends with the unit result instead of an output.
    if let Some(test) = &ended.test {
        rec.push("test", word(test, span));
    }
    Value::record(rec, span)
}

/// Source lines `[{line, text, current}]` as a table.
pub(crate) fn source_table(lines: &[SourceLine], span: Span) -> Value {
    let rows = lines
        .iter()
        .map(|l| {
            let mut rec = Record::new();
            rec.push("line", Value::int(i64::from(l.line), span));
            rec.push("text", Value::string(&l.text, span));
            rec.push("current", Value::bool(l.current, span));
            Value::record(rec, span)
        })
        .collect();
    Value::list(rows, span)
}

/// What to make of the answer to the request itself.
pub(crate) enum Answer {
    /// A movement (`step`, `run_to_line`, …): `{stop}` / `{ended}` / `{pending}`.
    Movement,
    /// A trigger (`run`, `test`): the program ended without stopping; this makes its record
    /// from the request's result.
    Trigger(fn(Json, Span) -> Result<Value, LabeledError>),
}

/// Sends command `C` and waits, until Ctrl-C, for the program to stop or end: the stop or the
/// end the request caused, or a trigger's answer.
pub(crate) fn until_stop_or_end<C: CommandSpec>(
    session: &Session,
    engine: &EngineInterface,
    span: Span,
    args: &C::Args,
    answer: Answer,
) -> Result<Value, LabeledError> {
    let signals = engine.signals().clone();
    let interrupted = move || signals.interrupted();
    let kind = match answer {
        Answer::Movement => movement::Answer::Movement,
        Answer::Trigger(_) => movement::Answer::Trigger,
    };
    match movement::typed_until_stop_or_end::<C>(session, args, kind, None, &interrupted) {
        Ok(Outcome::Stop(stop)) => Ok(stop_record(&stop, span)),
        Ok(Outcome::Ended(ended)) => Ok(ended_record(&ended, span)),
        Ok(Outcome::Answered(result)) => match answer {
            Answer::Trigger(make) => make(result, span),
            // A movement's answer is a stop, an end or pending; the wait makes the first two
            // outcomes and waits on after the third.
            Answer::Movement => Err(to_labeled(
                &ClientError::Malformed(format!("'{}' answered {result}", C::COMMAND)),
                span,
            )),
        },
        // Without a deadline the wait ends only at the stop, the end or Ctrl-C.
        Ok(Outcome::Waiting { .. }) | Err(ClientError::Interrupted) => {
            Err(to_labeled(&ClientError::Interrupted, span)
                .with_help("the program goes on; 'abap wait' or 'abap status' shows where it is"))
        }
        Err(e) => Err(to_labeled(&e, span)),
    }
}

/// The record of a class or report run that ended without stopping.
pub(crate) fn run_ended(result: Json, span: Span) -> Result<Value, LabeledError> {
    let run: RunResult = client::decode("run", result).map_err(|e| to_labeled(&e, span))?;
    let mut rec = Record::new();
    rec.push("event", Value::string("ended", span));
    rec.push("reason", Value::string("finished", span));
    rec.push("output", Value::string(&run.output, span));
    Ok(Value::record(rec, span))
}

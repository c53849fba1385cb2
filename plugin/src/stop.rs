//! Where a program is after `run`, `wait`, `step` or `continue`: one record, the stop or the
//! end, and the wait for it.

use std::time::Instant;

use client::{Incoming, Session};
use nu_plugin::EngineInterface;
use nu_protocol::{LabeledError, Record, Span, Value};
use serde_json::{Value as Json, json};

use crate::errors::to_labeled;
use crate::values::from_json;

/// `{event: "stopped", reason, thread, epoch, object, method, include, line, source}` from the
/// body of a `stopped` event.
pub(crate) fn stop_record(body: &Json, span: Span) -> Value {
    let frame = &body["frame"];
    let mut rec = Record::new();
    rec.push("event", Value::string("stopped", span));
    rec.push("reason", from_json(&body["reason"], span));
    rec.push("thread", from_json(&body["thread"], span));
    rec.push("epoch", from_json(&body["epoch"], span));
    for f in ["object", "method", "include", "line"] {
        rec.push(f, from_json(&frame[f], span));
    }
    rec.push("source", source_table(&frame["source"], span));
    Value::record(rec, span)
}

/// `{event: "ended", reason, output}`; `output` is what the run printed, when the session
/// knows it; plus `test` (the unit result) for a program `abap test` started.
pub(crate) fn ended_record(body: &Json, span: Span) -> Value {
    let mut rec = Record::new();
    rec.push("event", Value::string("ended", span));
    rec.push(
        "reason",
        from_json(
            body.get("reason")
                .unwrap_or(&Json::String("finished".into())),
            span,
        ),
    );
    rec.push("output", from_json(&body["output"], span));
    // A program caught during `abap test` ends with the unit result instead of an output.
    if let Some(test) = body.get("test") {
        rec.push("test", from_json(test, span));
    }
    Value::record(rec, span)
}

/// Source lines `[{line, text, current}]` as a table.
pub(crate) fn source_table(lines: &Json, span: Span) -> Value {
    let rows = lines
        .as_array()
        .into_iter()
        .flatten()
        .map(|l| crate::values::pick(l, &["line", "text", "current"], span))
        .collect();
    Value::list(rows, span)
}

/// What a movement answered (`{stop}`, `{ended}`) as a record; `None` for `{pending}`.
fn movement_result(result: &Json, span: Span) -> Option<Value> {
    if let Some(stop) = result.get("stop") {
        return Some(stop_record(stop, span));
    }
    if let Some(ended) = result.get("ended") {
        return Some(ended_record(ended, span));
    }
    None
}

/// What to make of the answer to the request itself.
pub(crate) enum Answer {
    /// A movement (`step`, `run_to_line`, …): `{stop}` / `{ended}` / `{pending}`.
    Movement,
    /// A trigger (`run`, `test`): the program ended without stopping; this makes its record.
    Trigger(fn(&Json, Span) -> Value),
}

/// Sends `cmd` and waits, until Ctrl-C, for the program to stop or end: the first `stopped`
/// event (for a movement: the one it caused), or the answer.
pub(crate) fn until_stop_or_end(
    session: &Session,
    engine: &EngineInterface,
    span: Span,
    cmd: &str,
    args: Json,
    answer: Answer,
) -> Result<Value, LabeledError> {
    let signals = engine.signals().clone();
    let interrupted = move || signals.interrupted();
    let sub = session.subscribe();
    let id = session
        .send_routed(&sub, cmd, args)
        .map_err(|e| to_labeled(&e, span))?;
    let ours = |cause: &Option<Json>| cause.as_ref().and_then(Json::as_u64) == Some(id);
    loop {
        let item = match sub.recv_until(None::<Instant>, &interrupted) {
            Ok(Some(item)) => item,
            Ok(None) => continue,
            Err(client::ClientError::Interrupted) => {
                // The request is let go; what it started on the system goes on.
                session.cancel(id);
                return Err(
                    to_labeled(&client::ClientError::Interrupted, span).with_help(
                        "the program goes on; 'abap wait' or 'abap status' shows where it is",
                    ),
                );
            }
            Err(e) => return Err(to_labeled(&e, span)),
        };
        match (&answer, item) {
            (Answer::Trigger(_), Incoming::Event(ev)) if ev.event == "stopped" => {
                return Ok(stop_record(&ev.body, span));
            }
            (Answer::Movement, Incoming::Event(ev)) if ours(&ev.cause) => match ev.event.as_str() {
                "stopped" => return Ok(stop_record(&ev.body, span)),
                "debuggee.ended" => return Ok(ended_record(&ev.body, span)),
                _ => {}
            },
            (_, Incoming::Event(_)) => {}
            (_, Incoming::Response(resp)) => {
                if resp.id.as_u64() != Some(id) {
                    continue;
                }
                let result = resp
                    .outcome
                    .map_err(|e| to_labeled(&client::ClientError::Protocol(e.into()), span))?;
                match &answer {
                    Answer::Trigger(make) => return Ok(make(&result, span)),
                    Answer::Movement => {
                        if let Some(v) = movement_result(&result, span) {
                            return Ok(v);
                        }
                        // Pending: the stop or end still comes as an event caused by us.
                    }
                }
            }
        }
    }
}

/// The record of a class or report run that ended without stopping.
pub(crate) fn run_ended(result: &Json, span: Span) -> Value {
    ended_record(
        &json!({"reason": "finished", "output": result["output"]}),
        span,
    )
}

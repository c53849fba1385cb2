//! `abap wait [--until stopped|ended] [--timeout <duration>]`.

use std::time::{Duration, Instant};

use client::Incoming;
use jsonl::{EventKind, State, cmd};
use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{
    Completion, Example, Flag, LabeledError, Record, Signature, Spanned, SyntaxShape, Type, Value,
};

use crate::AbapPlugin;
use crate::connection::typed;
use crate::errors::{invalid_arg, to_labeled};
use crate::stop::{ended_record, stop_parts, stop_record};

pub(crate) struct Wait;

impl SimplePluginCommand for Wait {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap wait"
    }

    fn description(&self) -> &str {
        "Wait until a program is stopped (default) or has ended; returns the stop or the end."
    }

    fn extra_description(&self) -> &str {
        "Answers at once when the condition already holds. After --timeout it returns \
        {event: timeout, state} rather than failing. Ctrl-C stops waiting."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .param(
                Flag::new("until")
                    .short('u')
                    .arg(SyntaxShape::String)
                    .desc("stopped (default) or ended")
                    .completion(Completion::new_list(&["stopped", "ended"])),
            )
            .named(
                "timeout",
                SyntaxShape::Duration,
                "How long to wait at most (default: until Ctrl-C).",
                Some('t'),
            )
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap wait --timeout 30sec).event",
            description: "Wait for a stop",
            result: Some(Value::test_string("stopped")),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let span = call.head;
        let until: Option<Spanned<String>> = call.get_flag("until")?;
        let until_ended = match until
            .as_ref()
            .map(|u| u.item.to_ascii_lowercase())
            .as_deref()
        {
            None | Some("stopped") => false,
            Some("ended") => true,
            Some(_) => {
                let s = until.as_ref().map(|u| u.span).unwrap_or(span);
                return Err(invalid_arg("unknown condition", "stopped or ended", s));
            }
        };
        let timeout: Option<Duration> = call
            .get_flag::<i64>("timeout")?
            .map(|ns| Duration::from_nanos(u64::try_from(ns).unwrap_or(0)));
        let deadline = timeout.map(|t| Instant::now() + t);
        let session = plugin.session(engine, span)?;
        let signals = engine.signals().clone();
        let sub = session.subscribe();
        // Whatever already holds answers at once; the events cover what happens later.
        let status = typed::<cmd::Status>(&session, engine, span, &Default::default())?;
        if !until_ended
            && status.state == State::Stopped
            && let Some(d) = &status.debuggee
        {
            if let Some(stop) = &d.stop {
                return Ok(stop_record(stop, span));
            }
            return Ok(stop_parts(
                Value::nothing(span),
                d.thread,
                Some(status.epoch),
                d.frame.as_ref(),
                span,
            ));
        }
        if until_ended
            && status.state == State::Ended
            && let Some(end) = &status.last_end
        {
            return Ok(ended_record(end, span));
        }
        loop {
            match sub.recv_until(deadline, &|| signals.interrupted()) {
                Ok(Some(Incoming::Event(ev))) => match ev.kind() {
                    Ok(EventKind::Stopped(stop)) if !until_ended => {
                        return Ok(stop_record(&stop, span));
                    }
                    Ok(EventKind::Ended(end)) if until_ended => {
                        return Ok(ended_record(&end, span));
                    }
                    _ => {}
                },
                Ok(Some(Incoming::Response(_))) => {}
                Ok(None) => {
                    let status = typed::<cmd::Status>(&session, engine, span, &Default::default())?;
                    let mut rec = Record::new();
                    rec.push("event", Value::string("timeout", span));
                    rec.push("state", crate::stop::word(&status.state, span));
                    return Ok(Value::record(rec, span));
                }
                Err(e) => return Err(to_labeled(&e, span)),
            }
        }
    }
}

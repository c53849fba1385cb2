//! `abap events`: the session's events as a stream of records, until Ctrl-C.

use std::time::Duration;

use client::Incoming;
use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand};
use nu_protocol::{
    Example, LabeledError, ListStream, PipelineData, Record, Signature, Type, Value,
};

use crate::AbapPlugin;
use crate::values::from_json;

pub(crate) struct Events;

impl PluginCommand for Events {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap events"
    }

    fn description(&self) -> &str {
        "Stream the session's events ({event, state, cause, body}) until Ctrl-C or the pipeline stops."
    }

    fn extra_description(&self) -> &str {
        "Events: stopped, debuggee.ended, listener.armed, breakpoint.changed, variable.changed, \
        … (jsonl/PROTOCOL.md lists them). Ctrl-C ends the stream; the session goes on."
    }

    fn signature(&self) -> Signature {
        Signature::build(self.name())
            .input_output_type(Type::Nothing, Type::list(Type::record()))
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "abap events | where event == stopped | first | get body.frame.line",
            description: "Wait for the next stop seen by any client and show its line",
            result: None,
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: PipelineData,
    ) -> Result<PipelineData, LabeledError> {
        let span = call.head;
        let session = plugin.session(engine, span)?;
        let sub = session.subscribe();
        let signals = engine.signals().clone();
        let stop = signals.clone();
        // A stream that nothing reads any more is only noticed at its next item; when nu
        // itself has gone (the plugin was re-parented), end at once instead of waiting for one.
        let parent = std::os::unix::process::parent_id();
        let items = std::iter::from_fn(move || {
            // Keep the connection for as long as the stream lives.
            let _session = &session;
            loop {
                if stop.interrupted() || std::os::unix::process::parent_id() != parent {
                    return None;
                }
                match sub.recv_timeout(Duration::from_millis(100)) {
                    Ok(Some(Incoming::Event(ev))) => {
                        let mut rec = Record::new();
                        rec.push("event", Value::string(ev.event, span));
                        rec.push("state", Value::string(ev.state.as_str(), span));
                        rec.push(
                            "cause",
                            ev.cause
                                .as_ref()
                                .map_or(Value::nothing(span), |c| from_json(c, span)),
                        );
                        rec.push("body", from_json(&ev.body, span));
                        return Some(Value::record(rec, span));
                    }
                    Ok(_) => {}
                    Err(_) => return None,
                }
            }
        });
        Ok(PipelineData::list_stream(
            ListStream::new(items, span, signals),
            None,
        ))
    }
}

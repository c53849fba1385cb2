//! `abap listen [--take-over]`: arm the listener and wait until the system holds it.

use std::time::{Duration, Instant};

use client::Incoming;
use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Record, Signature, Type, Value};
use serde_json::json;

use crate::AbapPlugin;
use crate::errors::to_labeled;

/// How long `listen` waits for the system to confirm the listener.
const ARM_WAIT: Duration = Duration::from_secs(20);

pub(crate) struct Listen;

impl SimplePluginCommand for Listen {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap listen"
    }

    fn description(&self) -> &str {
        "Catch programs that stop at our breakpoints, whoever starts them (SAP GUI, a browser, a job)."
    }

    fn extra_description(&self) -> &str {
        "Returns {armed, user} once the system holds the listener. When another debugger \
        listens for the same user, fails with conflict.listener; --take-over takes the \
        listener from it. Caught programs show up in 'abap wait' and 'abap events'."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .switch(
                "take-over",
                "Take the listener from another debugger of this user.",
                None,
            )
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap listen).armed",
            description: "Arm the listener",
            result: Some(Value::test_bool(true)),
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
        let session = plugin.session(engine, span)?;
        let sub = session.subscribe();
        let args = json!({"take_over": call.has_flag("take-over")?});
        let result = crate::connection::call(&session, engine, span, "listen", args)?;
        let record = |user: &serde_json::Value| {
            let mut rec = Record::new();
            rec.push("armed", Value::bool(true, span));
            rec.push("user", crate::values::from_json(user, span));
            Value::record(rec, span)
        };
        if result["armed"].as_bool() == Some(true) {
            let status = crate::connection::call(&session, engine, span, "status", json!({}))?;
            return Ok(record(&status["system"]["user"]));
        }
        let signals = engine.signals().clone();
        let deadline = Instant::now() + ARM_WAIT;
        loop {
            match sub.recv_until(Some(deadline), &|| signals.interrupted()) {
                Ok(Some(Incoming::Event(ev))) => match ev.event.as_str() {
                    "listener.armed" => return Ok(record(&ev.body["user"])),
                    "listener.conflict" | "listener.failed" => {
                        let message = ev.body["message"].as_str().unwrap_or("the listener failed");
                        let mut err = LabeledError::new(format!(
                            "{}: {message}",
                            if ev.event == "listener.conflict" {
                                "conflict.listener"
                            } else {
                                "listener.failed"
                            }
                        ))
                        .with_code(format!("abap::{}", ev.event))
                        .with_label(message.to_string(), span);
                        if let Some(hint) = ev.body["hint"].as_str() {
                            err = err.with_help(hint.to_string());
                        }
                        return Err(err);
                    }
                    _ => {}
                },
                Ok(Some(Incoming::Response(_))) => {}
                Ok(None) => {
                    return Err(LabeledError::new("listener not armed yet")
                        .with_code("abap::transport.timeout")
                        .with_label(
                            format!(
                                "the system did not confirm the listener within {} s",
                                ARM_WAIT.as_secs()
                            ),
                            span,
                        )
                        .with_help(
                            "the session keeps trying; 'abap status' shows listener.armed",
                        ));
                }
                Err(e) => return Err(to_labeled(&e, span)),
            }
        }
    }
}

//! `abap listen [--take-over]`: arm the listener and wait until the system holds it.

use std::time::{Duration, Instant};

use client::Incoming;
use jsonl::{EventKind, cmd};
use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Record, Signature, Type, Value};

use crate::AbapPlugin;
use crate::connection::typed;
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
        let args = jsonl::args::ListenArgs {
            take_over: call.has_flag("take-over")?,
        };
        let result = typed::<cmd::Listen>(&session, engine, span, &args)?;
        let record = |user: &str| {
            let mut rec = Record::new();
            rec.push("armed", Value::bool(true, span));
            rec.push("user", Value::string(user, span));
            Value::record(rec, span)
        };
        if result.armed {
            let status = typed::<cmd::Status>(&session, engine, span, &Default::default())?;
            return Ok(record(&status.system.user));
        }
        let signals = engine.signals().clone();
        let deadline = Instant::now() + ARM_WAIT;
        loop {
            match sub.recv_until(Some(deadline), &|| signals.interrupted()) {
                Ok(Some(Incoming::Event(ev))) => {
                    let (code, message, hint) = match ev.kind() {
                        Ok(EventKind::ListenerArmed(armed)) => return Ok(record(&armed.user)),
                        Ok(EventKind::ListenerConflict(c)) => {
                            ("conflict.listener", c.message, c.hint)
                        }
                        Ok(EventKind::ListenerFailed(f)) => ("listener.failed", f.message, None),
                        _ => continue,
                    };
                    let mut err = LabeledError::new(format!("{code}: {message}"))
                        .with_code(format!("abap::{}", ev.event))
                        .with_label(message, span);
                    if let Some(hint) = hint.and_then(|h| crate::errors::nu_hint(code, &h)) {
                        err = err.with_help(hint);
                    }
                    return Err(err);
                }
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

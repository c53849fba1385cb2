//! `abap shutdown`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};

use crate::AbapPlugin;

pub(crate) struct Shutdown;

impl SimplePluginCommand for Shutdown {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap shutdown"
    }

    fn description(&self) -> &str {
        "End the session: release every program, delete the listener and our breakpoints; returns the receipt."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap shutdown).listener_stopped",
            description: "Release everything and end the session",
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
        let target = crate::connection::target(engine)?;
        let session = match plugin.session_for(&target, false) {
            Ok(s) => s,
            // Nothing runs, so nothing is held: do not start a session just to end it.
            Err(client::ClientError::NoSession { .. }) => {
                let nothing = jsonl::results::Receipt::default();
                return Ok(crate::stop::word(&nothing, call.head));
            }
            Err(e) => return Err(crate::errors::to_labeled(&e, call.head)),
        };
        let result = crate::connection::typed::<jsonl::cmd::Shutdown>(
            &session,
            engine,
            call.head,
            &Default::default(),
        )?;
        plugin.forget(&session);
        Ok(crate::stop::word(&result.receipt, call.head))
    }
}

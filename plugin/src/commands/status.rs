//! `abap status`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};

use crate::AbapPlugin;

pub(crate) struct Status;

impl SimplePluginCommand for Status {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap status"
    }

    fn description(&self) -> &str {
        "The session: state, listener, threads, breakpoints, system."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap status).state",
            description: "Where the session stands",
            result: Some(Value::test_string("idle")),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let result = plugin.call::<jsonl::cmd::Status>(engine, call.head, &Default::default())?;
        Ok(crate::stop::word(&result, call.head))
    }
}

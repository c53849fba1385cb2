//! `abap terminate`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};

use crate::AbapPlugin;

pub(crate) struct Terminate;

impl SimplePluginCommand for Terminate {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap terminate"
    }

    fn description(&self) -> &str {
        "Abort the stopped program; returns the end record {event, reason, output}."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap terminate).reason",
            description: "Abort the program",
            result: Some(Value::test_string("terminated")),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let session = plugin.session(engine, call.head)?;
        let result = crate::connection::typed::<jsonl::cmd::Terminate>(
            &session,
            engine,
            call.head,
            &Default::default(),
        )?;
        Ok(crate::stop::ended_record(&result.ended, call.head))
    }
}

//! `abap unlisten`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};

use crate::AbapPlugin;

pub(crate) struct Unlisten;

impl SimplePluginCommand for Unlisten {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap unlisten"
    }

    fn description(&self) -> &str {
        "Stop catching programs: delete the listener on the system."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap unlisten).stopped",
            description: "Stop the listener",
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
        let result = plugin.call::<jsonl::cmd::Unlisten>(engine, call.head, &Default::default())?;
        Ok(crate::stop::word(&result, call.head))
    }
}

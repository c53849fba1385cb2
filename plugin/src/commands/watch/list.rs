//! `abap watch list`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};

use crate::AbapPlugin;

pub(crate) struct WatchList;

impl SimplePluginCommand for WatchList {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap watch list"
    }

    fn description(&self) -> &str {
        "The watchpoints of the stopped program: id, variable, condition, active, expired, procedure, old_value, value."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::table())
            .category(crate::commands::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap watch list).variable",
            description: "What is watched",
            result: Some(Value::test_list(vec![Value::test_string("RV_TOTAL")])),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let result =
            plugin.call::<jsonl::cmd::WatchList>(engine, call.head, &Default::default())?;
        Ok(super::table(&result.watchpoints, call.head))
    }
}

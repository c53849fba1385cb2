//! `abap unlisten`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};
#[allow(unused_imports)]
use serde_json::json;

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
        let result = plugin.request(engine, call.head, "unlisten", json!({}))?;
        Ok(crate::values::from_json(&result, call.head))
    }
}

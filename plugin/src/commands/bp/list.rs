//! `abap bp list`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};

use crate::AbapPlugin;

pub(crate) struct BpList;

impl SimplePluginCommand for BpList {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap bp list"
    }

    fn description(&self) -> &str {
        "The session's breakpoints: id, kind, location, object, line, status, reason, enabled, condition, user (another user whose runs it stops)."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::table())
            .category(crate::commands::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap bp list).status",
            description: "The status of every breakpoint",
            result: Some(Value::test_list(vec![
                Value::test_string("verified"),
                Value::test_string("rejected"),
                Value::test_string("verified"),
            ])),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let result = plugin.call::<jsonl::cmd::BpList>(engine, call.head, &Default::default())?;
        Ok(super::table(&result.breakpoints, call.head))
    }
}

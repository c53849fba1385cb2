//! `abap detach`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};

use crate::AbapPlugin;

pub(crate) struct Detach;

impl SimplePluginCommand for Detach {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap detach"
    }

    fn description(&self) -> &str {
        "Take our breakpoints off the system (they stay listed, disabled) and let the program run on."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap detach).reason",
            description: "Let the program go",
            result: Some(Value::test_string("detached")),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let result = plugin.call::<jsonl::cmd::Detach>(engine, call.head, &Default::default())?;
        let mut rec = crate::stop::ended_record(&result.detached.ended, call.head);
        if let Value::Record { val, .. } = &mut rec {
            val.to_mut().push(
                "breakpoints_disabled",
                crate::stop::word(&result.breakpoints_disabled, call.head),
            );
        }
        Ok(rec)
    }
}

//! `abap jump-to <line|location>`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, SyntaxShape, Type, Value};

use crate::AbapPlugin;
use crate::stop::{Answer, until_stop_or_end};

pub(crate) struct JumpTo;

impl SimplePluginCommand for JumpTo {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap jump-to"
    }

    fn description(&self) -> &str {
        "Move the execution point to a line without running what lies between (a write action: the session must allow writes)."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .required(
                "target",
                SyntaxShape::Any,
                "A line number of the current source, or a location such as ZCL_X:40.",
            )
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap jump-to 43).line",
            description: "Skip the IF: go on at line 43 without running what lies between",
            result: Some(Value::test_int(43)),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let (args, span) = super::line_target(call)?;
        let session = plugin.session(engine, span)?;
        until_stop_or_end::<jsonl::cmd::JumpToLine>(&session, engine, span, &args, Answer::Movement)
    }
}

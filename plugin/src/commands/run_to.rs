//! `abap run-to <line|location>`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, SyntaxShape, Type, Value};

use crate::AbapPlugin;
use crate::stop::{Answer, until_stop_or_end};

pub(crate) struct RunTo;

impl SimplePluginCommand for RunTo {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap run-to"
    }

    fn description(&self) -> &str {
        "Run the stopped program to a line of the current source (or a location ZCL_X:40); returns the stop or the end."
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
            example: "(abap run-to 38).line",
            description: "Run to line 38",
            result: Some(Value::test_int(38)),
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
        until_stop_or_end::<jsonl::cmd::RunToLine>(&session, engine, span, &args, Answer::Movement)
    }
}

//! `abap continue`.

use jsonl::args::{StepArgs, StepType};
use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};

use crate::AbapPlugin;
use crate::stop::{Answer, until_stop_or_end};

pub(crate) struct Continue;

impl SimplePluginCommand for Continue {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap continue"
    }

    fn description(&self) -> &str {
        "Let the stopped program run to its next stop or its end; returns that stop or {event: ended, reason, output}."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap continue).event",
            description: "Run on to the next stop (here: the same breakpoint in the next loop pass)",
            result: Some(Value::test_string("stopped")),
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
        until_stop_or_end::<jsonl::cmd::Step>(
            &session,
            engine,
            call.head,
            &StepArgs {
                step_type: StepType::Continue,
                timeout_ms: None,
                thread: None,
                frame: None,
            },
            Answer::Movement,
        )
    }
}

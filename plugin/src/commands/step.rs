//! `abap step [into|over|out]`.

use jsonl::args::{StepArgs, StepType};
use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{
    Completion, Example, LabeledError, PositionalArg, Signature, Spanned, SyntaxShape, Type, Value,
};

use crate::AbapPlugin;
use crate::errors::invalid_arg;
use crate::stop::{Answer, until_stop_or_end};

pub(crate) struct Step;

impl SimplePluginCommand for Step {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap step"
    }

    fn description(&self) -> &str {
        "Step the stopped program: into, over (default) or out; returns the new stop or the end."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .param(
                PositionalArg::new("kind", SyntaxShape::String)
                    .desc("into, over or out (default over)")
                    .completion(Completion::new_list(&["into", "over", "out"]))
                    .optional(),
            )
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![
            Example {
                example: "(abap step).line",
                description: "Step over one statement",
                result: Some(Value::test_int(49)),
            },
            Example {
                example: "(abap step out).method",
                description: "Return to the caller",
                result: Some(Value::test_string("IF_OO_ADT_CLASSRUN~MAIN")),
            },
        ]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let kind: Option<Spanned<String>> = call.opt(0)?;
        let step_type = match kind
            .as_ref()
            .map(|k| k.item.to_ascii_lowercase())
            .as_deref()
        {
            None | Some("over") => StepType::Over,
            Some("into") => StepType::Into,
            Some("out") | Some("return") => StepType::Out,
            Some(_) => {
                let span = kind.as_ref().map(|k| k.span).unwrap_or(call.head);
                return Err(invalid_arg("unknown step", "into, over or out", span));
            }
        };
        let session = plugin.session(engine, call.head)?;
        until_stop_or_end::<jsonl::cmd::Step>(
            &session,
            engine,
            call.head,
            &StepArgs {
                step_type,
                timeout_ms: None,
                thread: None,
                frame: None,
            },
            Answer::Movement,
        )
    }
}

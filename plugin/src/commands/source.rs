//! `abap source [--context n]`: the source around the selected frame's line.

use jsonl::args::SourceArgs;
use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, SyntaxShape, Type, Value};

use crate::AbapPlugin;
use crate::stop::source_table;

pub(crate) struct Source;

impl SimplePluginCommand for Source {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap source"
    }

    fn description(&self) -> &str {
        "The source lines around the current line of the selected frame: line, text, current."
    }

    fn signature(&self) -> Signature {
        super::at_flags(Signature::build(PluginCommand::name(self)))
            .named(
                "context",
                SyntaxShape::Int,
                "Lines before and after the current one (default 5).",
                Some('c'),
            )
            .input_output_type(Type::Nothing, Type::table())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap source --context 0).text",
            description: "The current line",
            result: Some(Value::test_list(vec![Value::test_string(
                "    rv_total = iv_quantity * iv_price.",
            )])),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let context = call
            .get_flag::<i64>("context")?
            .unwrap_or(5)
            .clamp(0, 10_000);
        let context = u32::try_from(context).unwrap_or(0);
        let at = super::at(call)?;
        let args = SourceArgs {
            before: context,
            after: context,
            thread: at.thread,
            frame: at.frame,
            ..Default::default()
        };
        let result = plugin.call::<jsonl::cmd::Source>(engine, call.head, &args)?;
        Ok(source_table(&result.lines, call.head))
    }
}

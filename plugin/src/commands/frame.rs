//! `abap frame <index>`: select a stack frame for `vars`, `get` and `source`.

use nu_plugin::{
    DynamicCompletionCall, EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand,
};
use nu_protocol::DynamicSuggestion;
use nu_protocol::engine::ArgType;
use nu_protocol::{Example, LabeledError, Record, Signature, Spanned, SyntaxShape, Type, Value};

use crate::AbapPlugin;
use crate::stop::source_table;
use jsonl::args::FrameArgs;

pub(crate) struct Frame;

impl SimplePluginCommand for Frame {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap frame"
    }

    fn description(&self) -> &str {
        "Select a stack frame (0 = innermost) for vars, get and source; returns it with its source lines."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .required(
                "index",
                SyntaxShape::Int,
                "Frame index, as 'abap stack' shows it.",
            )
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap frame 1).method",
            description: "Look at the caller's frame",
            result: Some(Value::test_string("IF_OO_ADT_CLASSRUN~MAIN")),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let index: Spanned<i64> = call.req(0)?;
        let at = usize::try_from(index.item).map_err(|_| {
            crate::errors::invalid_arg("no such frame", "0 is the innermost frame", index.span)
        })?;
        let args = FrameArgs {
            index: at,
            epoch: None,
        };
        let f = plugin
            .call::<jsonl::cmd::Frame>(engine, index.span, &args)?
            .frame;
        let span = call.head;
        let mut rec = Record::new();
        rec.push("index", Value::int(index.item, span));
        rec.push("object", Value::string(&f.object, span));
        rec.push("method", Value::string(&f.method, span));
        rec.push("include", Value::string(&f.include, span));
        rec.push("line", Value::int(i64::from(f.line), span));
        rec.push(
            "source",
            source_table(f.source.as_deref().unwrap_or_default(), span),
        );
        Ok(Value::record(rec, span))
    }

    #[expect(
        deprecated,
        reason = "plugin completion API is experimental in nu 0.115"
    )]
    fn get_dynamic_completion(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        _call: DynamicCompletionCall,
        arg_type: ArgType,
        _experimental: nu_protocol::engine::ExperimentalMarker,
    ) -> Option<Vec<DynamicSuggestion>> {
        match arg_type {
            ArgType::Positional(0) => {
                crate::completion::suggest(plugin, engine, client::candidates::frames)
            }
            _ => None,
        }
    }
}

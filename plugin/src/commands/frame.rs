//! `abap frame <index>`: select a stack frame for `vars`, `get` and `source`.

use nu_plugin::{
    DynamicCompletionCall, EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand,
};
use nu_protocol::DynamicSuggestion;
use nu_protocol::engine::ArgType;
use nu_protocol::{Example, LabeledError, Record, Signature, Spanned, SyntaxShape, Type, Value};
use serde_json::json;

use crate::AbapPlugin;
use crate::stop::source_table;
use crate::values::from_json;

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
        let result = plugin.request(engine, index.span, "frame", json!({"index": index.item}))?;
        let f = &result["frame"];
        let span = call.head;
        let mut rec = Record::new();
        for k in ["index", "object", "method", "include", "line"] {
            rec.push(k, from_json(&f[k], span));
        }
        rec.push("source", source_table(&f["source"], span));
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

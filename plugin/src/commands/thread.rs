//! `abap thread <n>`: make another caught program the current one.

use nu_plugin::{
    DynamicCompletionCall, EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand,
};
use nu_protocol::engine::ArgType;
use nu_protocol::{
    DynamicSuggestion, Example, LabeledError, Record, Signature, Span, Spanned, SyntaxShape, Type,
    Value,
};
use serde_json::{Value as Json, json};

use crate::AbapPlugin;
use crate::values::from_json;

pub(crate) struct Thread;

/// `{thread, current, program, user, running, object, method, line}`.
pub(crate) fn thread_record(t: &Json, span: Span) -> Value {
    let mut rec = Record::new();
    for f in ["thread", "current", "program", "user", "running"] {
        rec.push(f, from_json(&t[f], span));
    }
    for f in ["object", "method", "line"] {
        rec.push(f, from_json(&t["frame"][f], span));
    }
    Value::record(rec, span)
}

impl SimplePluginCommand for Thread {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap thread"
    }

    fn description(&self) -> &str {
        "Make a caught program (thread) the one the other commands act on."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .required(
                "thread",
                SyntaxShape::Int,
                "Thread number, as 'abap threads' shows it.",
            )
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap thread 1).current",
            description: "Switch to thread 1",
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
        let n: Spanned<i64> = call.req(0)?;
        let result = plugin.request(engine, n.span, "thread", json!({"id": n.item}))?;
        Ok(thread_record(&result["thread"], call.head))
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
        let ArgType::Positional(0) = arg_type else {
            return None;
        };
        crate::completion::suggest(plugin, engine, client::candidates::threads)
    }
}

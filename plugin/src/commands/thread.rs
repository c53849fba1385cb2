//! `abap thread <n>`: make another caught program the current one.

use jsonl::args::ThreadArgs;
use jsonl::results::ThreadInfo;
use nu_plugin::{
    DynamicCompletionCall, EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand,
};
use nu_protocol::engine::ArgType;
use nu_protocol::{
    DynamicSuggestion, Example, LabeledError, Record, Signature, Span, Spanned, SyntaxShape, Type,
    Value,
};

use crate::AbapPlugin;

pub(crate) struct Thread;

/// `{thread, current, program, user, running, object, method, line}`.
pub(crate) fn thread_record(t: &ThreadInfo, span: Span) -> Value {
    let mut rec = Record::new();
    rec.push("thread", Value::int(i64::from(t.thread), span));
    rec.push("current", Value::bool(t.current, span));
    rec.push("program", Value::string(&t.program, span));
    rec.push("user", Value::string(&t.user, span));
    rec.push("running", Value::bool(t.running, span));
    let frame = t.frame.as_ref();
    let text = |s: Option<&String>| s.map_or(Value::nothing(span), |s| Value::string(s, span));
    rec.push("object", text(frame.map(|f| &f.object)));
    rec.push("method", text(frame.map(|f| &f.method)));
    rec.push(
        "line",
        frame.map_or(Value::nothing(span), |f| {
            Value::int(i64::from(f.line), span)
        }),
    );
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
        let id = u32::try_from(n.item)
            .map_err(|_| crate::errors::invalid_arg("no such thread", "a thread number", n.span))?;
        let result = plugin.call::<jsonl::cmd::Thread>(engine, n.span, &ThreadArgs { id })?;
        Ok(match &result.thread {
            Some(t) => thread_record(t, call.head),
            None => Value::nothing(call.head),
        })
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

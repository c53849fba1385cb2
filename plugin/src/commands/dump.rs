//! `abap dump <id>` (one short dump as a record) and `abap dump catch <id>` (stop its next
//! occurrence before it dies).

use jsonl::args::{DumpArgs, DumpCatchArgs};
use jsonl::results::DumpResult;
use nu_plugin::{
    DynamicCompletionCall, EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand,
};
use nu_protocol::engine::ArgType;
use nu_protocol::{
    DynamicSuggestion, Example, LabeledError, Record, Signature, Span, SyntaxShape, Type, Value,
};

use crate::AbapPlugin;

pub(crate) struct Dump;
pub(crate) struct DumpCatch;

/// Dump ids as completion candidates, with their runtime errors and short texts.
fn id_candidates(plugin: &AbapPlugin, engine: &EngineInterface) -> Option<Vec<DynamicSuggestion>> {
    crate::completion::suggest(plugin, engine, client::candidates::dumps)
}

impl SimplePluginCommand for Dump {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap dump"
    }

    fn description(&self) -> &str {
        "One short dump: the summary's columns, chapters, stack and variables (tables), and the source around the termination line."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .required(
                "id",
                SyntaxShape::String,
                "The dump's id (see 'abap dumps').",
            )
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "abap dump (abap dumps | first).id | get stack",
            description: "The active calls of the latest dump",
            result: None,
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let id: nu_protocol::Spanned<String> = call.req(0)?;
        let result = plugin.call::<jsonl::cmd::Dump>(engine, id.span, &DumpArgs { id: id.item })?;
        Ok(record(&result, call.head))
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
            ArgType::Positional(_) => id_candidates(plugin, engine),
            ArgType::Flag(_) => None,
        }
    }
}

/// The dump as one record: the summary's columns, `chapters` `[{title, text}]`, `stack`
/// `[{index, object, method, include, line, file}]`, `variables` `[{frame, name, type,
/// value}]` and `source` `[{line, text, current}]`.
fn record(d: &DumpResult, span: Span) -> Value {
    let mut rec = super::dumps::summary(&d.summary, span);
    let chapters = d
        .chapters
        .iter()
        .map(|c| {
            let mut r = Record::new();
            r.push("title", Value::string(&c.title, span));
            r.push("text", Value::string(&c.text, span));
            Value::record(r, span)
        })
        .collect();
    rec.push("chapters", Value::list(chapters, span));
    let stack = d
        .stack
        .iter()
        .map(|f| {
            let mut r = Record::new();
            r.push("index", Value::int(f.index as i64, span));
            r.push("object", Value::string(&f.object, span));
            r.push("method", Value::string(&f.method, span));
            r.push("include", Value::string(&f.include, span));
            r.push("line", Value::int(i64::from(f.line), span));
            r.push(
                "file",
                f.file
                    .as_ref()
                    .map_or(Value::nothing(span), |t| Value::string(t, span)),
            );
            Value::record(r, span)
        })
        .collect();
    rec.push("stack", Value::list(stack, span));
    let variables = d
        .variables
        .iter()
        .map(|v| {
            let mut r = Record::new();
            r.push("frame", Value::string(&v.frame, span));
            r.push("name", Value::string(&v.name, span));
            r.push("type", Value::string(&v.ty, span));
            r.push("value", Value::string(&v.value, span));
            Value::record(r, span)
        })
        .collect();
    rec.push("variables", Value::list(variables, span));
    rec.push("source", crate::stop::source_table(&d.source, span));
    Value::record(rec, span)
}

impl SimplePluginCommand for DumpCatch {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap dump catch"
    }

    fn description(&self) -> &str {
        "Stop the next occurrence of a dump before it dies: sets breakpoints for the dump's user and arms the listener; returns {id, user, armed, warning, breakpoints}."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .required(
                "id",
                SyntaxShape::String,
                "The dump's id (see 'abap dumps').",
            )
            .named(
                "user",
                SyntaxShape::String,
                "Catch this user's runs (default: the dump's user).",
                None,
            )
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "abap dump catch (abap dumps | first).id",
            description: "Stop before the latest dump happens again",
            result: None,
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let id: nu_protocol::Spanned<String> = call.req(0)?;
        let args = DumpCatchArgs {
            id: id.item,
            user: call.get_flag("user")?,
        };
        let result = plugin.call::<jsonl::cmd::DumpCatch>(engine, id.span, &args)?;
        let span = call.head;
        let mut rec = Record::new();
        rec.push("id", Value::string(&result.id, span));
        rec.push("user", Value::string(&result.user, span));
        rec.push("armed", Value::bool(result.armed, span));
        rec.push(
            "warning",
            result
                .warning
                .as_ref()
                .map_or(Value::nothing(span), |w| Value::string(w, span)),
        );
        rec.push("breakpoints", crate::stop::word(&result.breakpoints, span));
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
            ArgType::Positional(_) => id_candidates(plugin, engine),
            ArgType::Flag(_) => None,
        }
    }
}

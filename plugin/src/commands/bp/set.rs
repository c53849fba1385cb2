//! `abap bp set <location> [--condition] [--kind]`.

use jsonl::args::{BpSetArgs, MessageArgs};
use nu_plugin::{
    DynamicCompletionCall, EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand,
};
use nu_protocol::engine::ArgType;
use nu_protocol::{
    Completion, DynamicSuggestion, Example, Flag, LabeledError, Signature, Spanned, SyntaxShape,
    Type, Value,
};

use super::{SET_FIELDS, record};
use crate::AbapPlugin;
use crate::completion::{suggest, typed_prefix};
use crate::errors::invalid_arg;

pub(crate) struct BpSet;

impl SimplePluginCommand for BpSet {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap bp set"
    }

    fn description(&self) -> &str {
        "Set a breakpoint: a source line, or a statement, exception class or message."
    }

    fn extra_description(&self) -> &str {
        "Line locations: ZCL_X:42 (the class's main source), ZCL_X/testclasses:12, \
        PROG:ZREP:9, or an abapGit file path such as src/zcl_x.clas.abap:42. With --kind \
        statement the location is an ABAP keyword (CATCH), with exception an exception class \
        (CX_SY_ZERODIVIDE), with message ID:NUMBER:TYPE (00:001:E). \
        Returns {id, location, object, line, status, reason}: status is verified, rejected \
        (reason: the system's words) or pending (the system could not be reached; set as soon \
        as it answers)."
    }

    fn search_terms(&self) -> Vec<&str> {
        vec!["breakpoint", "break", "stop"]
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .required(
                "location",
                SyntaxShape::String,
                "Where to stop, e.g. ZCL_ORDER:42.",
            )
            .named(
                "condition",
                SyntaxShape::String,
                "Stop only when this ABAP condition holds, e.g. 'LV_COUNT > 2'.",
                Some('c'),
            )
            .param(
                Flag::new("kind")
                    .short('k')
                    .arg(SyntaxShape::String)
                    .desc("line (default), statement, exception or message")
                    .completion(Completion::new_list(&[
                        "line",
                        "statement",
                        "exception",
                        "message",
                    ])),
            )
            .input_output_type(Type::Nothing, Type::record())
            .category(crate::commands::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![
            Example {
                example: "abap bp set ZCL_ABAPDBG_DEMO:48",
                description: "Stop at line 48 of a class",
                result: Some(Value::test_record(nu_protocol::record! {
                    "id" => Value::test_int(1),
                    "location" => Value::test_string("ZCL_ABAPDBG_DEMO:48"),
                    "object" => Value::test_string("ZCL_ABAPDBG_DEMO"),
                    "line" => Value::test_int(48),
                    "status" => Value::test_string("verified"),
                    "reason" => Value::test_nothing(),
                })),
            },
            Example {
                example: "(abap bp set ZCL_ABAPDBG_DEMO:30).reason",
                description: "A comment line is refused, with the system's reason",
                result: Some(Value::test_string(
                    "Cannot create a breakpoint at this position",
                )),
            },
            Example {
                example: "(abap bp set --kind exception CX_SY_ZERODIVIDE).status",
                description: "Stop where an exception class is raised",
                result: Some(Value::test_string("verified")),
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
        let location: Spanned<String> = call.req(0)?;
        let kind: Option<Spanned<String>> = call.get_flag("kind")?;
        let condition: Option<String> = call.get_flag("condition")?;
        let mut args = BpSetArgs {
            enabled: true,
            condition,
            ..BpSetArgs::default()
        };
        match kind
            .as_ref()
            .map(|k| k.item.to_ascii_lowercase())
            .as_deref()
        {
            None | Some("line") => args.location = Some(location.item.clone()),
            Some("statement") => args.statement = Some(location.item.to_uppercase()),
            Some("exception") => args.exception = Some(location.item.to_uppercase()),
            Some("message") => args.message = Some(message(&location)?),
            Some(_) => {
                let span = kind.as_ref().map(|k| k.span).unwrap_or(call.head);
                return Err(invalid_arg(
                    "unknown breakpoint kind",
                    "line, statement, exception or message",
                    span,
                ));
            }
        };
        let result = plugin.call::<jsonl::cmd::BpSet>(engine, location.span, &args)?;
        match result.breakpoints.first() {
            Some(bp) => Ok(record(bp, SET_FIELDS, call.head)),
            None => Err(invalid_arg(
                "the session set no breakpoint",
                "nothing came back for this location",
                location.span,
            )),
        }
    }

    #[expect(
        deprecated,
        reason = "plugin completion API is experimental in nu 0.115"
    )]
    fn get_dynamic_completion(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: DynamicCompletionCall,
        arg_type: ArgType,
        _experimental: nu_protocol::engine::ExperimentalMarker,
    ) -> Option<Vec<DynamicSuggestion>> {
        match arg_type {
            // The location: object names from the system's quick search (ZCL_<Tab>).
            ArgType::Positional(0) => {
                let typed = typed_prefix(&call, engine);
                suggest(plugin, engine, |s| client::candidates::objects(s, &typed))
            }
            _ => None,
        }
    }
}

/// `ID:NUMBER:TYPE` → the protocol's message (the system needs all three parts).
fn message(text: &Spanned<String>) -> Result<MessageArgs, LabeledError> {
    let parts: Vec<&str> = text.item.split([':', '/']).map(str::trim).collect();
    match parts.as_slice() {
        [id, number, ty] if !id.is_empty() && !number.is_empty() && !ty.is_empty() => {
            Ok(MessageArgs {
                id: id.to_uppercase(),
                number: (*number).to_string(),
                ty: ty.to_uppercase(),
            })
        }
        _ => Err(invalid_arg(
            "a message breakpoint needs ID:NUMBER:TYPE",
            "e.g. 00:001:E",
            text.span,
        )),
    }
}

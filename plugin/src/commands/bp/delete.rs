//! `abap bp delete <id>… [--all]`.

use nu_plugin::{
    DynamicCompletionCall, EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand,
};
use nu_protocol::engine::ArgType;
use nu_protocol::{
    DynamicSuggestion, Example, LabeledError, Signature, Spanned, SyntaxShape, Type, Value,
};
use serde_json::json;

use crate::AbapPlugin;
use crate::errors::invalid_arg;

pub(crate) struct BpDelete;

impl SimplePluginCommand for BpDelete {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap bp delete"
    }

    fn description(&self) -> &str {
        "Delete breakpoints by id, or all of them; returns the deleted ids."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .rest(
                "ids",
                SyntaxShape::Int,
                "Breakpoint ids (see 'abap bp list').",
            )
            .switch("all", "Delete every breakpoint of the session.", Some('a'))
            .input_output_type(Type::Nothing, Type::List(Box::new(Type::Int)))
            .category(crate::commands::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "abap bp delete 2",
            description: "Delete breakpoint 2",
            result: Some(Value::test_list(vec![Value::test_int(2)])),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let ids: Vec<Spanned<i64>> = call.rest(0)?;
        let all = call.has_flag("all")?;
        let (args, span) = match (all, ids.as_slice()) {
            (true, []) => (json!({"all": true}), call.head),
            (false, []) => {
                return Err(invalid_arg(
                    "no breakpoint named",
                    "give ids or --all",
                    call.head,
                ));
            }
            (true, _) => {
                return Err(invalid_arg(
                    "ids and --all together",
                    "choose one",
                    call.head,
                ));
            }
            (false, [one]) => (json!({"id": one.item}), one.span),
            (false, many) => (
                json!({"ids": many.iter().map(|i| i.item).collect::<Vec<_>>()}),
                call.head,
            ),
        };
        let result = plugin.request(engine, span, "bp.delete", args)?;
        Ok(crate::values::from_json(&result["deleted"], call.head))
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
            ArgType::Positional(_) => super::id_candidates(plugin, engine),
            ArgType::Flag(_) => None,
        }
    }
}

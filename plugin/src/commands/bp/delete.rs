//! `abap bp delete <id>… [--all]`.

use jsonl::args::BpIdsArgs;
use nu_plugin::{
    DynamicCompletionCall, EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand,
};
use nu_protocol::engine::ArgType;
use nu_protocol::{
    DynamicSuggestion, Example, LabeledError, Signature, Spanned, SyntaxShape, Type, Value,
};

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
            (true, []) => (
                BpIdsArgs {
                    all: true,
                    ..BpIdsArgs::default()
                },
                call.head,
            ),
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
            (false, [one]) => (
                BpIdsArgs {
                    id: Some(super::id(one)?),
                    ..BpIdsArgs::default()
                },
                one.span,
            ),
            (false, many) => (
                BpIdsArgs {
                    ids: many.iter().map(super::id).collect::<Result<_, _>>()?,
                    ..BpIdsArgs::default()
                },
                call.head,
            ),
        };
        let result = match plugin.call::<jsonl::cmd::BpDelete>(engine, span, &args) {
            Ok(result) => result,
            // The session names no id when one of several is unknown: point at that one.
            Err(e) if ids.len() > 1 && e.code.as_deref() == Some("abap::breakpoint.not_found") => {
                return Err(unknown_among(plugin, engine, &ids).unwrap_or(e));
            }
            Err(e) => return Err(e),
        };
        Ok(crate::stop::word(&result.deleted, call.head))
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

/// The error for the first of `ids` that is not a breakpoint of the session, labelled at it.
fn unknown_among(
    plugin: &AbapPlugin,
    engine: &EngineInterface,
    ids: &[Spanned<i64>],
) -> Option<LabeledError> {
    let list = plugin
        .call::<jsonl::cmd::BpList>(engine, ids[0].span, &Default::default())
        .ok()?;
    let known: Vec<i64> = list.breakpoints.iter().map(|b| i64::from(b.id)).collect();
    let unknown = ids.iter().find(|i| !known.contains(&i.item))?;
    Some(
        LabeledError::new(format!(
            "breakpoint.not_found: no breakpoint with id {}",
            unknown.item
        ))
        .with_code("abap::breakpoint.not_found")
        .with_label(
            "no breakpoint with this id; nothing was deleted",
            unknown.span,
        )
        .with_help("see 'abap bp list'"),
    )
}

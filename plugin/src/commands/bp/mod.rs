//! `abap bp …`: breakpoints. The group command and the record every subcommand returns.

mod delete;
mod disable;
mod enable;
mod list;
mod set;

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Record, Signature, Span, Type, Value};
use serde_json::Value as Json;

use jsonl::args::BpIdsArgs;
use jsonl::results::{Breakpoint, BreakpointsResult};

use crate::AbapPlugin;
use crate::values::from_json;

pub(crate) fn commands() -> Vec<Box<dyn PluginCommand<Plugin = AbapPlugin>>> {
    vec![
        Box::new(Bp),
        Box::new(set::BpSet),
        Box::new(list::BpList),
        Box::new(delete::BpDelete),
        Box::new(enable::BpEnable),
        Box::new(disable::BpDisable),
    ]
}

/// Columns of `abap bp set`: `{id, location, object, line, status, reason}`.
const SET_FIELDS: &[&str] = &["id", "location", "object", "line", "status", "reason"];
/// Columns of `abap bp list`, `enable`, `disable`: those of `set` and the rest of the record.
const LIST_FIELDS: &[&str] = &[
    "id",
    "kind",
    "location",
    "object",
    "line",
    "status",
    "reason",
    "enabled",
    "condition",
    // Another user whose runs it stops (`abap dump catch` of that user's dump); nothing: ours.
    "user",
];

/// A breakpoint record with these columns (nothing where the record has no such member).
fn record(bp: &Breakpoint, fields: &[&str], span: Span) -> Value {
    // The record as the protocol writes it: members it leaves out become nothing.
    let written = serde_json::to_value(bp).unwrap_or(Json::Null);
    let mut rec = Record::new();
    for f in fields {
        rec.push(*f, from_json(&written[*f], span));
    }
    Value::record(rec, span)
}

/// Breakpoint records as a table.
fn table(breakpoints: &[Breakpoint], span: Span) -> Value {
    Value::list(
        breakpoints
            .iter()
            .map(|bp| record(bp, LIST_FIELDS, span))
            .collect(),
        span,
    )
}

/// A breakpoint id as the protocol has them (positive).
fn id(n: &nu_protocol::Spanned<i64>) -> Result<u32, LabeledError> {
    u32::try_from(n.item)
        .map_err(|_| crate::errors::invalid_arg("not a breakpoint id", "a breakpoint id", n.span))
}

/// Breakpoint ids as completion candidates, with their locations as descriptions.
fn id_candidates(
    plugin: &AbapPlugin,
    engine: &EngineInterface,
) -> Option<Vec<nu_protocol::DynamicSuggestion>> {
    crate::completion::suggest(plugin, engine, client::candidates::breakpoints)
}

pub(crate) struct Bp;

impl SimplePluginCommand for Bp {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap bp"
    }

    fn description(&self) -> &str {
        "Breakpoints: set, list, delete, enable and disable."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::String)
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "abap bp",
            description: "List the breakpoint commands",
            result: None,
        }]
    }

    fn run(
        &self,
        _plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        Ok(Value::string(engine.get_help()?, call.head))
    }
}

/// `bp.enable` / `bp.disable` (command `C`) of the ids given: the changed records.
fn switch<C: jsonl::CommandSpec<Args = BpIdsArgs, Result = BreakpointsResult>>(
    plugin: &AbapPlugin,
    engine: &EngineInterface,
    call: &EvaluatedCall,
) -> Result<Value, LabeledError> {
    let first: nu_protocol::Spanned<i64> = call.req(0)?;
    let more: Vec<nu_protocol::Spanned<i64>> = call.rest(1)?;
    let (args, span) = if more.is_empty() {
        (
            BpIdsArgs {
                id: Some(id(&first)?),
                ..BpIdsArgs::default()
            },
            first.span,
        )
    } else {
        let ids = std::iter::once(&first)
            .chain(&more)
            .map(id)
            .collect::<Result<Vec<u32>, _>>()?;
        (
            BpIdsArgs {
                ids,
                ..BpIdsArgs::default()
            },
            call.head,
        )
    };
    let result = plugin.call::<C>(engine, span, &args)?;
    Ok(table(&result.breakpoints, call.head))
}

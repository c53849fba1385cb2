//! `abap bp …`: breakpoints. The group command and the record every subcommand returns.

mod delete;
mod disable;
mod enable;
mod list;
mod set;

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Record, Signature, Span, Type, Value};
use serde_json::Value as Json;

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
];

fn record(bp: &Json, fields: &[&str], span: Span) -> Value {
    let mut rec = Record::new();
    for f in fields {
        rec.push(*f, from_json(&bp[*f], span));
    }
    Value::record(rec, span)
}

/// The protocol's `breakpoints` array as a table.
fn table(result: &Json, span: Span) -> Value {
    Value::list(
        result["breakpoints"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|bp| record(bp, LIST_FIELDS, span))
            .collect(),
        span,
    )
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

/// `bp.enable` / `bp.disable` of the ids given: the changed records.
fn switch(
    plugin: &AbapPlugin,
    engine: &EngineInterface,
    call: &EvaluatedCall,
    cmd: &str,
) -> Result<Value, LabeledError> {
    let first: nu_protocol::Spanned<i64> = call.req(0)?;
    let more: Vec<i64> = call.rest(1)?;
    let (args, span) = if more.is_empty() {
        (serde_json::json!({"id": first.item}), first.span)
    } else {
        let ids: Vec<i64> = std::iter::once(first.item).chain(more).collect();
        (serde_json::json!({"ids": ids}), call.head)
    };
    let result = plugin.request(engine, span, cmd, args)?;
    Ok(table(&result, call.head))
}

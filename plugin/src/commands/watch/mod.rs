//! `abap watch …`: watchpoints of the stopped program.

mod delete;
mod list;
mod set;

use jsonl::results::Watchpoint;
use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Record, Signature, Span, Type, Value};

use crate::AbapPlugin;

pub(crate) fn commands() -> Vec<Box<dyn PluginCommand<Plugin = AbapPlugin>>> {
    vec![
        Box::new(Watch),
        Box::new(set::WatchSet),
        Box::new(list::WatchList),
        Box::new(delete::WatchDelete),
    ]
}

/// The session's watchpoints as a table: `id, variable, condition, active, expired,
/// procedure, old_value, value`.
fn table(watchpoints: &[Watchpoint], span: Span) -> Value {
    let text = |t: &Option<String>| {
        t.as_ref()
            .map_or(Value::nothing(span), |t| Value::string(t, span))
    };
    Value::list(
        watchpoints
            .iter()
            .map(|w| {
                let mut rec = Record::new();
                rec.push("id", Value::string(&w.id, span));
                rec.push("variable", Value::string(&w.variable, span));
                rec.push("condition", text(&w.condition));
                rec.push("active", Value::bool(w.active, span));
                rec.push("expired", Value::bool(w.expired, span));
                rec.push("procedure", Value::string(&w.procedure, span));
                rec.push("old_value", text(&w.old_value));
                rec.push("value", text(&w.value));
                Value::record(rec, span)
            })
            .collect(),
        span,
    )
}

pub(crate) struct Watch;

impl SimplePluginCommand for Watch {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap watch"
    }

    fn description(&self) -> &str {
        "Watchpoints: stop when a variable changes (set, list, delete)."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::String)
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "abap watch",
            description: "List the watchpoint commands",
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

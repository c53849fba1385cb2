//! `abap watch …`: watchpoints of the stopped program.

mod delete;
mod list;
mod set;

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Span, Type, Value};
use serde_json::Value as Json;

use crate::AbapPlugin;

pub(crate) fn commands() -> Vec<Box<dyn PluginCommand<Plugin = AbapPlugin>>> {
    vec![
        Box::new(Watch),
        Box::new(set::WatchSet),
        Box::new(list::WatchList),
        Box::new(delete::WatchDelete),
    ]
}

/// The session's `watchpoints` as a table.
fn table(result: &Json, span: Span) -> Value {
    let fields = [
        "id",
        "variable",
        "condition",
        "active",
        "expired",
        "procedure",
        "old_value",
        "value",
    ];
    Value::list(
        result["watchpoints"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|w| crate::values::pick(w, &fields, span))
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

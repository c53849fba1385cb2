//! `abap watch set <variable> [--condition]`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Spanned, SyntaxShape, Type, Value};

use crate::AbapPlugin;

pub(crate) struct WatchSet;

impl SimplePluginCommand for WatchSet {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap watch set"
    }

    fn description(&self) -> &str {
        "Stop the program when a variable changes (optionally: and a condition holds); returns the watchpoints."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .required(
                "variable",
                SyntaxShape::String,
                "The variable to watch, e.g. RV_TOTAL.",
            )
            .named(
                "condition",
                SyntaxShape::String,
                "Stop only when this holds, e.g. 'RV_TOTAL > 50'.",
                Some('c'),
            )
            .input_output_type(Type::Nothing, Type::table())
            .category(crate::commands::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap watch set rv_total).variable",
            description: "Watch a variable of the stopped program",
            result: Some(Value::test_list(vec![Value::test_string("RV_TOTAL")])),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let var: Spanned<String> = call.req(0)?;
        let args = jsonl::args::WatchSetArgs {
            variable: var.item.trim().to_uppercase(),
            condition: call.get_flag::<String>("condition")?,
            thread: None,
            frame: None,
        };
        let result = plugin.call::<jsonl::cmd::WatchSet>(engine, var.span, &args)?;
        Ok(super::table(&result.watchpoints, call.head))
    }
}

//! `abap`: the group; prints its help, which lists the subcommands.

use nu_plugin::{EngineInterface, EvaluatedCall, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};

use crate::AbapPlugin;

pub(crate) struct Abap;

impl SimplePluginCommand for Abap {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap"
    }

    fn description(&self) -> &str {
        "Debug ABAP programs: breakpoints, runs, steps, variables and internal tables as Nushell data."
    }

    fn extra_description(&self) -> &str {
        "The commands talk to the abapdbg session of the system named by $env.ABAPDBG_URL, \
        ABAPDBG_USER, ABAPDBG_PASSWORD and ABAPDBG_CLIENT (without ABAPDBG_URL: the embedded \
        simulator). The session runs in the background (abapdbg serve --daemon) and is started \
        by the first command that needs it; separate nu processes share it. 'abap shutdown' \
        releases everything it holds on the system and ends it."
    }

    fn search_terms(&self) -> Vec<&str> {
        vec!["debugger", "sap", "adt", "breakpoint"]
    }

    fn signature(&self) -> Signature {
        Signature::build(nu_plugin::PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::String)
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "abap",
            description: "List the abap commands",
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

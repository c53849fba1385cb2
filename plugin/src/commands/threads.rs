//! `abap threads`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};

use crate::AbapPlugin;

pub(crate) struct Threads;

impl SimplePluginCommand for Threads {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap threads"
    }

    fn description(&self) -> &str {
        "The caught programs (threads): thread, current, program, user, running, object, method, line."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::table())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap threads).thread",
            description: "The thread numbers",
            result: Some(Value::test_list(vec![Value::test_int(1)])),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let result = plugin.call::<jsonl::cmd::Threads>(engine, call.head, &Default::default())?;
        let rows = result
            .threads
            .iter()
            .map(|t| crate::commands::thread::thread_record(t, call.head))
            .collect();
        Ok(Value::list(rows, call.head))
    }
}

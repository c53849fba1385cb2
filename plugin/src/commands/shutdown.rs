//! `abap shutdown`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};
#[allow(unused_imports)]
use serde_json::json;

use crate::AbapPlugin;

pub(crate) struct Shutdown;

impl SimplePluginCommand for Shutdown {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap shutdown"
    }

    fn description(&self) -> &str {
        "End the session: release every program, delete the listener and our breakpoints; returns the receipt."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap shutdown).listener_stopped",
            description: "Release everything and end the session",
            result: Some(Value::test_bool(true)),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let session = plugin.session(engine, call.head)?;
        let result = crate::connection::call(&session, engine, call.head, "shutdown", json!({}))?;
        plugin.forget(&session);
        Ok(crate::values::from_json(&result["receipt"], call.head))
    }
}

//! `abap stack`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Type, Value};
#[allow(unused_imports)]
use serde_json::json;

use crate::AbapPlugin;

pub(crate) struct Stack;

impl SimplePluginCommand for Stack {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap stack"
    }

    fn description(&self) -> &str {
        "The call stack of the stopped program, innermost first: index, object, method, include, line, current."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .input_output_type(Type::Nothing, Type::table())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap stack).method",
            description: "The methods on the stack",
            result: Some(Value::test_list(vec![
                Value::test_string("LINE_TOTAL"),
                Value::test_string("IF_OO_ADT_CLASSRUN~MAIN"),
            ])),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let result = plugin.request(engine, call.head, "stack", json!({}))?;
        let current = result["current"].as_u64();
        let rows = result["frames"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| {
                let mut rec = crate::values::pick(
                    f,
                    &["index", "object", "method", "include", "line"],
                    call.head,
                );
                if let Value::Record { val, .. } = &mut rec {
                    val.to_mut().push(
                        "current",
                        Value::bool(f["index"].as_u64() == current, call.head),
                    );
                }
                rec
            })
            .collect();
        Ok(Value::list(rows, call.head))
    }
}

//! `abap stack`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Record, Signature, Type, Value};

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
        let result = plugin.call::<jsonl::cmd::Stack>(engine, call.head, &Default::default())?;
        let span = call.head;
        let rows = result
            .frames
            .iter()
            .map(|f| {
                let mut rec = Record::new();
                rec.push("index", Value::int(f.index as i64, span));
                rec.push("object", Value::string(&f.object, span));
                rec.push("method", Value::string(&f.method, span));
                rec.push("include", Value::string(&f.include, span));
                rec.push("line", Value::int(i64::from(f.line), span));
                rec.push("current", Value::bool(f.index == result.current, span));
                Value::record(rec, span)
            })
            .collect();
        Ok(Value::list(rows, call.head))
    }
}

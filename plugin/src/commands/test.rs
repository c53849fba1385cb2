//! `abap test <class> [--method]`: run ABAP Unit tests under the debugger.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{
    Example, LabeledError, Record, Signature, Span, Spanned, SyntaxShape, Type, Value,
};
use serde_json::{Value as Json, json};

use crate::AbapPlugin;
use crate::stop::{Answer, until_stop_or_end};
use crate::values::from_json;

pub(crate) struct Test;

impl SimplePluginCommand for Test {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap test"
    }

    fn description(&self) -> &str {
        "Run the ABAP Unit tests of a class under the debugger; returns the stop, or the results."
    }

    fn extra_description(&self) -> &str {
        "Returns the stop record when a breakpoint in the tests or the tested code is reached; \
        otherwise {event: ended, object, passed, failed, ok, methods} where methods is a table \
        of {class, method, passed, line, seconds, alerts}."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .required(
                "class",
                SyntaxShape::String,
                "The class whose tests run (or with --report a program).",
            )
            .named(
                "method",
                SyntaxShape::String,
                "Only this test method (TEST_A or LTCL_X=>TEST_A).",
                Some('m'),
            )
            .switch(
                "report",
                "The tests of a program instead of a class.",
                Some('r'),
            )
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap test ZCL_ABAPDBG_DEMO).ok",
            description: "A class without tests passes",
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
        let name: Spanned<String> = call.req(0)?;
        let mut args = if call.has_flag("report")? {
            json!({"program": name.item})
        } else {
            json!({"class": name.item})
        };
        if let Some(m) = call.get_flag::<String>("method")? {
            args["method"] = Json::String(m);
        }
        let session = plugin.session(engine, name.span)?;
        until_stop_or_end(
            &session,
            engine,
            name.span,
            "test",
            args,
            Answer::Trigger(results),
        )
    }
}

/// The unit result as a record with one table of methods.
fn results(result: &Json, span: Span) -> Value {
    let mut methods = Vec::new();
    for class in result["classes"].as_array().into_iter().flatten() {
        for m in class["methods"].as_array().into_iter().flatten() {
            let mut rec = Record::new();
            rec.push("class", from_json(&class["name"], span));
            rec.push("method", from_json(&m["name"], span));
            for f in ["passed", "line", "seconds", "alerts"] {
                rec.push(f, from_json(&m[f], span));
            }
            methods.push(Value::record(rec, span));
        }
    }
    let mut rec = Record::new();
    rec.push("event", Value::string("ended", span));
    for f in ["object", "passed", "failed", "ok", "alerts"] {
        rec.push(f, from_json(&result[f], span));
    }
    rec.push("methods", Value::list(methods, span));
    Value::record(rec, span)
}

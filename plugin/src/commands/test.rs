//! `abap test <class> [--method]`: run ABAP Unit tests under the debugger.

use jsonl::args::TestArgs;
use jsonl::results::TestResult;
use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{
    Example, LabeledError, Record, Signature, Span, Spanned, SyntaxShape, Type, Value,
};
use serde_json::Value as Json;

use crate::AbapPlugin;
use crate::stop::{Answer, until_stop_or_end, word};

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
        let (class, program) = if call.has_flag("report")? {
            (None, Some(name.item))
        } else {
            (Some(name.item), None)
        };
        let args = TestArgs {
            class,
            program,
            method: call.get_flag::<String>("method")?,
        };
        let session = plugin.session(engine, name.span)?;
        until_stop_or_end::<jsonl::cmd::Test>(
            &session,
            engine,
            name.span,
            &args,
            Answer::Trigger(results),
        )
    }
}

/// The unit result as a record with one table of methods.
fn results(result: Json, span: Span) -> Result<Value, LabeledError> {
    let result: TestResult =
        client::decode("test", result).map_err(|e| crate::errors::to_labeled(&e, span))?;
    let mut methods = Vec::new();
    for class in &result.classes {
        for m in &class.methods {
            let mut rec = Record::new();
            rec.push("class", Value::string(&class.name, span));
            rec.push("method", Value::string(&m.name, span));
            rec.push("passed", Value::bool(m.passed, span));
            rec.push("line", word(&m.line, span));
            rec.push("seconds", word(&m.seconds, span));
            rec.push("alerts", word(&m.alerts, span));
            methods.push(Value::record(rec, span));
        }
    }
    let mut rec = Record::new();
    rec.push("event", Value::string("ended", span));
    rec.push("object", Value::string(&result.object, span));
    rec.push("passed", Value::int(i64::from(result.passed), span));
    rec.push("failed", Value::int(i64::from(result.failed), span));
    rec.push("ok", Value::bool(result.ok, span));
    rec.push("alerts", word(&result.alerts, span));
    rec.push("methods", Value::list(methods, span));
    Ok(Value::record(rec, span))
}

//! `abap run <class> [--report]`: run a class (or report) and return where it stopped or how
//! it ended.

use jsonl::args::RunArgs;
use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Spanned, SyntaxShape, Type, Value};

use crate::AbapPlugin;
use crate::stop::{Answer, run_ended, until_stop_or_end};

pub(crate) struct Run;

impl SimplePluginCommand for Run {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap run"
    }

    fn description(&self) -> &str {
        "Run a class as console application (or a report) under the debugger; returns the stop or the end."
    }

    fn extra_description(&self) -> &str {
        "Arms the listener when needed, starts the program and returns when it stops: \
        {event: stopped, reason, thread, epoch, object, method, include, line, source}, or, \
        when it ends without stopping, {event: ended, reason, output} with what it printed. \
        Ctrl-C stops waiting; the program goes on."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .required(
                "class",
                SyntaxShape::String,
                "The class (IF_OO_ADT_CLASSRUN) to run, or with --report the report.",
            )
            .switch(
                "report",
                "Run a report (executable program) instead of a class.",
                Some('r'),
            )
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap run ZCL_ABAPDBG_DEMO).line",
            description: "Run a class; it stops at the breakpoint on line 48",
            result: Some(Value::test_int(48)),
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
        let args = if call.has_flag("report")? {
            RunArgs {
                class: None,
                program: Some(name.item),
            }
        } else {
            RunArgs {
                class: Some(name.item),
                program: None,
            }
        };
        let session = plugin.session(engine, name.span)?;
        until_stop_or_end::<jsonl::cmd::Run>(
            &session,
            engine,
            name.span,
            &args,
            Answer::Trigger(run_ended),
        )
    }
}

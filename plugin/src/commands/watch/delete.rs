//! `abap watch delete <id>`.

use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Signature, Spanned, SyntaxShape, Type, Value};

use crate::AbapPlugin;

pub(crate) struct WatchDelete;

impl SimplePluginCommand for WatchDelete {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap watch delete"
    }

    fn description(&self) -> &str {
        "Delete a watchpoint; returns the watchpoints left."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .required(
                "id",
                SyntaxShape::Any,
                "Watchpoint id, as 'abap watch list' shows it.",
            )
            .input_output_type(Type::Nothing, Type::table())
            .category(crate::commands::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "abap watch delete 1",
            description: "Delete watchpoint 1",
            result: Some(Value::test_list(vec![])),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let id: Spanned<Value> = call.req(0)?;
        let text = id.item.coerce_string()?;
        let args = jsonl::args::WatchIdArgs {
            id: text,
            thread: None,
            frame: None,
        };
        plugin.call::<jsonl::cmd::WatchDelete>(engine, id.span, &args)?;
        // The answer names the deleted id only: no watchpoints to list (as ever).
        Ok(super::table(&[], call.head))
    }
}

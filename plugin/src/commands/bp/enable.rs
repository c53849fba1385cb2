//! `abap bp enable <id>…`.

use nu_plugin::{
    DynamicCompletionCall, EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand,
};
use nu_protocol::engine::ArgType;
use nu_protocol::{DynamicSuggestion, Example, LabeledError, Signature, SyntaxShape, Type, Value};

use crate::AbapPlugin;

const DESCRIPTION: &str = "Enable breakpoints again: they are set on the system anew.";
const EXAMPLE: &str = "Enable breakpoint 3 again";
const STATUS: &str = "verified";

pub(crate) struct BpEnable;

impl SimplePluginCommand for BpEnable {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap bp enable"
    }

    fn description(&self) -> &str {
        DESCRIPTION
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .required(
                "id",
                SyntaxShape::Int,
                "Breakpoint id (see 'abap bp list').",
            )
            .rest("more", SyntaxShape::Int, "More breakpoint ids.")
            .input_output_type(Type::Nothing, Type::table())
            .category(crate::commands::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap bp enable 3).status",
            description: EXAMPLE,
            result: Some(Value::test_list(vec![Value::test_string(STATUS)])),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        super::switch::<jsonl::cmd::BpEnable>(plugin, engine, call)
    }

    #[expect(
        deprecated,
        reason = "plugin completion API is experimental in nu 0.115"
    )]
    fn get_dynamic_completion(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        _call: DynamicCompletionCall,
        arg_type: ArgType,
        _experimental: nu_protocol::engine::ExperimentalMarker,
    ) -> Option<Vec<DynamicSuggestion>> {
        match arg_type {
            ArgType::Positional(_) => super::id_candidates(plugin, engine),
            ArgType::Flag(_) => None,
        }
    }
}

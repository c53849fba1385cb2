//! `abap set <path> <value>`: change a variable (a write action).

use nu_plugin::{
    DynamicCompletionCall, EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand,
};
use nu_protocol::engine::ArgType;
use nu_protocol::{
    DynamicSuggestion, Example, LabeledError, Signature, Spanned, SyntaxShape, Type, Value,
};

use crate::AbapPlugin;
use crate::completion::{suggest, typed_prefix};
use crate::connection::typed;
use crate::errors::invalid_arg;
use crate::values::to_abap_text;
use crate::variables::Reader;

pub(crate) struct Set;

impl SimplePluginCommand for Set {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap set"
    }

    fn description(&self) -> &str {
        "Assign a value to a variable of the stopped program (with ABAP's conversion); returns the variable."
    }

    fn extra_description(&self) -> &str {
        "A write action: the session must have been started with writes allowed \
        (abapdbg serve --allow-writes); otherwise permission.write_not_allowed. Dates are \
        sent as YYYYMMDD, \"HH:MM:SS\" as HHMMSS, booleans as X or blank."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .required(
                "path",
                SyntaxShape::String,
                "The variable, e.g. LV_COUNT or LS_ORDER-PLACED.",
            )
            .required(
                "value",
                SyntaxShape::Any,
                "The new value (string, number, date, bool, binary).",
            )
            .input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap set iv_price 12).value",
            description: "Change a parameter (in a session that allows writes)",
            result: Some(Value::test_int(12)),
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let path: Spanned<String> = call.req(0)?;
        let value: Value = call.req(1)?;
        let text = to_abap_text(&value).ok_or_else(|| {
            invalid_arg(
                "cannot assign this value",
                "a string, number, date, bool or binary",
                value.span(),
            )
        })?;
        let session = plugin.session(engine, path.span)?;
        let args = jsonl::args::SetArgs {
            path: path.item.trim().to_uppercase(),
            value: text,
            ..Default::default()
        };
        let result = typed::<jsonl::cmd::Set>(&session, engine, path.span, &args)?;
        let reader = Reader {
            session: &session,
            engine,
            span: call.head,
            epoch: None,
            at: Default::default(),
        };
        match &result.variable {
            Some(v) => reader.variable(v),
            None => Ok(Value::nothing(call.head)),
        }
    }

    #[expect(
        deprecated,
        reason = "plugin completion API is experimental in nu 0.115"
    )]
    fn get_dynamic_completion(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: DynamicCompletionCall,
        arg_type: ArgType,
        _experimental: nu_protocol::engine::ExperimentalMarker,
    ) -> Option<Vec<DynamicSuggestion>> {
        match arg_type {
            ArgType::Positional(0) => {
                let typed = typed_prefix(&call, engine);
                suggest(plugin, engine, |s| client::candidates::variables(s, &typed))
            }
            _ => None,
        }
    }
}

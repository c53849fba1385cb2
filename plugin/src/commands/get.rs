//! `abap get <path>`: one variable's value, typed.

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
use crate::variables::Reader;

pub(crate) struct Get;

impl SimplePluginCommand for Get {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap get"
    }

    fn description(&self) -> &str {
        "The value of one variable, component, table cell or dereferenced reference, typed as in 'abap vars'."
    }

    fn extra_description(&self) -> &str {
        "Paths: LV_X, LS_X-COMP, LT_X[3]-PRICE, ME->MV_NAME, ZCL_X=>GV_A, <FS>, LR_REF->*. \
        A structure comes back as a record, an internal table as a list of records (at most \
        1000 rows; use 'abap table --all' for more)."
    }

    fn signature(&self) -> Signature {
        super::at_flags(Signature::build(PluginCommand::name(self)))
            .required(
                "path",
                SyntaxShape::String,
                "The variable, e.g. LS_ORDER-PLACED or LT_ITEMS[3]-AMOUNT.",
            )
            .input_output_type(Type::Nothing, Type::Any)
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "abap get iv_quantity",
            description: "One parameter's value",
            result: Some(Value::test_int(1)),
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
        let session = plugin.session(engine, path.span)?;
        let at = super::at(call)?;
        let args = jsonl::args::GetArgs {
            path: path.item.trim().to_uppercase(),
            thread: at.thread,
            frame: at.frame,
            ..Default::default()
        };
        let result = typed::<jsonl::cmd::Get>(&session, engine, path.span, &args)?;
        let reader = Reader {
            session: &session,
            engine,
            span: call.head,
            epoch: Some(result.epoch),
            at,
        };
        reader.value(&result.variable, 0)
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

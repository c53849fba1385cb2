//! `abap vars [path] [--scope]`: variables of the selected frame as a typed table.

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
use crate::variables::{Reader, vars_args};

pub(crate) struct Vars;

impl SimplePluginCommand for Vars {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap vars"
    }

    fn description(&self) -> &str {
        "The variables of the selected frame (or a variable's components) as a table with typed values."
    }

    fn extra_description(&self) -> &str {
        "Columns: name (as the system names it, e.g. LT_ITEMS), scope, type, meta (simple, \
        string, structure, table, objectref, dataref, …), value, rows, and the rest of the \
        protocol's variable fields (id, declared_type, kind, raw, length, readonly, \
        expandable). value is typed: integers as int, f as float, p and decfloat as float \
        where the number survives the round trip (else the ABAP text), d as date (the initial \
        date as nothing), t as \"HH:MM:SS\", c without trailing blanks, n and string as \
        string, x and xstring as binary, structures as records, tables as lists of records, \
        references as the system's text. With a path, the components of that variable (rows \
        of a table as [1], [2], …). Names are accepted in any case."
    }

    fn search_terms(&self) -> Vec<&str> {
        vec!["variables", "locals", "inspect"]
    }

    fn signature(&self) -> Signature {
        super::at_flags(Signature::build(PluginCommand::name(self)))
            .optional(
                "path",
                SyntaxShape::String,
                "A variable whose components to list, e.g. LS_ORDER or ME.",
            )
            .named(
                "scope",
                SyntaxShape::String,
                "Only variables of this scope (Locals, Parameters, …).",
                Some('s'),
            )
            .input_output_type(Type::Nothing, Type::table())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "(abap vars --scope parameters).name",
            description: "The parameters of the current method",
            result: Some(Value::test_list(vec![
                Value::test_string("IV_QUANTITY"),
                Value::test_string("IV_PRICE"),
                Value::test_string("RV_TOTAL"),
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
        let path: Option<Spanned<String>> = call.opt(0)?;
        let scope: Option<String> = call.get_flag("scope")?;
        let span = path.as_ref().map(|p| p.span).unwrap_or(call.head);
        let session = plugin.session(engine, span)?;
        let at = super::at(call)?;
        let args = vars_args(
            path.as_ref().map(|p| p.item.trim().to_uppercase()),
            None,
            at,
        );
        let result = typed::<jsonl::cmd::Vars>(&session, engine, span, &args)?;
        let reader = Reader {
            session: &session,
            engine,
            span: call.head,
            epoch: Some(result.epoch),
            at,
        };
        let wanted = scope.map(|s| s.trim().to_lowercase());
        let mut rows = Vec::new();
        for var in &result.variables {
            if wanted
                .as_ref()
                .is_some_and(|w| *w != var.scope.to_lowercase())
            {
                continue;
            }
            rows.push(reader.variable(var)?);
        }
        Ok(Value::list(rows, call.head))
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

//! `abap table <variable> [--offset] [--limit] [--all]`: an internal table as a Nushell table.

use nu_plugin::{DynamicCompletionCall, EngineInterface, PluginCommand};
use nu_protocol::engine::ArgType;
use nu_protocol::{
    DynamicSuggestion, Example, LabeledError, ListStream, PipelineData, Signature, Spanned,
    SyntaxShape, Type, Value,
};

use crate::AbapPlugin;
use crate::completion::{suggest, typed_prefix};
use crate::variables::{PAGE, Reader};

/// Rows of the first page when no --limit is given.
const DEFAULT_LIMIT: u64 = 100;

pub(crate) struct Table;

impl PluginCommand for Table {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap table"
    }

    fn description(&self) -> &str {
        "The rows of an internal table as a table: one column per component, values typed."
    }

    fn extra_description(&self) -> &str {
        "Columns are the components' names in lower case (table_line for an elementary line \
        type), values typed as in 'abap vars'. Without flags the first 100 rows; --offset and \
        --limit choose rows; --all streams every row, read page by page as the pipeline asks \
        for them, so 'abap table lt_big --all | first 10' reads one page only."
    }

    fn search_terms(&self) -> Vec<&str> {
        vec!["internal table", "itab", "rows"]
    }

    fn signature(&self) -> Signature {
        super::at_flags(Signature::build(self.name()))
            .required(
                "variable",
                SyntaxShape::String,
                "The internal table, e.g. LT_ITEMS or LS_ORDER-WORDS.",
            )
            .named(
                "offset",
                SyntaxShape::Int,
                "Rows to skip (0-based).",
                Some('o'),
            )
            .named(
                "limit",
                SyntaxShape::Int,
                "Rows to return (default 100).",
                Some('l'),
            )
            .switch("all", "Stream every row.", Some('a'))
            .input_output_type(Type::Nothing, Type::table())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![
            Example {
                example: "(abap table lt_items --limit 3).amount",
                description: "A column of the first three rows",
                result: Some(Value::test_list(vec![
                    Value::test_float(1.25),
                    Value::test_float(2.5),
                    Value::test_float(3.75),
                ])),
            },
            Example {
                example: "(abap table lt_items --offset 299).id",
                description: "The last row's id",
                result: Some(Value::test_list(vec![Value::test_int(300)])),
            },
        ]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &nu_plugin::EvaluatedCall,
        _input: PipelineData,
    ) -> Result<PipelineData, LabeledError> {
        let var: Spanned<String> = call.req(0)?;
        let id = var.item.trim().to_uppercase();
        let offset = non_negative(call, "offset")?.unwrap_or(0);
        let limit = non_negative(call, "limit")?;
        let all = call.has_flag("all")?;
        let at = super::at(call)?;
        let session = plugin.session(engine, var.span)?;
        let span = call.head;
        if !all {
            let reader = Reader {
                session: &session,
                engine,
                span,
                epoch: None,
                at,
            };
            let page = reader.rows(&id, offset, limit.unwrap_or(DEFAULT_LIMIT), 0)?;
            return Ok(PipelineData::value(Value::list(page.rows, span), None));
        }
        // Read the first page now, so a wrong name fails as an error, not as a stream item.
        let reader = Reader {
            session: &session,
            engine,
            span: var.span,
            epoch: None,
            at,
        };
        let first = reader.rows(&id, offset, PAGE, 0)?;
        let epoch = first.epoch;
        let mut next = offset + first.rows.len() as u64;
        let mut more = first.more;
        let mut left = limit.map(|l| l.saturating_sub(first.rows.len() as u64));
        let signals = engine.signals().clone();
        let engine = engine.clone();
        let mut buffer = first
            .rows
            .into_iter()
            .take(limit.unwrap_or(u64::MAX) as usize)
            .collect::<Vec<_>>()
            .into_iter();
        let total = first.total;
        let pages = std::iter::from_fn(move || {
            loop {
                if let Some(v) = buffer.next() {
                    return Some(v);
                }
                if !more || left == Some(0) || next >= total {
                    return None;
                }
                let reader = Reader {
                    session: &session,
                    engine: &engine,
                    span,
                    epoch,
                    at,
                };
                let take = left.map_or(PAGE, |l| l.min(PAGE));
                match reader.rows(&id, next, take, 0) {
                    Ok(page) => {
                        if page.rows.is_empty() {
                            return None;
                        }
                        next += page.rows.len() as u64;
                        more = page.more;
                        left = left.map(|l| l.saturating_sub(page.rows.len() as u64));
                        buffer = page.rows.into_iter();
                    }
                    Err(e) => {
                        more = false;
                        return Some(Value::error(e.into(), span));
                    }
                }
            }
        });
        Ok(PipelineData::list_stream(
            ListStream::new(pages, span, signals),
            None,
        ))
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

fn non_negative(call: &nu_plugin::EvaluatedCall, flag: &str) -> Result<Option<u64>, LabeledError> {
    match call.get_flag::<Spanned<i64>>(flag)? {
        None => Ok(None),
        Some(v) => u64::try_from(v.item).map(Some).map_err(|_| {
            crate::errors::invalid_arg(
                format!("--{flag} must not be negative"),
                "a count of rows",
                v.span,
            )
        }),
    }
}

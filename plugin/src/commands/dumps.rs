//! `abap dumps`: the short dumps, newest first, as a typed table; the record of one summary,
//! shared with `abap dump`.

use chrono::DateTime;
use jsonl::args::DumpsArgs;
use jsonl::results::DumpSummary;
use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{
    Example, LabeledError, Record, Signature, Span, Spanned, SyntaxShape, Type, Value,
};

use crate::AbapPlugin;
use crate::errors::invalid_arg;

pub(crate) struct Dumps;

impl SimplePluginCommand for Dumps {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap dumps"
    }

    fn description(&self) -> &str {
        "The short dumps (runtime errors), newest first: id, time, user, runtime_error, exception, program, include, line, file, short_text."
    }

    fn signature(&self) -> Signature {
        Signature::build(PluginCommand::name(self))
            .named(
                "since",
                SyntaxShape::Any,
                "Only dumps at or after this: a datetime, a duration ago (1day), or text (2026-11-28, 1h).",
                None,
            )
            .named(
                "until",
                SyntaxShape::Any,
                "Only dumps at or before this (as --since).",
                None,
            )
            .named(
                "user",
                SyntaxShape::String,
                "Whose dumps (default: ours; '*' everyone's).",
                None,
            )
            .named(
                "program",
                SyntaxShape::String,
                "The terminated program, or the object it belongs to (ZCL_ORDER).",
                None,
            )
            .named(
                "error",
                SyntaxShape::String,
                "A runtime error (COMPUTE_INT_ZERODIVIDE) or an exception class.",
                None,
            )
            .named("limit", SyntaxShape::Int, "At most this many (default 20).", None)
            .input_output_type(Type::Nothing, Type::table())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![Example {
            example: "abap dumps --since 1day | where runtime_error == COMPUTE_INT_ZERODIVIDE | first",
            description: "The latest division by zero of the last day",
            result: None,
        }]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let limit: Option<Spanned<i64>> = call.get_flag("limit")?;
        let limit = match limit {
            Some(l) => u32::try_from(l.item)
                .ok()
                .filter(|n| (1..=200).contains(n))
                .ok_or_else(|| invalid_arg("no such limit", "1 to 200", l.span))?,
            None => DumpsArgs::default().limit,
        };
        let args = DumpsArgs {
            since: time_flag(call, "since")?,
            until: time_flag(call, "until")?,
            user: call.get_flag("user")?,
            program: call.get_flag("program")?,
            error: call.get_flag("error")?,
            limit,
        };
        let result = plugin.call::<jsonl::cmd::Dumps>(engine, call.head, &args)?;
        let rows = result
            .dumps
            .iter()
            .map(|d| Value::record(summary(d, call.head), call.head))
            .collect();
        Ok(Value::list(rows, call.head))
    }
}

/// `--since`/`--until`: a datetime (sent as ISO 8601 UTC), a duration (an age: `1day` ago),
/// or text the protocol reads (`2026-11-28`, `1h`).
fn time_flag(call: &EvaluatedCall, name: &str) -> Result<Option<String>, LabeledError> {
    let value: Option<Value> = call.get_flag(name)?;
    let Some(value) = value else {
        return Ok(None);
    };
    match &value {
        Value::Date { val, .. } => Ok(Some(
            val.with_timezone(&chrono::Utc)
                .format("%Y-%m-%dT%H:%M:%SZ")
                .to_string(),
        )),
        // Whole seconds ago: the protocol's ages count in s, m, h, d.
        Value::Duration { val, .. } if *val >= 0 => Ok(Some(format!("{}s", val / 1_000_000_000))),
        Value::String { val, .. } => Ok(Some(val.clone())),
        other => Err(invalid_arg(
            "not a time",
            "a datetime, a duration (1day) or text (2026-11-28, 1h)",
            other.span(),
        )),
    }
}

/// One dump's summary as record columns: `time` a datetime (the text when it is not one),
/// `line` an int, absent members nothing.
pub(crate) fn summary(d: &DumpSummary, span: Span) -> Record {
    let text = |t: Option<&String>| t.map_or(Value::nothing(span), |t| Value::string(t, span));
    let time = match DateTime::parse_from_rfc3339(&d.time) {
        Ok(t) => Value::date(t, span),
        Err(_) => Value::string(&d.time, span),
    };
    let mut rec = Record::new();
    rec.push("id", Value::string(&d.id, span));
    rec.push("time", time);
    rec.push("user", Value::string(&d.user, span));
    rec.push("runtime_error", Value::string(&d.runtime_error, span));
    rec.push("exception", text(d.exception.as_ref()));
    rec.push("program", Value::string(&d.program, span));
    rec.push("include", Value::string(&d.include, span));
    rec.push("line", Value::int(i64::from(d.line), span));
    rec.push("file", text(d.file.as_ref()));
    rec.push("short_text", Value::string(&d.short_text, span));
    rec
}

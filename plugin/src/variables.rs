//! Variables and internal tables as typed Nushell values: records for variables, structures
//! as records, tables as lists of records with lower-case column names.

use client::Session;
use jsonl::args::{GetArgs, TableArgs, VarsArgs};
use jsonl::cmd;
use jsonl::results::{TableResult, Variable};
use nu_plugin::EngineInterface;
use nu_protocol::{LabeledError, Record, Span, Value};

use crate::connection::typed as call;
use crate::values::typed;

/// How deep structures and nested tables are read for one value.
const MAX_DEPTH: usize = 4;
/// Rows of a nested table read into one value; a bigger one stays as its text.
const MAX_NESTED_ROWS: u64 = 1000;
/// Rows per request when a whole table is read.
pub(crate) const PAGE: u64 = 500;

/// Reads what the session needs to make values (one request per structure or nested table).
pub(crate) struct Reader<'a> {
    pub(crate) session: &'a Session,
    pub(crate) engine: &'a EngineInterface,
    pub(crate) span: Span,
    /// The stop the reads belong to: a stale one fails instead of mixing two stops.
    pub(crate) epoch: Option<u64>,
    /// The thread and frame every read names (`--thread`, `--frame`).
    pub(crate) at: At,
}

/// The thread and frame a read is for; each left out means the session's current one.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct At {
    pub(crate) thread: Option<u32>,
    pub(crate) frame: Option<usize>,
}

/// `vars` arguments as the protocol's defaults have them (the derived `Default` would ask for
/// no rows).
pub(crate) fn vars_args(id: Option<String>, epoch: Option<u64>, at: At) -> VarsArgs {
    let mut args: VarsArgs = serde_json::from_value(serde_json::json!({})).unwrap_or_default();
    args.id = id;
    args.epoch = epoch;
    args.thread = at.thread;
    args.frame = at.frame;
    args
}

impl Reader<'_> {
    fn children(&self, id: &str) -> Result<Vec<Variable>, LabeledError> {
        let args = vars_args(Some(id.to_string()), self.epoch, self.at);
        Ok(call::<cmd::Vars>(self.session, self.engine, self.span, &args)?.variables)
    }

    /// One variable as a record of the protocol's fields (`name, scope, type, meta, value,
    /// rows, id, declared_type, kind, raw, length, readonly, expandable`), its `value` typed.
    /// An internal table's value stays the system's text here (`rows` counts them; `abap
    /// table` reads them), so listing variables never reads whole tables.
    pub(crate) fn variable(&self, var: &Variable) -> Result<Value, LabeledError> {
        let span = self.span;
        let mut rec = Record::new();
        rec.push("name", Value::string(&var.name, span));
        rec.push("scope", Value::string(&var.scope, span));
        rec.push("type", Value::string(&var.technical_type, span));
        rec.push("meta", Value::string(&var.meta, span));
        let value = if var.meta == "table" {
            Value::string(&var.value, span)
        } else {
            self.value(var, 0)?
        };
        rec.push("value", value);
        rec.push("rows", Value::int(i64::from(var.rows), span));
        rec.push("id", Value::string(&var.id, span));
        rec.push("declared_type", Value::string(&var.declared_type, span));
        rec.push("kind", Value::string(&var.kind, span));
        rec.push(
            "raw",
            var.raw
                .as_ref()
                .map_or(Value::nothing(span), |r| Value::string(r, span)),
        );
        rec.push("length", Value::int(i64::from(var.length), span));
        rec.push("readonly", Value::bool(var.readonly, span));
        rec.push("expandable", Value::bool(var.expandable, span));
        Ok(Value::record(rec, span))
    }

    /// A variable's value: elementary types typed, structures as records, tables as lists of
    /// records, references as the system's text.
    pub(crate) fn value(&self, var: &Variable, depth: usize) -> Result<Value, LabeledError> {
        match var.meta.as_str() {
            "structure" if depth < MAX_DEPTH => self.structure(&var.id, depth),
            "table" if depth < MAX_DEPTH && u64::from(var.rows) <= MAX_NESTED_ROWS => {
                let page = self.rows(&var.id, 0, MAX_NESTED_ROWS, depth)?;
                Ok(Value::list(page.rows, self.span))
            }
            "simple" | "string" => Ok(typed(&var.technical_type, &var.value, self.span)),
            _ => Ok(Value::string(&var.value, self.span)),
        }
    }

    fn structure(&self, id: &str, depth: usize) -> Result<Value, LabeledError> {
        let mut rec = Record::new();
        for kid in self.children(id)? {
            rec.push(kid.name.to_lowercase(), self.value(&kid, depth + 1)?);
        }
        Ok(Value::record(rec, self.span))
    }

    /// Rows `offset..offset+limit` of the table `id` as records.
    pub(crate) fn rows(
        &self,
        id: &str,
        offset: u64,
        limit: u64,
        depth: usize,
    ) -> Result<Page, LabeledError> {
        let args = TableArgs {
            id: id.to_string(),
            offset: u32::try_from(offset).unwrap_or(u32::MAX),
            limit: u32::try_from(limit).unwrap_or(u32::MAX),
            epoch: self.epoch,
            thread: self.at.thread,
            frame: self.at.frame,
        };
        let result = call::<cmd::Table>(self.session, self.engine, self.span, &args)?;
        let columns = self.columns(&result)?;
        let mut rows = Vec::new();
        for row in &result.rows {
            rows.push(self.row(row, &columns, depth)?);
        }
        Ok(Page {
            rows,
            total: u64::from(result.total),
            more: result.more,
            epoch: Some(result.epoch),
        })
    }

    /// Name, type and meta of each column.
    fn columns(&self, result: &TableResult) -> Result<Vec<Column>, LabeledError> {
        Ok(result
            .columns
            .iter()
            .map(|c| Column {
                name: c.name.clone(),
                ty: c.technical_type.clone(),
                meta: c.meta.clone(),
            })
            .collect())
    }

    fn row(
        &self,
        row: &jsonl::results::TableRow,
        columns: &[Column],
        depth: usize,
    ) -> Result<Value, LabeledError> {
        let mut rec = Record::new();
        for col in columns {
            let (key, text) = if col.name.is_empty() {
                (
                    "table_line".to_string(),
                    row.value.as_deref().unwrap_or_default(),
                )
            } else {
                (
                    col.name.to_lowercase(),
                    row.columns
                        .as_ref()
                        .and_then(|c| c.get(&col.name))
                        .and_then(serde_json::Value::as_str)
                        .unwrap_or_default(),
                )
            };
            let value = match col.meta.as_str() {
                "structure" | "table" => {
                    let path = if col.name.is_empty() {
                        row.id.clone()
                    } else {
                        format!("{}-{}", row.id, col.name)
                    };
                    let args = GetArgs {
                        path,
                        epoch: self.epoch,
                        thread: self.at.thread,
                        frame: self.at.frame,
                        ..GetArgs::default()
                    };
                    let got = call::<cmd::Get>(self.session, self.engine, self.span, &args)?;
                    self.value(&got.variable, depth + 1)?
                }
                "simple" | "string" => typed(&col.ty, text, self.span),
                _ => Value::string(text, self.span),
            };
            rec.push(key, value);
        }
        Ok(Value::record(rec, self.span))
    }
}

pub(crate) struct Column {
    name: String,
    ty: String,
    meta: String,
}

pub(crate) struct Page {
    pub(crate) rows: Vec<Value>,
    pub(crate) total: u64,
    pub(crate) more: bool,
    pub(crate) epoch: Option<u64>,
}

//! Variables and internal tables as typed Nushell values: records for variables, structures
//! as records, tables as lists of records with lower-case column names.

use client::Session;
use nu_plugin::EngineInterface;
use nu_protocol::{LabeledError, Record, Span, Value};
use serde_json::{Value as Json, json};

use crate::connection::call;
use crate::values::{from_json, typed};

/// How deep structures and nested tables are read for one value.
const MAX_DEPTH: usize = 4;
/// Rows of a nested table read into one value; a bigger one stays as its text.
const MAX_NESTED_ROWS: u64 = 1000;
/// Rows per request when a whole table is read.
pub(crate) const PAGE: u64 = 500;

/// The protocol's variable fields, in this order, `value` typed.
const FIELDS: &[&str] = &[
    "name",
    "scope",
    "type",
    "meta",
    "value",
    "rows",
    "id",
    "declared_type",
    "kind",
    "raw",
    "length",
    "readonly",
    "expandable",
];

/// Reads what the session needs to make values (one request per structure or nested table).
pub(crate) struct Reader<'a> {
    pub(crate) session: &'a Session,
    pub(crate) engine: &'a EngineInterface,
    pub(crate) span: Span,
    /// The stop the reads belong to: a stale one fails instead of mixing two stops.
    pub(crate) epoch: Option<u64>,
}

impl Reader<'_> {
    fn ask(&self, cmd: &str, mut args: Json) -> Result<Json, LabeledError> {
        if let Some(e) = self.epoch {
            args["epoch"] = e.into();
        }
        call(self.session, self.engine, self.span, cmd, args)
    }

    /// One variable as a record of the protocol's fields, its `value` typed. An internal
    /// table's value stays the system's text here (`rows` counts them; `abap table` reads
    /// them), so listing variables never reads whole tables.
    pub(crate) fn variable(&self, var: &Json) -> Result<Value, LabeledError> {
        let mut rec = Record::new();
        for f in FIELDS {
            let v = if *f == "value" && var["meta"] == "table" {
                from_json(&var["value"], self.span)
            } else if *f == "value" {
                self.value(var, 0)?
            } else {
                from_json(&var[*f], self.span)
            };
            rec.push(*f, v);
        }
        Ok(Value::record(rec, self.span))
    }

    /// A variable's value: elementary types typed, structures as records, tables as lists of
    /// records, references as the system's text.
    pub(crate) fn value(&self, var: &Json, depth: usize) -> Result<Value, LabeledError> {
        let text = var["value"].as_str().unwrap_or_default();
        let id = var["id"].as_str().unwrap_or_default();
        match var["meta"].as_str().unwrap_or_default() {
            "structure" if depth < MAX_DEPTH => self.structure(id, depth),
            "table"
                if depth < MAX_DEPTH && var["rows"].as_u64().unwrap_or(0) <= MAX_NESTED_ROWS =>
            {
                let page = self.rows(id, 0, MAX_NESTED_ROWS, depth)?;
                Ok(Value::list(page.rows, self.span))
            }
            "simple" | "string" => Ok(typed(
                var["type"].as_str().unwrap_or_default(),
                text,
                self.span,
            )),
            _ => Ok(Value::string(text, self.span)),
        }
    }

    fn structure(&self, id: &str, depth: usize) -> Result<Value, LabeledError> {
        let kids = self.ask("vars", json!({ "id": id }))?;
        let mut rec = Record::new();
        for kid in kids["variables"].as_array().into_iter().flatten() {
            let name = kid["name"].as_str().unwrap_or_default().to_lowercase();
            rec.push(name, self.value(kid, depth + 1)?);
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
        let result = self.ask("table", json!({"id": id, "offset": offset, "limit": limit}))?;
        let columns = self.columns(&result)?;
        let mut rows = Vec::new();
        for row in result["rows"].as_array().into_iter().flatten() {
            rows.push(self.row(row, &columns, depth)?);
        }
        Ok(Page {
            rows,
            total: result["total"].as_u64().unwrap_or(0),
            more: result["more"].as_bool().unwrap_or(false),
            epoch: result["epoch"].as_u64(),
        })
    }

    /// Name, type and meta of each column: from the answer, or (from a session that does not
    /// send them) from the first row's components.
    fn columns(&self, result: &Json) -> Result<Vec<Column>, LabeledError> {
        let from = |list: &Json| -> Vec<Column> {
            list.as_array()
                .into_iter()
                .flatten()
                .map(|c| Column {
                    name: c["name"].as_str().unwrap_or_default().to_string(),
                    ty: c["type"].as_str().unwrap_or_default().to_string(),
                    meta: c["meta"].as_str().unwrap_or("simple").to_string(),
                })
                .collect()
        };
        if let Some(cols) = result.get("columns") {
            return Ok(from(cols));
        }
        let Some(first) = result["rows"].as_array().and_then(|r| r.first()) else {
            return Ok(Vec::new());
        };
        let row_id = first["id"].as_str().unwrap_or_default();
        let kids = self.ask("vars", json!({ "id": row_id }))?;
        let vars = &kids["variables"];
        Ok(match vars.as_array().map(Vec::as_slice) {
            // An elementary line type answers the row itself.
            Some([only]) if only["id"].as_str() == Some(row_id) => vec![Column {
                name: String::new(),
                ty: only["type"].as_str().unwrap_or_default().to_string(),
                meta: only["meta"].as_str().unwrap_or("simple").to_string(),
            }],
            _ => from(&Json::Array(
                vars.as_array()
                    .into_iter()
                    .flatten()
                    .map(|v| json!({"name": v["name"], "type": v["type"], "meta": v["meta"]}))
                    .collect(),
            )),
        })
    }

    fn row(&self, row: &Json, columns: &[Column], depth: usize) -> Result<Value, LabeledError> {
        let row_id = row["id"].as_str().unwrap_or_default();
        let mut rec = Record::new();
        for col in columns {
            let (key, text) = if col.name.is_empty() {
                (
                    "table_line".to_string(),
                    row["value"].as_str().unwrap_or_default(),
                )
            } else {
                (
                    col.name.to_lowercase(),
                    row["columns"][&col.name].as_str().unwrap_or_default(),
                )
            };
            let value = match col.meta.as_str() {
                "structure" | "table" => {
                    let path = if col.name.is_empty() {
                        row_id.to_string()
                    } else {
                        format!("{row_id}-{}", col.name)
                    };
                    let got = self.ask("get", json!({ "path": path }))?;
                    self.value(&got["variable"], depth + 1)?
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

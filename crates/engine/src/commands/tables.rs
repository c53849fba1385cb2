//! Internal tables: `table` (rows as records, paged) and `export` (the whole table as JSON,
//! CSV or an ABAP `VALUE #( … )`, inline or in a file).

use std::sync::Arc;

use jsonl::args::{ExportArgs, ExportFormat, TableArgs, decode};
use jsonl::{ErrorBody, ErrorCode};
use serde_json::{Map, Value, json};

use super::inspect::{check_epoch, display_value, limited, not_found, short_name};
use super::{Outcome, stopped_client};
use crate::engine::Engine;
use crate::errors::from_adt;

/// Rows read per request to the system.
const PAGE: u32 = 500;
/// Exports larger than this go to a file instead of into the response.
const INLINE_LIMIT: usize = 1 << 20;
/// Rows `export` reads at most.
const MAX_EXPORT_ROWS: u32 = 1_000_000;

/// One cell: component name (empty for an elementary line type), display value, ABAP type
/// (as the system gives it) and meta type (`simple`, `string`, `structure`, `table`, …).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cell {
    pub(crate) name: String,
    pub(crate) value: String,
    pub(crate) technical_type: String,
    pub(crate) meta: String,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub(crate) index: u32,
    pub(crate) id: String,
    pub(crate) cells: Vec<Cell>,
}

/// The table's own record, refusing anything that is not a table.
async fn table_record(client: &adt::Client, id: &str) -> Result<adt::Variable, ErrorBody> {
    let own = client
        .variables(&[id.to_string()])
        .await
        .map_err(|e| from_adt("reading the table", &e))?;
    let Some(record) = own.into_iter().next() else {
        return Err(not_found(id));
    };
    if record.meta_type != "table" {
        return Err(ErrorBody::new(
            ErrorCode::InvalidArgs,
            format!(
                "'{id}' is not an internal table (it is {})",
                record.meta_type
            ),
        )
        .with_hint("use 'get' or 'vars' for other variables"));
    }
    Ok(record)
}

/// Rows `first..=last` (1-based): the components of all rows in one call, then the values of
/// rows of an elementary line type in one more.
async fn read_rows(
    client: &adt::Client,
    id: &str,
    first: u32,
    last: u32,
) -> Result<Vec<Row>, ErrorBody> {
    if first > last {
        return Ok(Vec::new());
    }
    let row_ids: Vec<String> = (first..=last).map(|i| format!("{id}[{i}]")).collect();
    let kids = client
        .child_variables(&row_ids)
        .await
        .map_err(|e| from_adt("reading table rows", &e))?;
    let mut rows = Vec::with_capacity(row_ids.len());
    let mut flat = Vec::new();
    for (n, row_id) in row_ids.iter().enumerate() {
        let cells: Vec<Cell> = kids
            .hierarchies
            .iter()
            .filter(|h| h.parent_id == *row_id && !h.child_id.is_empty())
            .filter_map(|h| kids.variables.iter().find(|v| v.id == h.child_id))
            .map(|v| Cell {
                name: short_name(&v.id),
                value: display_value(v),
                technical_type: v.technical_type.clone(),
                meta: v.meta_type.clone(),
            })
            .collect();
        if cells.is_empty() {
            flat.push(row_id.clone());
        }
        rows.push(Row {
            index: first + n as u32,
            id: row_id.clone(),
            cells,
        });
    }
    if !flat.is_empty() {
        let values = client
            .variables(&flat)
            .await
            .map_err(|e| from_adt("reading table rows", &e))?;
        for row in rows.iter_mut().filter(|r| r.cells.is_empty()) {
            if let Some(v) = values.iter().find(|v| v.id == row.id) {
                row.cells.push(Cell {
                    name: String::new(),
                    value: display_value(v),
                    technical_type: v.technical_type.clone(),
                    meta: v.meta_type.clone(),
                });
            }
        }
    }
    Ok(rows)
}

/// The columns of a page, in component order, from its first row: name (empty for an
/// elementary line type), technical type and meta type. Empty without rows.
fn columns_json(rows: &[Row]) -> Value {
    let cells = rows.first().map(|r| r.cells.as_slice()).unwrap_or_default();
    cells
        .iter()
        .map(|c| json!({"name": c.name, "type": c.technical_type, "meta": c.meta}))
        .collect()
}

fn row_json(row: &Row, max: usize) -> Value {
    let mut out = json!({"index": row.index, "id": row.id});
    match row.cells.as_slice() {
        [only] if only.name.is_empty() => out["value"] = limited(&only.value, max).0.into(),
        cells => {
            let columns: Map<String, Value> = cells
                .iter()
                .map(|c| (c.name.clone(), Value::String(limited(&c.value, max).0)))
                .collect();
            out["columns"] = Value::Object(columns);
        }
    }
    out
}

pub(crate) async fn table(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: TableArgs = decode("table", args)?;
    let epoch = check_epoch(engine, args.epoch)?;
    let (_, client) = stopped_client(engine)?;
    let id = args.id.trim().to_uppercase();
    let record = table_record(&client, &id).await?;
    let max = engine.lock().limits.max_value_chars;
    let total = record.table_lines;
    let first = args.offset.saturating_add(1);
    let last = args
        .offset
        .saturating_add(args.limit.min(10_000))
        .min(total);
    let rows = read_rows(&client, &id, first, last).await?;
    Ok(json!({
        "epoch": epoch,
        "id": id,
        "total": total,
        "offset": args.offset,
        "columns": columns_json(&rows),
        "rows": rows.iter().map(|r| row_json(r, max)).collect::<Vec<_>>(),
        "more": last < total,
    }))
}

pub(crate) async fn export(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: ExportArgs = decode("export", args)?;
    let epoch = check_epoch(engine, args.epoch)?;
    let (_, client) = stopped_client(engine)?;
    let id = args.id.trim().to_uppercase();
    let record = table_record(&client, &id).await?;
    let total = record.table_lines.min(MAX_EXPORT_ROWS);
    let mut rows = Vec::new();
    let mut first = 1;
    while first <= total {
        let last = first.saturating_add(PAGE - 1).min(total);
        rows.extend(read_rows(&client, &id, first, last).await?);
        first = last + 1;
    }
    let text = match args.format {
        ExportFormat::Json => to_json(&rows),
        ExportFormat::Csv => to_csv(&rows),
        ExportFormat::Abap => to_abap(&rows),
    };
    let mut out = json!({
        "epoch": epoch,
        "id": id,
        "rows": rows.len(),
        "truncated": record.table_lines > total,
        "bytes": text.len(),
    });
    let file = match (&args.file, text.len() > INLINE_LIMIT) {
        (Some(f), _) => Some(std::path::PathBuf::from(f)),
        (None, true) => Some(std::env::temp_dir().join(format!(
            "abapdbg-export-{}-{}.{}",
            std::process::id(),
            id.replace(['/', '[', ']', '-', '>', '<', '*'], "_"),
            match args.format {
                ExportFormat::Json => "json",
                ExportFormat::Csv => "csv",
                ExportFormat::Abap => "abap",
            }
        ))),
        (None, false) => None,
    };
    match file {
        Some(path) => {
            std::fs::write(&path, &text).map_err(|e| {
                ErrorBody::new(
                    ErrorCode::InvalidArgs,
                    format!("cannot write {}: {e}", path.display()),
                )
                .with_hint("give a writable \"file\"")
            })?;
            out["file"] = path.display().to_string().into();
        }
        None => out["content"] = text.into(),
    }
    Ok(out)
}

fn is_numeric(t: &str) -> bool {
    matches!(
        t,
        "I" | "P" | "INT8" | "8" | "b" | "s" | "F" | "DECFLOAT16" | "DECFLOAT34"
    )
}

/// Rows as an array of objects (one value per row for elementary line types); numbers stay
/// text when they would not survive as JSON numbers.
pub(crate) fn to_json(rows: &[Row]) -> String {
    let cell = |c: &Cell| -> Value {
        if is_numeric(&c.technical_type)
            && let Ok(n) = c.value.trim().parse::<serde_json::Number>()
        {
            return Value::Number(n);
        }
        Value::String(c.value.clone())
    };
    let items: Vec<Value> = rows
        .iter()
        .map(|r| match r.cells.as_slice() {
            [only] if only.name.is_empty() => cell(only),
            cells => Value::Object(cells.iter().map(|c| (c.name.clone(), cell(c))).collect()),
        })
        .collect();
    serde_json::to_string_pretty(&items).unwrap_or_default()
}

/// RFC 4180 CSV with a header line; values quoted when needed, blanks kept.
pub(crate) fn to_csv(rows: &[Row]) -> String {
    let quote = |s: &str| {
        if s.contains([',', '"', '\n', '\r']) || s.starts_with(' ') || s.ends_with(' ') {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let header: Vec<String> = match rows.first().map(|r| r.cells.as_slice()) {
        Some([only]) if only.name.is_empty() => vec!["TABLE_LINE".to_string()],
        Some(cells) => cells.iter().map(|c| c.name.clone()).collect(),
        None => Vec::new(),
    };
    let mut out = header
        .iter()
        .map(|h| quote(h))
        .collect::<Vec<_>>()
        .join(",");
    out.push_str("\r\n");
    for r in rows {
        let line: Vec<String> = r.cells.iter().map(|c| quote(&c.value)).collect();
        out.push_str(&line.join(","));
        out.push_str("\r\n");
    }
    out
}

/// `VALUE #( ( A = 1 B = 'x' ) … )`, ready to paste into a unit test.
pub(crate) fn to_abap(rows: &[Row]) -> String {
    let literal = |c: &Cell| {
        if is_numeric(&c.technical_type) && c.value.trim().parse::<f64>().is_ok() {
            let v = c.value.trim();
            if v.contains('.') || v.starts_with('-') {
                format!("'{v}'")
            } else {
                v.to_string()
            }
        } else if c.technical_type == "CString" || c.technical_type.eq_ignore_ascii_case("string") {
            format!("`{}`", c.value.replace('`', "``"))
        } else {
            format!("'{}'", c.value.trim_end().replace('\'', "''"))
        }
    };
    let mut out = String::from("VALUE #(");
    for r in rows {
        out.push_str("\n  ( ");
        match r.cells.as_slice() {
            [only] if only.name.is_empty() => out.push_str(&literal(only)),
            cells => {
                let parts: Vec<String> = cells
                    .iter()
                    .map(|c| format!("{} = {}", c.name.to_lowercase(), literal(c)))
                    .collect();
                out.push_str(&parts.join(" "));
            }
        }
        out.push_str(" )");
    }
    out.push_str("\n)");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str, value: &str, t: &str) -> Cell {
        Cell {
            name: name.into(),
            value: value.into(),
            technical_type: t.into(),
            meta: if t == "CString" { "string" } else { "simple" }.into(),
        }
    }

    fn rows() -> Vec<Row> {
        vec![
            Row {
                index: 1,
                id: "LT[1]".into(),
                cells: vec![
                    cell("ID", "7", "I"),
                    cell("NAME", "A, \"b\"", "CString"),
                    cell("CODE", "X1  ", "C"),
                    cell("PRICE", "-12.50", "P"),
                ],
            },
            Row {
                index: 2,
                id: "LT[2]".into(),
                cells: vec![
                    cell("ID", "8", "I"),
                    cell("NAME", "it's", "CString"),
                    cell("CODE", "O'K ", "C"),
                    cell("PRICE", "3.00", "P"),
                ],
            },
        ]
    }

    #[test]
    fn json_keeps_numbers_as_numbers() {
        let v: Value = serde_json::from_str(&to_json(&rows())).unwrap_or_default();
        assert_eq!(v[0]["ID"], 7);
        assert_eq!(v[0]["PRICE"], -12.5);
        assert_eq!(v[0]["CODE"], "X1  ", "character blanks are kept");
        assert_eq!(v[1]["NAME"], "it's");
        let flat = vec![Row {
            index: 1,
            id: "LT[1]".into(),
            cells: vec![cell("", "5", "I")],
        }];
        assert_eq!(to_json(&flat).replace([' ', '\n'], ""), "[5]");
    }

    #[test]
    fn columns_come_from_the_first_row_in_component_order() {
        assert_eq!(
            columns_json(&rows()),
            json!([
                {"name": "ID", "type": "I", "meta": "simple"},
                {"name": "NAME", "type": "CString", "meta": "string"},
                {"name": "CODE", "type": "C", "meta": "simple"},
                {"name": "PRICE", "type": "P", "meta": "simple"},
            ])
        );
        let flat = vec![Row {
            index: 1,
            id: "LT[1]".into(),
            cells: vec![cell("", "5", "I")],
        }];
        assert_eq!(
            columns_json(&flat),
            json!([{"name": "", "type": "I", "meta": "simple"}])
        );
        assert_eq!(columns_json(&[]), json!([]));
    }

    #[test]
    fn csv_quotes_what_needs_quoting() {
        let csv = to_csv(&rows());
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines[0], "ID,NAME,CODE,PRICE");
        assert_eq!(lines[1], "7,\"A, \"\"b\"\"\",\"X1  \",-12.50");
        assert_eq!(lines[2], "8,it's,\"O'K \",3.00");
        assert_eq!(to_csv(&[]), "\r\n");
    }

    #[test]
    fn abap_value_expression_is_pasteable() {
        let abap = to_abap(&rows());
        assert_eq!(
            abap,
            "VALUE #(\n  ( id = 7 name = `A, \"b\"` code = 'X1' price = '-12.50' )\n  ( id = 8 name = `it's` code = 'O''K' price = '3.00' )\n)"
        );
    }
}

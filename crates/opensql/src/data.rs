//! Rows of a table from `<name>.tabl.data.json` beside its definition: a JSON array of
//! objects keyed by field name (any case), values as strings or numbers; a missing field
//! takes its initial value, a missing client field the logon client.

use std::path::Path;

use rusqlite::types::Value as Sql;

use crate::cell::{initial, json_to_storage};
use crate::error::{Error, Result};
use crate::types::TableDef;

/// The rows of `file` for `table`, each as one storage value per field (in field order).
pub(crate) fn read_rows(file: &Path, table: &TableDef, client: &str) -> Result<Vec<Vec<Sql>>> {
    let text = std::fs::read_to_string(file).map_err(|source| Error::Io {
        file: file.to_path_buf(),
        source,
    })?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| Error::DataFile {
        file: file.to_path_buf(),
        message: format!("not JSON: {e}"),
    })?;
    let serde_json::Value::Array(items) = json else {
        return Err(Error::DataFile {
            file: file.to_path_buf(),
            message: "a JSON array of objects expected".into(),
        });
    };
    let client_field = table.client_field().map(|f| f.name.clone());
    let mut rows = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let row_err = |field: &str, message: String| Error::DataRow {
            file: file.to_path_buf(),
            row: i + 1,
            field: field.to_string(),
            message,
        };
        let serde_json::Value::Object(obj) = item else {
            return Err(row_err("-", "a JSON object expected".into()));
        };
        for key in obj.keys() {
            if table.field(key).is_none() {
                return Err(row_err(key, format!("{} has no such field", table.name)));
            }
        }
        let mut row = Vec::with_capacity(table.fields.len());
        for f in &table.fields {
            let mut given = obj
                .iter()
                .filter(|(k, _)| k.eq_ignore_ascii_case(&f.name))
                .map(|(_, v)| v);
            let value = given.next();
            if given.next().is_some() {
                return Err(row_err(&f.name, "given twice (in different case)".into()));
            }
            let v = match value {
                Some(v) => json_to_storage(v, f.ddic).map_err(|m| row_err(&f.name, m))?,
                None if client_field.as_deref() == Some(f.name.as_str()) => {
                    Sql::Text(client.to_string())
                }
                None => initial(f.ddic),
            };
            row.push(v);
        }
        rows.push(row);
    }
    Ok(rows)
}

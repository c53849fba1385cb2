//! `abapdbg table <var> [--offset --limit --all] [--format json|csv|abap [--output FILE]]`.

use std::path::PathBuf;

use clap::ValueEnum;
use serde_json::{Value, json};

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, Table, cut, paint, text};
use super::{OneShot, Output};

/// Rows per request when reading the whole table.
const PAGE: u32 = 500;
/// Longest cell shown; --json and --format give values whole.
const MAX_CELL: usize = 100;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Without flags the first 100 rows as a table; --offset and --limit \
    choose rows, --all reads every row (500 per request). --json prints the protocol's \
    answer {\"epoch\",\"id\",\"total\",\"offset\",\"more\",\"columns\",\"rows\"} (with --all \
    one answer holding every row).\n\n--format prints the whole table as a JSON array, RFC 4180 \
    CSV or an ABAP VALUE #( … ) expression (the protocol's export); --output writes it to a \
    file instead."
)]
pub struct TableArgs {
    /// The internal table, e.g. LT_ITEMS or LS_ORDER-WORDS.
    #[arg(add = crate::oneshot::complete::variables())]
    var: String,
    /// Rows to skip (0-based).
    #[arg(long, conflicts_with = "format")]
    offset: Option<u32>,
    /// Rows to show (default 100).
    #[arg(long, conflicts_with_all = ["format", "all"])]
    limit: Option<u32>,
    /// Every row.
    #[arg(long, conflicts_with = "format")]
    all: bool,
    /// The whole table as JSON, CSV or ABAP source.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// With --format: write to this file instead of stdout.
    #[arg(long, requires = "format", value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Json,
    Csv,
    Abap,
}

impl OneShot for TableArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let id = self.var.trim().to_uppercase();
        if let Some(format) = self.format {
            return self.export(ctx, &id, format);
        }
        let offset = self.offset.unwrap_or(0);
        let result = if self.all {
            all_rows(ctx, &id, offset)?
        } else {
            let limit = self.limit.unwrap_or(100);
            ctx.request("table", json!({"id": id, "offset": offset, "limit": limit}))?
        };
        if ctx.json {
            ctx.print_json(&result);
        } else {
            out(&render(&result, ctx.color));
        }
        Ok(())
    }
}

impl TableArgs {
    fn export(&self, ctx: &Ctx, id: &str, format: Format) -> Result<(), Failure> {
        let name = match format {
            Format::Json => "json",
            Format::Csv => "csv",
            Format::Abap => "abap",
        };
        let mut args = json!({"id": id, "format": name});
        if let Some(file) = &self.output {
            // The session writes the file, from its own working directory.
            let file = std::path::absolute(file)
                .map_err(|e| Failure::usage(format!("{}: {e}", file.display())))?;
            args["file"] = Value::String(file.display().to_string());
        }
        let result = ctx.request("export", args)?;
        if result["truncated"] == true {
            eprintln!(
                "abapdbg: warning: {} holds more rows than an export takes; {} exported",
                id,
                text(&result["rows"])
            );
        }
        if ctx.json {
            ctx.print_json(&result);
            return Ok(());
        }
        if let Some(content) = result["content"].as_str() {
            out(content);
            if !content.is_empty() && !content.ends_with('\n') {
                out("\n");
            }
            return Ok(());
        }
        let file = text(&result["file"]);
        if self.output.is_some() {
            out(&format!(
                "wrote {} rows ({} bytes) to {file}\n",
                text(&result["rows"]),
                text(&result["bytes"])
            ));
            return Ok(());
        }
        // Too large to answer inline: the session wrote it to a file of its own for us.
        let content = std::fs::read_to_string(&file)
            .map_err(|e| Failure::new("internal.bug", format!("cannot read {file}: {e}")))?;
        out(&content);
        let _ = std::fs::remove_file(&file);
        Ok(())
    }
}

/// Every row from `offset` on, page by page, as one answer.
fn all_rows(ctx: &Ctx, id: &str, offset: u32) -> Result<Value, Failure> {
    let mut result = ctx.request("table", json!({"id": id, "offset": offset, "limit": PAGE}))?;
    let epoch = result["epoch"].clone();
    let mut next = offset;
    loop {
        let got = result["rows"].as_array().map_or(0, Vec::len) as u32;
        next = next.saturating_add(got);
        if result["more"] != true || got == 0 {
            break;
        }
        // The epoch keeps every page from the same stop.
        let page = ctx.request(
            "table",
            json!({"id": id, "offset": next, "limit": PAGE, "epoch": epoch}),
        )?;
        let rows = page["rows"].as_array().cloned().unwrap_or_default();
        if let Some(all) = result["rows"].as_array_mut() {
            all.extend(rows.iter().cloned());
        }
        result["more"] = page["more"].clone();
        if rows.is_empty() {
            break;
        }
    }
    result["more"] = Value::Bool(false);
    Ok(result)
}

fn numeric(ty: &str) -> bool {
    matches!(
        ty,
        "I" | "P" | "INT8" | "8" | "b" | "s" | "F" | "DECFLOAT16" | "DECFLOAT34"
    )
}

/// The rows as a table, one column per component, and where the page lies in the table.
fn render(result: &Value, color: bool) -> String {
    let columns: Vec<&Value> = result["columns"].as_array().into_iter().flatten().collect();
    let names: Vec<String> = columns
        .iter()
        .map(|c| match text(&c["name"]) {
            n if n.is_empty() => "TABLE_LINE".to_string(),
            n => n,
        })
        .collect();
    let mut headers = vec!["#"];
    headers.extend(names.iter().map(String::as_str));
    let mut t = Table::new(&headers);
    t.align_right(0);
    for (i, c) in columns.iter().enumerate() {
        if numeric(c["type"].as_str().unwrap_or_default()) {
            t.align_right(i + 1);
        }
    }
    let rows: Vec<&Value> = result["rows"].as_array().into_iter().flatten().collect();
    for row in &rows {
        let mut cells = vec![text(&row["index"])];
        for c in &columns {
            let name = text(&c["name"]);
            let v = if name.is_empty() {
                &row["value"]
            } else {
                &row["columns"][name.as_str()]
            };
            cells.push(cut(&text(v), MAX_CELL));
        }
        t.row(cells);
    }
    let total = result["total"].as_u64().unwrap_or(0);
    if rows.is_empty() {
        return format!(
            "{} has {total} rows; none in this range\n",
            text(&result["id"])
        );
    }
    let mut s = t.render(color);
    let first = result["offset"].as_u64().unwrap_or(0);
    let last = first + rows.len() as u64;
    if result["more"] == true || first > 0 {
        let mut note = format!("rows {}–{last} of {total}", first + 1);
        if result["more"] == true {
            note.push_str(&format!("; more with --offset {last}, or --all"));
        }
        s.push_str(&paint(color, Style::Dim, &note));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_as_a_table_with_numbers_right() {
        let result = json!({"id": "LT", "total": 300, "offset": 0, "more": true,
        "columns": [{"name": "ID", "type": "I"}, {"name": "NOTE", "type": "CString"}],
        "rows": [
            {"index": 1, "columns": {"ID": "1", "NOTE": "item 1"}},
            {"index": 2, "columns": {"ID": "10", "NOTE": "item 10"}}
        ]});
        assert_eq!(
            render(&result, false),
            "#  ID  NOTE\n1   1  item 1\n2  10  item 10\nrows 1–2 of 300; more with --offset 2, or --all\n"
        );
    }

    #[test]
    fn elementary_lines_are_table_line() {
        let result = json!({"id": "LT", "total": 1, "offset": 0, "more": false,
            "columns": [{"name": "", "type": "CString"}],
            "rows": [{"index": 1, "value": "alpha"}]});
        assert_eq!(render(&result, false), "#  TABLE_LINE\n1  alpha\n");
    }
}

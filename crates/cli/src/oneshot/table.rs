//! `abapdbg table <var> [--offset --limit --all] [--format json|csv|abap [--output FILE]]`.

use std::path::PathBuf;

use clap::ValueEnum;
use jsonl::args::{ExportArgs as Export, ExportFormat, TableArgs as Page};
use jsonl::cmd;
use jsonl::results::TableResult;

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
    one answer holding every row).\n\n--format prints the whole table (with --all or without) as a \
    JSON array, RFC 4180 CSV or an ABAP VALUE #( … ) expression (the protocol's export); \
    --output writes it to a file instead."
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
    /// Every row (--format always exports every row: `--all --format csv` is all rows as CSV).
    #[arg(long)]
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
            ctx.call::<cmd::Table>(&page(&id, offset, self.limit.unwrap_or(100), None))?
        };
        if ctx.json {
            return ctx.print_json(&result);
        }
        out(&render(&result, ctx.color));
        Ok(())
    }
}

/// One page of rows of the selected frame's table `id`, of the stop `epoch` when given.
fn page(id: &str, offset: u32, limit: u32, epoch: Option<u64>) -> Page {
    Page {
        id: id.to_string(),
        offset,
        limit,
        epoch,
        thread: None,
        frame: None,
    }
}

impl TableArgs {
    fn export(&self, ctx: &Ctx, id: &str, format: Format) -> Result<(), Failure> {
        let format = match format {
            Format::Json => ExportFormat::Json,
            Format::Csv => ExportFormat::Csv,
            Format::Abap => ExportFormat::Abap,
        };
        let file = match &self.output {
            // The session writes the file, from its own working directory.
            Some(file) => Some(
                std::path::absolute(file)
                    .map_err(|e| Failure::usage(format!("{}: {e}", file.display())))?
                    .display()
                    .to_string(),
            ),
            None => None,
        };
        let result = ctx.call::<cmd::Export>(&Export {
            id: id.to_string(),
            format,
            file,
            epoch: None,
            thread: None,
            frame: None,
        })?;
        if result.truncated {
            eprintln!(
                "abapdbg: warning: {} holds more rows than an export takes; {} exported",
                id, result.rows
            );
        }
        if ctx.json {
            return ctx.print_json(&result);
        }
        if let Some(content) = &result.content {
            out(content);
            if !content.is_empty() && !content.ends_with('\n') {
                out("\n");
            }
            return Ok(());
        }
        let file = result.file.unwrap_or_default();
        if self.output.is_some() {
            out(&format!(
                "wrote {} rows ({} bytes) to {file}\n",
                result.rows, result.bytes
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
fn all_rows(ctx: &Ctx, id: &str, offset: u32) -> Result<TableResult, Failure> {
    let mut result = ctx.call::<cmd::Table>(&page(id, offset, PAGE, None))?;
    let epoch = result.epoch;
    let mut next = offset;
    loop {
        let got = u32::try_from(result.rows.len()).unwrap_or(u32::MAX);
        next = next.saturating_add(got);
        if !result.more || got == 0 {
            break;
        }
        // The epoch keeps every page from the same stop.
        let more = ctx.call::<cmd::Table>(&page(id, next, PAGE, Some(epoch)))?;
        let empty = more.rows.is_empty();
        result.rows.extend(more.rows);
        result.more = more.more;
        if empty {
            break;
        }
    }
    result.more = false;
    Ok(result)
}

fn numeric(ty: &str) -> bool {
    matches!(
        ty,
        "I" | "P" | "INT8" | "8" | "b" | "s" | "F" | "DECFLOAT16" | "DECFLOAT34"
    )
}

/// The rows as a table, one column per component, and where the page lies in the table.
fn render(result: &TableResult, color: bool) -> String {
    let names: Vec<String> = result
        .columns
        .iter()
        .map(|c| match c.name.as_str() {
            "" => "TABLE_LINE".to_string(),
            n => n.to_string(),
        })
        .collect();
    let mut headers = vec!["#"];
    headers.extend(names.iter().map(String::as_str));
    let mut t = Table::new(&headers);
    t.align_right(0);
    for (i, c) in result.columns.iter().enumerate() {
        if numeric(&c.technical_type) {
            t.align_right(i + 1);
        }
    }
    for row in &result.rows {
        let mut cells = vec![row.index.to_string()];
        for c in &result.columns {
            // A cell is a free-form value (a component may be a nested structure).
            let v = if c.name.is_empty() {
                row.value.clone().unwrap_or_default()
            } else {
                row.columns
                    .as_ref()
                    .and_then(|cols| cols.get(&c.name))
                    .map(text)
                    .unwrap_or_default()
            };
            cells.push(cut(&v, MAX_CELL));
        }
        t.row(cells);
    }
    let total = result.total;
    if result.rows.is_empty() {
        return format!("{} has {total} rows; none in this range\n", result.id);
    }
    let mut s = t.render(color);
    let first = u64::from(result.offset);
    let last = first + result.rows.len() as u64;
    if result.more || first > 0 {
        let mut note = format!("rows {}–{last} of {total}", first + 1);
        if result.more {
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
    use serde_json::json;

    fn parsed(value: serde_json::Value) -> TableResult {
        serde_json::from_value(value).expect("a table page")
    }

    #[test]
    fn rows_as_a_table_with_numbers_right() {
        let result = parsed(json!({"epoch": 1, "id": "LT", "total": 300, "offset": 0,
        "more": true, "columns": [{"name": "ID", "type": "I", "meta": "simple"},
            {"name": "NOTE", "type": "CString", "meta": "string"}],
        "rows": [
            {"index": 1, "id": "LT[1]", "columns": {"ID": "1", "NOTE": "item 1"}},
            {"index": 2, "id": "LT[2]", "columns": {"ID": "10", "NOTE": "item 10"}}
        ]}));
        assert_eq!(
            render(&result, false),
            "#  ID  NOTE\n1   1  item 1\n2  10  item 10\nrows 1–2 of 300; more with --offset 2, or --all\n"
        );
    }

    #[test]
    fn elementary_lines_are_table_line() {
        let result = parsed(json!({"epoch": 1, "id": "LT", "total": 1, "offset": 0,
            "more": false, "columns": [{"name": "", "type": "CString", "meta": "string"}],
            "rows": [{"index": 1, "id": "LT[1]", "value": "alpha"}]}));
        assert_eq!(render(&result, false), "#  TABLE_LINE\n1  alpha\n");
    }
}

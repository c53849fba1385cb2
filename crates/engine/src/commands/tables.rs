//! Internal tables: `table` (rows as records, paged) and `export` (the whole table as JSON,
//! CSV or an ABAP `VALUE #( … )`, streamed page by page to a file, inline when small).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use jsonl::args::{ExportArgs, ExportFormat, TableArgs, decode};
use jsonl::results::ExportResult;
use jsonl::{ErrorBody, ErrorCode};
use serde_json::Value;

use super::inspect::{check_epoch, not_found, short_name_of};
use crate::at::{At, resolve};
use crate::engine::Engine;
use crate::reads::{Children, ReadError, Reader, split};
use crate::table_json::{Cell, Page, Row};
use crate::to_proto::{self, display_text};

/// Rows read per request to the system.
const PAGE: u32 = 500;
/// Exports larger than this go to a file instead of into the response.
const INLINE_LIMIT: usize = 1 << 20;
/// Rows `export` reads at most.
const MAX_EXPORT_ROWS: u32 = 1_000_000;

/// Where rows come from: the stop's reads (a `table` page, kept so it is not read twice) or
/// the system directly (an export streams far more rows than are worth keeping).
enum Source<'a> {
    Kept(&'a Reader<'a>),
    /// Read with the session held at the request's frame, one page at a time.
    Direct(&'a Engine, &'a At),
}

impl Source<'_> {
    /// The children of `parents`, one entry per parent in the order asked.
    async fn children(&self, parents: &[String]) -> Result<Vec<Arc<Children>>, ReadError> {
        match self {
            Source::Kept(r) => r.children(parents).await,
            Source::Direct(engine, at) => {
                let _at = at.positioned(engine).await?;
                Ok(split(parents, at.client.child_variables(parents).await?))
            }
        }
    }

    async fn variables(&self, ids: &[String]) -> Result<Vec<adt::Variable>, ReadError> {
        match self {
            Source::Kept(r) => r.variables(ids).await,
            Source::Direct(engine, at) => {
                let _at = at.positioned(engine).await?;
                Ok(at.client.variables(ids).await?)
            }
        }
    }
}

/// The table's own record, refusing anything that is not a table.
async fn table_record(reader: &Reader<'_>, id: &str) -> Result<adt::Variable, ErrorBody> {
    let own = reader
        .variables(&[id.to_string()])
        .await
        .map_err(|e| e.describe("reading the table"))?;
    a_table(id, own.into_iter().next())
}

/// `record` if it is a table's.
fn a_table(id: &str, record: Option<adt::Variable>) -> Result<adt::Variable, ErrorBody> {
    let Some(record) = record else {
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

/// A cell of the record `v`; its texts are most often short enough to be kept inline (a
/// page is a thousand cells).
pub(crate) fn cell_of(name: &str, v: &adt::Variable) -> Cell {
    Cell {
        name: name.into(),
        value: display_text(v).as_ref().into(),
        technical_type: v.technical_type.clone(),
        meta: v.meta_type.clone(),
    }
}

/// Rows `first..=last` (1-based): the components of all rows in one call, then the values of
/// rows of an elementary line type in one more. `elementary` remembers the line type once a
/// page showed it (`Some(true)`: rows have no components; only the values are read).
async fn read_rows(
    source: &Source<'_>,
    id: &str,
    (first, last): (u32, u32),
    elementary: &mut Option<bool>,
    read: Option<Vec<Arc<Children>>>,
) -> Result<Vec<Row>, ErrorBody> {
    if first > last {
        return Ok(Vec::new());
    }
    let row_ids: Vec<String> = (first..=last).map(|i| format!("{id}[{i}]")).collect();
    let mut rows: Vec<Row> = row_ids
        .iter()
        .enumerate()
        .map(|(n, row_id)| Row {
            index: first + n as u32,
            id: row_id.clone(),
            cells: Vec::new(),
        })
        .collect();
    if *elementary != Some(true) {
        // The components of the rows: already read along with the table's record, or now.
        let kids = match read {
            Some(kids) => kids,
            None => source
                .children(&row_ids)
                .await
                .map_err(|e| e.describe("reading table rows"))?,
        };
        // One entry per row asked, in order.
        for (row, kids) in rows.iter_mut().zip(&kids) {
            row.cells = kids
                .named()
                .map(|(_, v)| cell_of(short_name_of(&v.id), v))
                .collect();
        }
        if rows.iter().any(|r| !r.cells.is_empty()) {
            *elementary = Some(false);
        }
    }
    let flat: Vec<String> = rows
        .iter()
        .filter(|r| r.cells.is_empty())
        .map(|r| r.id.clone())
        .collect();
    if !flat.is_empty() && *elementary != Some(false) {
        let values = source
            .variables(&flat)
            .await
            .map_err(|e| e.describe("reading table rows"))?;
        let by_id: HashMap<&str, &adt::Variable> =
            values.iter().map(|v| (v.id.as_str(), v)).collect();
        for row in rows.iter_mut().filter(|r| r.cells.is_empty()) {
            if let Some(v) = by_id.get(row.id.as_str()) {
                row.cells.push(cell_of("", v));
            }
        }
        if rows.iter().any(|r| !r.cells.is_empty()) {
            *elementary = Some(true);
        }
    }
    Ok(rows)
}

pub(crate) async fn table(engine: &Arc<Engine>, args: &Value) -> Result<Page, ErrorBody> {
    let args: TableArgs = decode("table", args)?;
    let epoch = check_epoch(engine, args.epoch)?;
    let at = resolve(engine, args.thread, args.frame)?;
    let reader = Reader { engine, at: &at };
    let id = args.id.trim().to_uppercase();
    let first = args.offset.saturating_add(1);
    let wanted = args.offset.saturating_add(args.limit.min(10_000));
    // The table's record and the page's rows in one round trip (rows past the end are
    // skipped by the system), unless the record was read before.
    let row_ids: Vec<String> = (first..=wanted).map(|i| format!("{id}[{i}]")).collect();
    let (record, read) = reader
        .record_with_children(&id, &row_ids)
        .await
        .map_err(|e| e.describe("reading the table"))?;
    let record = a_table(&id, record)?;
    let max = engine.lock().limits.max_value_chars;
    let total = record.table_lines;
    let last = wanted.min(total);
    let rows = read_rows(&Source::Kept(&reader), &id, (first, last), &mut None, read).await?;
    Ok(Page {
        epoch,
        id,
        total,
        offset: args.offset,
        columns: to_proto::columns(&rows),
        rows,
        more: last < total,
        max,
    })
}

fn write_error(path: &Path, e: &std::io::Error) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::InvalidArgs,
        format!("cannot write {}: {e}", path.display()),
    )
    .with_hint("give a writable \"file\"")
}

/// Streams the whole table to a file, page by page (memory bounded by a page, whatever the
/// table's size); answers the file, or its content when no file was asked for and it is
/// small.
pub(crate) async fn export(engine: &Arc<Engine>, args: &Value) -> Result<ExportResult, ErrorBody> {
    let args: ExportArgs = decode("export", args)?;
    let epoch = check_epoch(engine, args.epoch)?;
    let at = resolve(engine, args.thread, args.frame)?;
    let reader = Reader { engine, at: &at };
    let id = args.id.trim().to_uppercase();
    let record = table_record(&reader, &id).await?;
    let total = record.table_lines.min(MAX_EXPORT_ROWS);
    // Opening never blocks (a FIFO fails at once) and never follows a link; without a
    // `file`, the export is a new 0600 file in the session's own 0700 directory.
    let (path, file) = match &args.file {
        Some(f) => {
            let path = PathBuf::from(f);
            let file = crate::export_file::open_named(&path).map_err(|e| write_error(&path, &e))?;
            (path, file)
        }
        None => {
            let stem = id.replace(['/', '[', ']', '-', '>', '<', '*'], "_");
            let ext = match args.format {
                ExportFormat::Json => "json",
                ExportFormat::Csv => "csv",
                ExportFormat::Abap => "abap",
            };
            engine
                .exports
                .create(&stem, ext)
                .map_err(|e| write_error(Path::new("the session's export directory"), &e))?
        }
    };
    let mut out = Export::new(
        std::io::BufWriter::with_capacity(1 << 16, file),
        args.format,
    );
    let written = stream_rows(engine, &at, &id, epoch, total, &mut out, &path).await;
    let written = written.and_then(|()| out.finish().map_err(|e| write_error(&path, &e)));
    let (rows, bytes) = match written {
        Ok(done) => done,
        Err(e) => {
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
    };
    let mut result = ExportResult {
        epoch,
        id,
        rows,
        truncated: record.table_lines > total,
        bytes,
        content: None,
        file: None,
    };
    if args.file.is_none() && bytes <= INLINE_LIMIT as u64 {
        let content = std::fs::read_to_string(&path);
        let _ = std::fs::remove_file(&path);
        result.content = Some(content.map_err(|e| write_error(&path, &e))?);
    } else {
        result.file = Some(path.display().to_string());
    }
    Ok(result)
}

/// Reads rows `1..=total` a page at a time into `out`, refusing to go on when the program
/// moved meanwhile (the rows would mix two stops).
async fn stream_rows<W: Write>(
    engine: &Engine,
    at: &At,
    id: &str,
    epoch: u64,
    total: u32,
    out: &mut Export<W>,
    path: &Path,
) -> Result<(), ErrorBody> {
    let source = Source::Direct(engine, at);
    let mut elementary = None;
    let mut first = 1;
    while first <= total {
        check_epoch(engine, Some(epoch))?;
        let last = first.saturating_add(PAGE - 1).min(total);
        let rows = read_rows(&source, id, (first, last), &mut elementary, None).await?;
        for row in &rows {
            out.row(row).map_err(|e| write_error(path, &e))?;
        }
        first = last + 1;
    }
    check_epoch(engine, Some(epoch))?;
    Ok(())
}

fn is_numeric(t: &str) -> bool {
    matches!(
        t,
        "I" | "P" | "INT8" | "8" | "b" | "s" | "F" | "DECFLOAT16" | "DECFLOAT34"
    )
}

/// Counts what goes through to the writer.
struct Counted<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// An export being written, one row at a time: JSON (compact, keys in column order),
/// RFC 4180 CSV with a header line, or an ABAP `VALUE #( … )`.
pub(crate) struct Export<W: Write> {
    out: Counted<W>,
    format: ExportFormat,
    rows: u64,
}

impl<W: Write> Export<W> {
    pub(crate) fn new(out: W, format: ExportFormat) -> Self {
        Export {
            out: Counted {
                inner: out,
                bytes: 0,
            },
            format,
            rows: 0,
        }
    }

    pub(crate) fn row(&mut self, row: &Row) -> std::io::Result<()> {
        let first = self.rows == 0;
        self.rows += 1;
        let out = &mut self.out;
        match self.format {
            ExportFormat::Json => {
                out.write_all(if first { b"[" } else { b"," })?;
                match row.cells.as_slice() {
                    [only] if only.name.is_empty() => json_cell(out, only)?,
                    cells => {
                        out.write_all(b"{")?;
                        for (i, c) in cells.iter().enumerate() {
                            if i > 0 {
                                out.write_all(b",")?;
                            }
                            serde_json::to_writer(&mut *out, c.name.as_str())?;
                            out.write_all(b":")?;
                            json_cell(out, c)?;
                        }
                        out.write_all(b"}")?;
                    }
                }
            }
            ExportFormat::Csv => {
                if first {
                    let header: Vec<String> = match row.cells.as_slice() {
                        [only] if only.name.is_empty() => vec!["TABLE_LINE".to_string()],
                        cells => cells.iter().map(|c| csv_quote(&c.name)).collect(),
                    };
                    out.write_all(header.join(",").as_bytes())?;
                    out.write_all(b"\r\n")?;
                }
                let line: Vec<String> = row.cells.iter().map(|c| csv_quote(&c.value)).collect();
                out.write_all(line.join(",").as_bytes())?;
                out.write_all(b"\r\n")?;
            }
            ExportFormat::Abap => {
                if first {
                    out.write_all(b"VALUE #(")?;
                }
                out.write_all(b"\n  ( ")?;
                match row.cells.as_slice() {
                    [only] if only.name.is_empty() => {
                        out.write_all(abap_literal(only).as_bytes())?;
                    }
                    cells => {
                        let parts: Vec<String> = cells
                            .iter()
                            .map(|c| format!("{} = {}", c.name.to_lowercase(), abap_literal(c)))
                            .collect();
                        out.write_all(parts.join(" ").as_bytes())?;
                    }
                }
                out.write_all(b" )")?;
            }
        }
        Ok(())
    }

    /// Closes the document: (rows, bytes).
    pub(crate) fn finish(mut self) -> std::io::Result<(u64, u64)> {
        let empty = self.rows == 0;
        let out = &mut self.out;
        match self.format {
            ExportFormat::Json => out.write_all(if empty { b"[]" } else { b"]" })?,
            ExportFormat::Csv if empty => out.write_all(b"\r\n")?,
            ExportFormat::Csv => {}
            ExportFormat::Abap => {
                if empty {
                    out.write_all(b"VALUE #(")?;
                }
                out.write_all(b"\n)")?;
            }
        }
        out.flush()?;
        Ok((self.rows, self.out.bytes))
    }
}

/// A cell as JSON: numbers as numbers (when they survive as JSON numbers), else text.
fn json_cell(out: &mut impl Write, c: &Cell) -> std::io::Result<()> {
    if is_numeric(&c.technical_type)
        && let Ok(n) = c.value.trim().parse::<serde_json::Number>()
    {
        return serde_json::to_writer(out, &n).map_err(std::io::Error::from);
    }
    serde_json::to_writer(out, c.value.as_str()).map_err(std::io::Error::from)
}

/// RFC 4180 quoting; values quoted when needed, blanks kept.
fn csv_quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) || s.starts_with(' ') || s.ends_with(' ') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A cell as an ABAP literal, ready to paste into a unit test.
fn abap_literal(c: &Cell) -> String {
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
}

/// The whole document for `rows` in `format` (what an export of them writes).
#[cfg(test)]
pub(crate) fn render(rows: &[Row], format: ExportFormat) -> String {
    let mut buf = Vec::new();
    let mut out = Export::new(&mut buf, format);
    for r in rows {
        let _ = out.row(r);
    }
    let _ = out.finish();
    String::from_utf8(buf).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn columns_json(rows: &[Row]) -> Value {
        to_proto::json(&to_proto::columns(rows))
    }

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
        let v: Value =
            serde_json::from_str(&render(&rows(), ExportFormat::Json)).unwrap_or_default();
        assert_eq!(v[0]["ID"], 7);
        assert_eq!(v[0]["PRICE"], -12.5);
        assert_eq!(v[0]["CODE"], "X1  ", "character blanks are kept");
        assert_eq!(v[1]["NAME"], "it's");
        let flat = vec![Row {
            index: 1,
            id: "LT[1]".into(),
            cells: vec![cell("", "5", "I")],
        }];
        assert_eq!(render(&flat, ExportFormat::Json), "[5]");
    }

    #[test]
    fn json_is_compact_with_keys_in_column_order() {
        assert_eq!(
            render(&rows(), ExportFormat::Json),
            // Numbers keep the digits the system sent (packed decimals keep their places).
            r#"[{"ID":7,"NAME":"A, \"b\"","CODE":"X1  ","PRICE":-12.50},{"ID":8,"NAME":"it's","CODE":"O'K ","PRICE":3.00}]"#
        );
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
        let csv = render(&rows(), ExportFormat::Csv);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines[0], "ID,NAME,CODE,PRICE");
        assert_eq!(lines[1], "7,\"A, \"\"b\"\"\",\"X1  \",-12.50");
        assert_eq!(lines[2], "8,it's,\"O'K \",3.00");
        assert_eq!(render(&[], ExportFormat::Csv), "\r\n");
        assert_eq!(render(&[], ExportFormat::Json), "[]");
        assert_eq!(render(&[], ExportFormat::Abap), "VALUE #(\n)");
    }

    #[test]
    fn abap_value_expression_is_pasteable() {
        let abap = render(&rows(), ExportFormat::Abap);
        assert_eq!(
            abap,
            "VALUE #(\n  ( id = 7 name = `A, \"b\"` code = 'X1' price = '-12.50' )\n  ( id = 8 name = `it's` code = 'O''K' price = '3.00' )\n)"
        );
    }
}

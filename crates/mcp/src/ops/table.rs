//! `abap_table`: pages of rows as objects, and `where` judged page by page under `max_scan`.

use jsonl::args::TableArgs;
use jsonl::cmd;
use jsonl::results::{Column, TableResult, TableRow};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{Answered, Call, answered, max_chars, thread_or_current};
use crate::condition::Condition;
use crate::error::ToolError;
use crate::view;

/// Rows read per request while `where` scans a table.
const SCAN_PAGE: u32 = 1000;
const DEFAULT_MAX_SCAN: u64 = 100_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TableToolArgs {
    path: String,
    thread: Option<u32>,
    frame: Option<usize>,
    offset: Option<u32>,
    limit: Option<u32>,
    columns: Option<Vec<String>>,
    #[serde(rename = "where")]
    condition: Option<String>,
    max_scan: Option<u64>,
    max_chars: Option<usize>,
}

/// A row as the tool shows it: values by column (only `keep` when given), cut at `max`.
fn row(r: &TableRow, keep: Option<&[String]>, max: usize) -> Value {
    let mut truncated = Vec::new();
    let mut clip = |name: &str, v: &Value| match v.as_str() {
        Some(s) => {
            let (text, cut) = view::cut(s, max);
            if cut.is_some() {
                truncated.push(name.to_string());
            }
            json!(text)
        }
        None => v.clone(),
    };
    let mut out = json!({"index": r.index});
    if let Some(cols) = &r.columns {
        let values: Map<String, Value> = cols
            .iter()
            .filter(|(k, _)| keep.is_none_or(|keep| keep.iter().any(|c| c.eq_ignore_ascii_case(k))))
            .map(|(k, v)| (k.clone(), clip(k, v)))
            .collect();
        out["values"] = Value::Object(values);
    }
    if let Some(v) = &r.value {
        out["value"] = clip("TABLE_LINE", &json!(v));
    }
    if !truncated.is_empty() {
        out["truncated"] = json!(truncated);
    }
    out
}

/// What a `where` scan found.
struct Scan {
    rows: Vec<Value>,
    scanned: u64,
    /// Where to continue; `None` when the scan reached the end of the table.
    next: Option<u32>,
    total: u32,
    epoch: Option<u64>,
    columns: Vec<Column>,
}

/// Reads pages (`page(offset, limit, epoch)`, at most [`SCAN_PAGE`] rows and never beyond
/// `max_scan` in all) from `from` on and keeps the rows `condition` holds for, until `limit`
/// rows are kept, `max_scan` rows are read or the table ends. Pages after the first name the
/// first one's epoch, so a program that moved on meanwhile fails the scan instead of mixing
/// two stops.
fn scan(
    page: &dyn Fn(u32, u32, Option<u64>) -> Result<TableResult, ToolError>,
    condition: &Condition,
    from: u32,
    limit: u32,
    max_scan: u64,
    shape: &dyn Fn(&TableRow) -> Value,
) -> Result<Scan, ToolError> {
    let mut rows = Vec::new();
    let mut scanned: u64 = 0;
    let mut at = from;
    let mut epoch = None;
    let mut total = 0;
    let mut columns = Vec::new();
    let mut reached_end = false;
    'scan: while scanned < max_scan && rows.len() < limit as usize {
        let want =
            u32::try_from((max_scan - scanned).min(u64::from(SCAN_PAGE))).unwrap_or(SCAN_PAGE);
        let p = page(at, want, epoch)?;
        epoch = Some(p.epoch);
        total = p.total;
        if columns.is_empty() {
            columns = p.columns.clone();
        }
        if p.rows.is_empty() {
            reached_end = true;
            break;
        }
        for r in &p.rows {
            scanned += 1;
            at += 1;
            let cell = |name: &str| -> Option<String> {
                if name == "TABLE_LINE"
                    && let Some(v) = &r.value
                {
                    return Some(v.clone());
                }
                r.columns.as_ref().and_then(|c| {
                    c.iter()
                        .find(|(k, _)| k.eq_ignore_ascii_case(name))
                        .map(|(_, v)| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                })
            };
            let known = || {
                r.columns
                    .as_ref()
                    .map(|c| c.keys().cloned().collect::<Vec<_>>().join(", "))
                    .unwrap_or_else(|| "TABLE_LINE".into())
            };
            if condition.holds(&cell, &known)? {
                rows.push(shape(r));
                if rows.len() >= limit as usize {
                    break 'scan;
                }
            }
        }
        if !p.more {
            reached_end = true;
            break;
        }
    }
    if at >= total {
        reached_end = true;
    }
    Ok(Scan {
        rows,
        scanned,
        next: (!reached_end).then_some(at),
        total,
        epoch,
        columns,
    })
}

pub(super) fn table(call: &Call, a: TableToolArgs) -> Result<Answered, ToolError> {
    let thread = thread_or_current(call, a.thread)?;
    let frame = a.frame.unwrap_or(0);
    let max = max_chars(a.max_chars);
    let limit = a.limit.unwrap_or(50).clamp(1, 1000);
    let offset = a.offset.unwrap_or(0);
    let keep = a.columns.as_deref();
    let condition = a.condition.as_deref().map(Condition::parse).transpose()?;
    let page = |offset: u32, limit: u32, epoch: Option<u64>| {
        call.link.call::<cmd::Table>(
            &TableArgs {
                id: a.path.clone(),
                offset,
                limit,
                epoch,
                thread: Some(thread),
                frame: Some(frame),
            },
            call.cancelled,
        )
    };
    let Some(condition) = condition else {
        let p = page(offset, limit, None)?;
        let rows: Vec<Value> = p.rows.iter().map(|r| row(r, keep, max)).collect();
        let next = p
            .more
            .then(|| offset + u32::try_from(p.rows.len()).unwrap_or(u32::MAX));
        let summary = format!(
            "{}: rows {}..{} of {}",
            a.path,
            offset + 1,
            offset + u32::try_from(rows.len()).unwrap_or(0),
            p.total
        );
        return answered(
            json!({
                "path": a.path, "epoch": p.epoch, "total": p.total, "columns": p.columns,
                "rows": rows, "matched": p.rows.len(), "next_offset": next,
            }),
            summary,
        );
    };
    let max_scan = a.max_scan.unwrap_or(DEFAULT_MAX_SCAN).max(1);
    let Scan {
        rows,
        scanned,
        next,
        total,
        epoch,
        columns,
    } = scan(&page, &condition, offset, limit, max_scan, &|r| {
        row(r, keep, max)
    })?;
    let summary = format!(
        "{}: {} matching row(s) among {} scanned from row {} of {}{}",
        a.path,
        rows.len(),
        scanned,
        offset + 1,
        total,
        match next {
            Some(n) => format!("; continue with offset {n}"),
            None => "; reached the end".into(),
        }
    );
    answered(
        json!({
            "path": a.path, "epoch": epoch, "total": total, "columns": columns,
            "matched": rows.len(), "rows": rows, "scanned": scanned, "next_offset": next,
        }),
        summary,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of `n` rows (`ID` = index) served in pages as the session serves them;
    /// `calls` records each page asked for.
    fn table_of(
        n: u32,
        calls: &std::cell::RefCell<Vec<(u32, u32, Option<u64>)>>,
    ) -> impl Fn(u32, u32, Option<u64>) -> Result<TableResult, ToolError> + '_ {
        move |offset, limit, epoch| {
            calls.borrow_mut().push((offset, limit, epoch));
            let end = n.min(offset.saturating_add(limit));
            let rows = (offset..end)
                .map(|i| TableRow {
                    index: i + 1,
                    id: format!("LT[{}]", i + 1),
                    value: None,
                    columns: Some(Map::from_iter([(
                        "ID".to_string(),
                        json!((i + 1).to_string()),
                    )])),
                })
                .collect();
            Ok(TableResult {
                epoch: 7,
                id: "LT".into(),
                total: n,
                offset,
                columns: vec![],
                rows,
                more: end < n,
            })
        }
    }

    fn run(
        n: u32,
        condition: &str,
        from: u32,
        limit: u32,
        max_scan: u64,
    ) -> (Scan, Vec<(u32, u32, Option<u64>)>) {
        let calls = std::cell::RefCell::new(Vec::new());
        let page = table_of(n, &calls);
        let c = Condition::parse(condition).expect("condition");
        let s = scan(&page, &c, from, limit, max_scan, &|r| json!(r.index)).expect("scan");
        drop(page);
        (s, calls.into_inner())
    }

    fn indexes(s: &Scan) -> Vec<u64> {
        s.rows.iter().filter_map(Value::as_u64).collect()
    }

    #[test]
    fn scans_page_by_page_to_the_end() {
        let (s, calls) = run(2500, "ID > 2497", 0, 50, 100_000);
        assert_eq!(indexes(&s), vec![2498, 2499, 2500]);
        assert_eq!(
            (s.scanned, s.next, s.total, s.epoch),
            (2500, None, 2500, Some(7))
        );
        // Pages of a thousand; every page after the first names the first one's epoch.
        assert_eq!(
            calls,
            vec![
                (0, 1000, None),
                (1000, 1000, Some(7)),
                (2000, 1000, Some(7))
            ]
        );
    }

    #[test]
    fn stops_at_limit_and_says_where_to_go_on() {
        let (s, _) = run(300, "ID > 10", 0, 3, 100_000);
        assert_eq!(indexes(&s), vec![11, 12, 13]);
        assert_eq!((s.scanned, s.next), (13, Some(13)));
        let (s, _) = run(300, "ID > 10", 13, 2, 100_000);
        assert_eq!(indexes(&s), vec![14, 15]);
        // The limit reached at the last row: nothing is left to scan.
        let (s, _) = run(300, "ID > 298", 0, 2, 100_000);
        assert_eq!((indexes(&s), s.next), (vec![299, 300], None));
    }

    #[test]
    fn never_reads_more_than_max_scan() {
        let (s, calls) = run(5000, "ID = 4000", 0, 10, 1500);
        assert!(s.rows.is_empty());
        assert_eq!((s.scanned, s.next), (1500, Some(1500)));
        assert_eq!(calls, vec![(0, 1000, None), (1000, 500, Some(7))]);
        let (s, _) = run(300, "ID > 0", 290, 50, 5);
        assert_eq!(
            (indexes(&s), s.next),
            (vec![291, 292, 293, 294, 295], Some(295))
        );
    }

    #[test]
    fn an_empty_table_or_an_offset_beyond_it_ends_at_once() {
        let (s, calls) = run(0, "ID > 0", 0, 10, 100);
        assert_eq!((s.scanned, s.next, s.total), (0, None, 0));
        assert_eq!(calls.len(), 1);
        let (s, _) = run(10, "ID > 0", 20, 10, 100);
        assert_eq!((s.scanned, s.next), (0, None));
    }

    #[test]
    fn an_unknown_component_fails_the_scan() {
        let calls = std::cell::RefCell::new(Vec::new());
        let page = table_of(10, &calls);
        let c = Condition::parse("PRICE > 1").expect("condition");
        let e = scan(&page, &c, 0, 10, 100, &|r| json!(r.index)).err();
        assert!(e.is_some_and(|e| e.code == "protocol.invalid_args" && e.message.contains("ID")));
    }
}

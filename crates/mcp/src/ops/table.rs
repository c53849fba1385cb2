//! `abap_table`: pages of rows as objects, and `where` judged page by page under `max_scan`.

use jsonl::args::TableArgs;
use jsonl::cmd;
use jsonl::results::TableRow;
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
    let mut rows = Vec::new();
    let mut scanned: u64 = 0;
    let mut at = offset;
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
                rows.push(row(r, keep, max));
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
    let next = (!reached_end).then_some(at);
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

//! `setBreakpoints`, `setFunctionBreakpoints`, `setExceptionBreakpoints`, and what becomes of
//! them later (`breakpoint` events, hit conditions).
//!
//! Line breakpoints of a file map to the session's locations of its object and include
//! (`abapgit.rs`); each comes back verified with its line or unverified with the system's
//! reason. A file's list replaces the previous one, so only the difference is sent: kept
//! breakpoints keep their ids. Hit conditions are counted here (ADT has none): a stop at a
//! breakpoint whose count does not match is continued at once, so the program still stops on
//! the system for a moment (docs/dap.md says so); log points likewise print their message at
//! such a stop and go on. Function breakpoints are ABAP statements
//! (`CALL FUNCTION`, `RAISE EXCEPTION`); exception breakpoints are the classes named in the
//! filter's condition.

use std::collections::HashMap;

use jsonl::args::{BpIdsArgs, BpSetArgs};
use jsonl::cmd;
use jsonl::results::Breakpoint;
use serde_json::{Value, json};

use super::lifecycle::EXCEPTION_FILTER;
use super::{Adapter, Failure, Reply};
use crate::abapgit::SourceUnit;

/// A hit condition: `5` or `==5` (the fifth hit), `>5`, `>=5`, `<5`, `<=5`, `%5` (every fifth).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitCondition {
    Equal(u64),
    Greater(u64),
    AtLeast(u64),
    Less(u64),
    AtMost(u64),
    Every(u64),
}

impl HitCondition {
    pub fn parse(text: &str) -> Result<HitCondition, String> {
        let t = text.trim();
        let (op, rest) = [">=", "<=", "==", ">", "<", "=", "%"]
            .iter()
            .find_map(|op| t.strip_prefix(op).map(|r| (*op, r)))
            .unwrap_or(("==", t));
        let n: u64 = rest.trim().parse().map_err(|_| {
            format!("hit condition '{t}' is not understood: use N, >N, >=N, <N, <=N or %N")
        })?;
        Ok(match op {
            ">=" => HitCondition::AtLeast(n),
            "<=" => HitCondition::AtMost(n),
            ">" => HitCondition::Greater(n),
            "<" => HitCondition::Less(n),
            "%" if n == 0 => return Err("hit condition '%0' would never stop".into()),
            "%" => HitCondition::Every(n),
            _ => HitCondition::Equal(n),
        })
    }

    /// Whether the `count`th hit stops.
    pub fn stops_at(self, count: u64) -> bool {
        match self {
            HitCondition::Equal(n) => count == n,
            HitCondition::Greater(n) => count > n,
            HitCondition::AtLeast(n) => count >= n,
            HitCondition::Less(n) => count < n,
            HitCondition::AtMost(n) => count <= n,
            HitCondition::Every(n) => count.is_multiple_of(n),
        }
    }
}

/// One line breakpoint of a file.
#[derive(Debug, Clone)]
struct LineBp {
    line: u32,
    condition: Option<String>,
    hit: Option<String>,
    /// A log point's message (`{path}` parts are read at the stop).
    log: Option<String>,
    /// The session's record (`id`, `status`, `line`, `reason`).
    record: Breakpoint,
}

impl LineBp {
    fn id(&self) -> Option<u32> {
        Some(self.record.id)
    }
}

/// The breakpoints this adapter set on the session.
#[derive(Debug, Default)]
pub(crate) struct Registry {
    /// By file (its path, or `ref:N` for a source from the system).
    lines: HashMap<String, Vec<LineBp>>,
    /// The DAP source of each line breakpoint, for `breakpoint` events.
    source_of: HashMap<u32, Value>,
    functions: Vec<u32>,
    exceptions: Vec<u32>,
    /// Hit conditions by breakpoint id, and the hits so far.
    hits: HashMap<u32, (HitCondition, u64)>,
    /// Log points by breakpoint id: their messages.
    logs: HashMap<u32, String>,
}

/// What a stop at breakpoints comes to once hit conditions and log points are counted.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// Some breakpoint (or a stop not at ours) wants the program shown stopped.
    pub(crate) stop: bool,
    /// Messages of the log points whose hit condition holds, in the order hit.
    pub(crate) logs: Vec<String>,
}

impl Registry {
    /// Every breakpoint id we own.
    pub(crate) fn all_ids(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = self
            .lines
            .values()
            .flatten()
            .filter_map(LineBp::id)
            .chain(self.functions.iter().copied())
            .chain(self.exceptions.iter().copied())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    pub(crate) fn clear(&mut self) {
        *self = Registry::default();
    }

    /// Counts a stop at `hit` (our ids and others'): whether it is one to show, and the log
    /// points to print.
    pub(crate) fn judge(&mut self, hit: &[u32]) -> Verdict {
        if hit.is_empty() {
            return Verdict {
                stop: true,
                logs: Vec::new(),
            };
        }
        let mut verdict = Verdict::default();
        for id in hit {
            let counted = match self.hits.get_mut(id) {
                Some((cond, count)) => {
                    *count += 1;
                    cond.stops_at(*count)
                }
                None => true,
            };
            match self.logs.get(id) {
                Some(message) if counted => verdict.logs.push(message.clone()),
                Some(_) => {}
                None => verdict.stop |= counted,
            }
        }
        verdict
    }

    /// Whether a stop at `hit` is one of our function (statement) breakpoints.
    pub(crate) fn is_function(&self, hit: &[u32]) -> bool {
        hit.iter().any(|id| self.functions.contains(id))
    }

    /// Whether `id` is one of ours.
    pub(crate) fn owns(&self, id: u32) -> bool {
        self.all_ids().contains(&id)
    }
}

/// `bp.set` arguments with nothing asked yet; enabled, as the protocol's default is (the
/// derived `Default` would say disabled).
fn new_bp() -> BpSetArgs {
    BpSetArgs {
        enabled: true,
        ..BpSetArgs::default()
    }
}

/// A line breakpoint asked for and not set yet.
#[derive(Debug, Clone)]
struct NewBp {
    line: u32,
    condition: Option<String>,
    hit: Option<String>,
    log: Option<String>,
}

/// The answer to one breakpoint of a `setBreakpoints` request, as it takes shape.
enum Answer {
    /// Made here (not a line, a bad hit condition).
    Made(Value),
    /// A breakpoint the file had already: its record.
    Kept(Box<Breakpoint>),
    /// A new one: its index among those sent.
    New(usize),
}

/// The DAP source a request names, and the key its breakpoints are kept under.
fn named_source(adapter: &Adapter, source: &Value) -> Result<(SourceUnit, String), String> {
    if let Some(path) = source["path"].as_str() {
        return SourceUnit::from_path(&crate::sources::uri_to_path(path))
            .map(|u| (u, path.to_string()))
            .map_err(|e| e.to_string());
    }
    if let Some(r) = source["sourceReference"].as_i64()
        && let Some(unit) = adapter.sources.by_reference(r)
    {
        return Ok((unit.clone(), format!("ref:{r}")));
    }
    Err("the source has neither a path nor a known sourceReference".into())
}

impl Adapter {
    /// A session breakpoint record as a DAP breakpoint.
    fn dap_breakpoint(&self, record: &Breakpoint, source: Option<&Value>) -> Value {
        let status = record.status.as_str();
        let mut bp = json!({"verified": status == "verified", "id": record.id});
        if let Some(line) = record.line {
            bp["line"] = json!(self.client_line(u64::from(line)));
        }
        if let Some(source) = source {
            bp["source"] = source.clone();
        }
        let message = match status {
            "rejected" => Some(
                record
                    .reason
                    .clone()
                    .unwrap_or_else(|| "the system refused the breakpoint".to_string()),
            ),
            "pending" => Some("pending: the system has not answered yet".to_string()),
            "disabled" => Some("disabled".to_string()),
            _ => None,
        };
        if let Some(m) = message {
            bp["message"] = json!(m);
        }
        bp
    }

    fn unverified(message: &str) -> Value {
        json!({"verified": false, "message": message})
    }

    /// `bp.set` with these arguments: the records in order, or why it failed.
    fn bp_set(&self, args: &BpSetArgs) -> Result<Vec<Breakpoint>, String> {
        self.request::<cmd::BpSet>(args)
            .map(|r| r.breakpoints)
            .map_err(|Failure(m)| m)
    }

    fn bp_delete(&mut self, ids: &[u32]) {
        if ids.is_empty() {
            return;
        }
        for id in ids {
            self.bps.hits.remove(id);
            self.bps.logs.remove(id);
            self.bps.source_of.remove(id);
        }
        let args = BpIdsArgs {
            ids: ids.to_vec(),
            ..BpIdsArgs::default()
        };
        if let Err(Failure(m)) = self.request::<cmd::BpDelete>(&args) {
            self.console(&format!("abapdbg: removing breakpoints {ids:?}: {m}"));
        }
    }

    pub(super) fn set_breakpoints(&mut self, args: &Value) -> Reply {
        self.link()?;
        let wanted: Vec<Value> = args["breakpoints"].as_array().cloned().unwrap_or_default();
        let source = args["source"].clone();
        let (unit, key) = match named_source(self, &source) {
            Ok(found) => found,
            Err(why) => {
                let bps: Vec<Value> = wanted.iter().map(|_| Self::unverified(&why)).collect();
                return Ok(Some(json!({ "breakpoints": bps })));
            }
        };
        if let Some(path) = source["path"].as_str() {
            self.sources.remember(&crate::sources::uri_to_path(path));
        }
        let mut old = self.bps.lines.remove(&key).unwrap_or_default();
        let mut kept: Vec<LineBp> = Vec::new();
        // Per wanted breakpoint: an answer made here, a kept record, or the index into
        // `to_add`.
        let mut answers: Vec<Answer> = Vec::new();
        // New breakpoints, their records still to come.
        let mut to_add: Vec<NewBp> = Vec::new();
        for bp in &wanted {
            let line = bp["line"].as_i64().and_then(|l| self.abap_line(l));
            let Some(line) = line else {
                answers.push(Answer::Made(Self::unverified("not a line number")));
                continue;
            };
            let condition = bp["condition"]
                .as_str()
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(String::from);
            let hit = bp["hitCondition"]
                .as_str()
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(String::from);
            let log = bp["logMessage"]
                .as_str()
                .filter(|m| !m.trim().is_empty())
                .map(String::from);
            if let Some(h) = &hit
                && let Err(why) = HitCondition::parse(h)
            {
                answers.push(Answer::Made(Self::unverified(&why)));
                continue;
            }
            let same = old
                .iter()
                .position(|o| o.line == line && o.condition == condition);
            match same {
                Some(i) => {
                    let mut bp = old.remove(i);
                    bp.hit = hit;
                    bp.log = log;
                    answers.push(Answer::Kept(Box::new(bp.record.clone())));
                    kept.push(bp);
                }
                None => {
                    answers.push(Answer::New(to_add.len()));
                    to_add.push(NewBp {
                        line,
                        condition,
                        hit,
                        log,
                    });
                }
            }
        }
        let gone: Vec<u32> = old.iter().filter_map(LineBp::id).collect();
        self.bp_delete(&gone);
        // One `bp.set` per distinct condition: the session takes one condition per request.
        let mut added: Vec<Result<Breakpoint, String>> = vec![Err(String::new()); to_add.len()];
        let mut conditions: Vec<Option<String>> =
            to_add.iter().map(|t| t.condition.clone()).collect();
        conditions.dedup();
        conditions.sort();
        conditions.dedup();
        for condition in conditions {
            let idx: Vec<usize> = (0..to_add.len())
                .filter(|i| to_add[*i].condition == condition)
                .collect();
            let set_args = BpSetArgs {
                locations: idx.iter().map(|i| unit.location(to_add[*i].line)).collect(),
                condition: condition.clone(),
                ..new_bp()
            };
            match self.bp_set(&set_args) {
                Ok(records) => {
                    for (i, record) in idx.iter().zip(records) {
                        added[*i] = Ok(record);
                    }
                }
                Err(why) => {
                    for i in idx {
                        added[i] = Err(why.clone());
                    }
                }
            }
        }
        let mut out = Vec::new();
        for answer in answers {
            let record = match answer {
                Answer::Made(made) => {
                    out.push(made);
                    continue;
                }
                Answer::Kept(record) => *record,
                Answer::New(i) => match &added[i] {
                    Ok(record) => {
                        let new = &to_add[i];
                        kept.push(LineBp {
                            line: new.line,
                            condition: new.condition.clone(),
                            hit: new.hit.clone(),
                            log: new.log.clone(),
                            record: record.clone(),
                        });
                        record.clone()
                    }
                    Err(why) => {
                        out.push(Self::unverified(why));
                        continue;
                    }
                },
            };
            out.push(self.dap_breakpoint(&record, Some(&source)));
        }
        for bp in &kept {
            if let Some(id) = bp.id() {
                self.bps.source_of.insert(id, source.clone());
                match &bp.log {
                    Some(message) => self.bps.logs.insert(id, message.clone()),
                    None => self.bps.logs.remove(&id),
                };
                match bp.hit.as_deref().map(HitCondition::parse) {
                    Some(Ok(cond)) => {
                        let count = self.bps.hits.get(&id).map(|h| h.1).unwrap_or(0);
                        self.bps.hits.insert(id, (cond, count));
                    }
                    _ => {
                        self.bps.hits.remove(&id);
                    }
                }
            }
        }
        if !kept.is_empty() {
            self.bps.lines.insert(key, kept);
        }
        Ok(Some(json!({ "breakpoints": out })))
    }

    pub(super) fn set_function_breakpoints(&mut self, args: &Value) -> Reply {
        self.link()?;
        let old = std::mem::take(&mut self.bps.functions);
        self.bp_delete(&old);
        let mut out = Vec::new();
        for bp in args["breakpoints"].as_array().into_iter().flatten() {
            let name = bp["name"].as_str().unwrap_or_default().trim().to_string();
            if name.is_empty() {
                out.push(Self::unverified("no statement named"));
                continue;
            }
            if name.contains("=>") || name.contains("->") || name.contains('~') {
                out.push(Self::unverified(
                    "ADT has no method breakpoints: set a line breakpoint in the method's source",
                ));
                continue;
            }
            let hit = bp["hitCondition"].as_str().filter(|h| !h.trim().is_empty());
            let hit = match hit.map(HitCondition::parse) {
                Some(Err(why)) => {
                    out.push(Self::unverified(&why));
                    continue;
                }
                Some(Ok(h)) => Some(h),
                None => None,
            };
            let set_args = BpSetArgs {
                statement: Some(name.to_uppercase()),
                condition: bp["condition"]
                    .as_str()
                    .filter(|c| !c.trim().is_empty())
                    .map(String::from),
                ..new_bp()
            };
            match self.bp_set(&set_args) {
                Ok(records) => {
                    let Some(record) = records.first() else {
                        out.push(Self::unverified("the session answered no breakpoint"));
                        continue;
                    };
                    self.bps.functions.push(record.id);
                    if let Some(h) = hit {
                        self.bps.hits.insert(record.id, (h, 0));
                    }
                    out.push(self.dap_breakpoint(record, None));
                }
                Err(why) => out.push(Self::unverified(&why)),
            }
        }
        Ok(Some(json!({ "breakpoints": out })))
    }

    pub(super) fn set_exception_breakpoints(&mut self, args: &Value) -> Reply {
        self.link()?;
        let old = std::mem::take(&mut self.bps.exceptions);
        self.bp_delete(&old);
        let mut entries: Vec<(String, Option<String>)> = args["filters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f.as_str().map(|f| (f.to_string(), None)))
            .collect();
        for option in args["filterOptions"].as_array().into_iter().flatten() {
            if let Some(id) = option["filterId"].as_str() {
                entries.push((
                    id.to_string(),
                    option["condition"].as_str().map(String::from),
                ));
            }
        }
        let mut out = Vec::new();
        for (filter, condition) in entries {
            if filter != EXCEPTION_FILTER {
                out.push(Self::unverified(&format!("unknown filter '{filter}'")));
                continue;
            }
            let classes: Vec<String> = condition
                .unwrap_or_default()
                .split([',', ';', ' '])
                .map(|c| c.trim().to_uppercase())
                .filter(|c| !c.is_empty())
                .collect();
            if classes.is_empty() {
                out.push(Self::unverified(
                    "name the exception classes in the filter's condition, e.g. CX_SY_ZERODIVIDE",
                ));
                continue;
            }
            let mut verified = true;
            let mut first_id = None;
            let mut messages = Vec::new();
            for class in &classes {
                let set_args = BpSetArgs {
                    exception: Some(class.clone()),
                    ..new_bp()
                };
                match self.bp_set(&set_args) {
                    Ok(records) => {
                        for record in records {
                            self.bps.exceptions.push(record.id);
                            first_id.get_or_insert(record.id);
                            if record.status != "verified" {
                                verified = false;
                                messages.push(format!(
                                    "{class}: {}",
                                    record.reason.as_deref().unwrap_or("not set")
                                ));
                            }
                        }
                    }
                    Err(why) => {
                        verified = false;
                        messages.push(format!("{class}: {why}"));
                    }
                }
            }
            let mut bp = json!({ "verified": verified });
            if let Some(id) = first_id {
                bp["id"] = json!(id);
            }
            if !messages.is_empty() {
                bp["message"] = json!(messages.join("; "));
            }
            out.push(bp);
        }
        Ok(Some(json!({ "breakpoints": out })))
    }

    /// A breakpoint of ours changed status on the session after it was answered.
    pub(super) fn on_breakpoint_changed(&mut self, record: &Breakpoint) {
        let id = record.id;
        if !self.bps.owns(id) {
            return;
        }
        for bp in self.bps.lines.values_mut().flatten() {
            if bp.id() == Some(id) {
                bp.record = record.clone();
            }
        }
        let source = self.bps.source_of.get(&id).cloned();
        let bp = self.dap_breakpoint(record, source.as_ref());
        self.emit("breakpoint", json!({"reason": "changed", "breakpoint": bp}));
    }
}

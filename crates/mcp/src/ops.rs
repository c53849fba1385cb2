//! What each tool does, on the session client: blocking calls (the server runs them on
//! tokio's blocking threads) that name the thread and frame in every request, so an agent's
//! reads never move the cursor a person at the REPL sees.

use std::cell::Cell;
use std::time::{Duration, Instant};

use client::ClientError;
use client::movement::{Answer, Outcome, typed_until_stop_or_end};
use jsonl::args::{
    AtArgs, BpIdsArgs, BpSetArgs, LineTargetArgs, ListenArgs, RunArgs, SetArgs, SourceArgs,
    StepArgs, StepType, TableArgs, TestArgs, VarsArgs,
};
use jsonl::commands::NoArgs;
use jsonl::results::{Ended, StatusResult, Stopped, TableRow};
use jsonl::{State, cmd};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::condition::Condition;
use crate::error::ToolError;
use crate::link::Link;
use crate::view::{self, DEFAULT_MAX_CHARS};

/// How often a waiting tool reports progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(3);
/// The longest wait a tool accepts, in seconds.
pub const MAX_WAIT_SECONDS: f64 = 600.0;
const DEFAULT_WAIT_SECONDS: f64 = 60.0;
/// Rows read per request while `where` scans a table.
const SCAN_PAGE: u32 = 1000;
const DEFAULT_MAX_SCAN: u64 = 100_000;

/// One tool call's surroundings: the session link, whether the caller cancelled, and where
/// progress goes (`progress(elapsed_seconds, total_seconds, message)`; a no-op without a
/// progress token).
pub struct Call<'a> {
    pub link: &'a Link,
    pub cancelled: &'a (dyn Fn() -> bool + Sync),
    pub progress: &'a (dyn Fn(f64, f64, String) + Sync),
}

/// A tool's answer: the structured content and one short text for hosts that show text only.
pub struct Answered {
    pub structured: Value,
    pub summary: String,
}

fn answered(structured: Value, summary: impl Into<String>) -> Result<Answered, ToolError> {
    Ok(Answered {
        structured,
        summary: summary.into(),
    })
}

fn args<T: for<'de> Deserialize<'de>>(
    tool: &str,
    args: &Map<String, Value>,
) -> Result<T, ToolError> {
    serde_json::from_value(Value::Object(args.clone()))
        .map_err(|e| ToolError::invalid_args(format!("{tool}: {e}")))
}

/// Runs tool `name`.
pub fn call_tool(
    name: &str,
    arguments: &Map<String, Value>,
    call: &Call,
) -> Result<Answered, ToolError> {
    match name {
        "abap_status" => status(call, args(name, arguments)?),
        "abap_breakpoints" => breakpoints(call, args(name, arguments)?),
        "abap_run" => run(call, args(name, arguments)?),
        "abap_wait" => wait(call, args(name, arguments)?),
        "abap_step" => step(call, args(name, arguments)?),
        "abap_stack" => stack(call, args(name, arguments)?),
        "abap_variables" => variables(call, args(name, arguments)?),
        "abap_table" => table(call, args(name, arguments)?),
        "abap_set_variable" => set_variable(call, args(name, arguments)?),
        "abap_source" => source(call, args(name, arguments)?),
        "abap_end" => end(call, args(name, arguments)?),
        other => Err(
            ToolError::new("protocol.unknown_command", format!("no tool '{other}'"))
                .with_hint("tools/list names the tools"),
        ),
    }
}

fn max_chars(m: Option<usize>) -> usize {
    m.unwrap_or(DEFAULT_MAX_CHARS).max(1)
}

fn wait_for(seconds: Option<f64>) -> Result<Duration, ToolError> {
    let s = seconds.unwrap_or(DEFAULT_WAIT_SECONDS);
    if !s.is_finite() || s < 0.0 {
        return Err(ToolError::invalid_args(
            "wait_seconds must be a number from 0 to 600",
        ));
    }
    Ok(Duration::from_secs_f64(s.min(MAX_WAIT_SECONDS)))
}

fn status_now(call: &Call) -> Result<StatusResult, ToolError> {
    call.link.call::<cmd::Status>(&NoArgs {}, call.cancelled)
}

/// The thread a request is for: the one named, else the session's current one.
fn thread_or_current(call: &Call, thread: Option<u32>) -> Result<u32, ToolError> {
    if let Some(t) = thread {
        return Ok(t);
    }
    status_now(call)?.current_thread.ok_or_else(|| {
        ToolError::new("state.no_debuggee", "no program is caught").with_hint(
            "set a breakpoint (abap_breakpoints), then abap_run a class, or abap_wait to catch \
             a program started elsewhere",
        )
    })
}

// ---- abap_status -------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StatusArgs {
    max_chars: Option<usize>,
}

fn status(call: &Call, a: StatusArgs) -> Result<Answered, ToolError> {
    let st = status_now(call)?;
    let bps = call.link.call::<cmd::BpList>(&NoArgs {}, call.cancelled)?;
    let stop = st
        .debuggee
        .as_ref()
        .filter(|d| !d.running)
        .and_then(|d| d.stop.as_ref())
        .map(|s| view::stop_view(call.link, s, max_chars(a.max_chars), call.cancelled));
    let threads: Vec<Value> = st
        .threads
        .iter()
        .map(|t| {
            json!({
                "thread": t.thread,
                "program": t.program,
                "current": t.current,
                "running": t.running,
                "location": t.frame.as_ref().map(view::location),
            })
        })
        .collect();
    let breakpoints: Vec<Value> = bps.breakpoints.iter().map(view::breakpoint).collect();
    let mut summary = format!(
        "{}; listener {}; {} breakpoint(s); {} thread(s)",
        st.state.as_str(),
        if st.listener.armed {
            "armed"
        } else if st.listener.wanted {
            "arming"
        } else {
            "off"
        },
        breakpoints.len(),
        threads.len()
    );
    if let Some(s) = &stop {
        summary.push_str(&format!("; {}", view::stop_summary(s)));
    }
    answered(
        json!({
            "state": st.state.as_str(),
            "system": {"url": st.system.url, "user": st.system.user},
            "listener": {"wanted": st.listener.wanted, "armed": st.listener.armed},
            "allow_writes": st.allow_writes,
            "current_thread": st.current_thread,
            "threads": threads,
            "breakpoints": breakpoints,
            "stop": stop,
            "last_end": st.last_end.as_ref().map(view::end_view),
        }),
        summary,
    )
}

// ---- abap_breakpoints --------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BreakpointsArgs {
    #[serde(default)]
    set: Vec<Value>,
    #[serde(default)]
    delete: Vec<u32>,
    #[serde(default)]
    all: bool,
}

fn breakpoints(call: &Call, a: BreakpointsArgs) -> Result<Answered, ToolError> {
    // Every entry is read before anything changes.
    let mut sets = Vec::new();
    for (i, entry) in a.set.iter().enumerate() {
        let bp: BpSetArgs = serde_json::from_value(entry.clone()).map_err(|e| {
            ToolError::invalid_args(format!("set[{i}]: {e}")).with_hint(
                "each entry is {location, condition?}, {statement}, {exception} or {message: {id, number, type}}",
            )
        })?;
        let kinds = usize::from(bp.location.is_some())
            + usize::from(bp.statement.is_some())
            + usize::from(bp.exception.is_some())
            + usize::from(bp.message.is_some());
        if kinds != 1 {
            return Err(ToolError::invalid_args(format!(
                "set[{i}] names {kinds} kinds of breakpoint; name exactly one of location, statement, exception, message"
            )));
        }
        sets.push(bp);
    }
    let mut deleted = Vec::new();
    if a.all || !a.delete.is_empty() {
        let ids = BpIdsArgs {
            id: None,
            ids: if a.all { Vec::new() } else { a.delete.clone() },
            all: a.all,
        };
        deleted = call
            .link
            .call::<cmd::BpDelete>(&ids, call.cancelled)?
            .deleted;
    }
    let mut warning = None;
    for bp in &sets {
        let r = call.link.call::<cmd::BpSet>(bp, call.cancelled)?;
        warning = warning.or(r.warning);
    }
    let list = call.link.call::<cmd::BpList>(&NoArgs {}, call.cancelled)?;
    let records: Vec<Value> = list.breakpoints.iter().map(view::breakpoint).collect();
    let summary = list
        .breakpoints
        .iter()
        .map(|b| {
            let what = b
                .reason
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            format!("#{} {} {}{what}", b.id, b.location, b.status)
        })
        .collect::<Vec<_>>()
        .join("; ");
    let mut out = json!({"breakpoints": records, "deleted": deleted});
    if let Some(w) = warning {
        out["warning"] = json!(w);
    }
    answered(
        out,
        if summary.is_empty() {
            "no breakpoints".to_string()
        } else {
            summary
        },
    )
}

// ---- waiting: abap_run, abap_wait, abap_step --------------------------------------------

/// The `interrupted` of a wait: the caller's cancellation, and progress every few seconds.
fn waiting<'a>(call: &'a Call, total: Duration, what: String) -> impl Fn() -> bool + 'a {
    let started = Instant::now();
    let last = Cell::new(started);
    move || {
        if last.get().elapsed() >= PROGRESS_EVERY {
            last.set(Instant::now());
            let elapsed = started.elapsed().as_secs_f64().floor();
            (call.progress)(elapsed, total.as_secs_f64(), format!("{what}, {elapsed} s"));
        }
        (call.cancelled)()
    }
}

fn cancelled_error() -> ToolError {
    ToolError::new(
        "request.cancelled",
        "the wait was cancelled; the session and the program go on",
    )
    .with_hint("abap_status shows where things stand; abap_wait waits again")
}

fn stop_answer(call: &Call, stop: &Stopped, max: usize) -> Result<Answered, ToolError> {
    let v = view::stop_view(call.link, stop, max, call.cancelled);
    let summary = view::stop_summary(&v);
    answered(json!({"stop": v}), summary)
}

fn end_answer(call: &Call, ended: &Ended) -> Result<Answered, ToolError> {
    call.link.remember_end(ended);
    let v = view::end_view(ended);
    let summary = view::end_summary(&v);
    answered(json!({"end": v}), summary)
}

fn waiting_answer(state: &str, elapsed: Duration) -> Result<Answered, ToolError> {
    let secs = (elapsed.as_secs_f64() * 10.0).round() / 10.0;
    answered(
        json!({"waiting": true, "state": state, "elapsed_seconds": secs}),
        format!(
            "nothing happened within {secs} s ({state}); the session and the program go on: call abap_wait"
        ),
    )
}

/// Turns what a trigger or a movement came to into the tool's answer.
fn outcome(
    call: &Call,
    cmd: &str,
    result: Result<Outcome, ClientError>,
    state_when_waiting: &str,
    max: usize,
) -> Result<Answered, ToolError> {
    match result {
        Ok(Outcome::Stop(stop)) => stop_answer(call, &stop, max),
        Ok(Outcome::Ended(ended)) => end_answer(call, &ended),
        Ok(Outcome::Answered(result)) => {
            let v = view::answered_end(cmd, result);
            let summary = view::end_summary(&v);
            answered(json!({"end": v}), summary)
        }
        Ok(Outcome::Waiting { elapsed }) => waiting_answer(state_when_waiting, elapsed),
        Err(ClientError::Protocol(p)) if p.code == "run.failed" => {
            let v = view::failed_end(&p.message);
            let summary = view::end_summary(&v);
            answered(json!({"end": v}), summary)
        }
        Err(ClientError::Interrupted) => Err(cancelled_error()),
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunToolArgs {
    class: Option<String>,
    test: Option<TestTarget>,
    #[serde(default)]
    listen: bool,
    wait_seconds: Option<f64>,
    max_chars: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TestTarget {
    class: String,
    method: Option<String>,
}

fn run(call: &Call, a: RunToolArgs) -> Result<Answered, ToolError> {
    let wait = wait_for(a.wait_seconds)?;
    let max = max_chars(a.max_chars);
    let named =
        usize::from(a.class.is_some()) + usize::from(a.test.is_some()) + usize::from(a.listen);
    if named != 1 {
        return Err(ToolError::invalid_args(
            "name exactly one of class, test or listen: true",
        ));
    }
    if a.listen {
        return wait_for_stop_or_end(call, wait, max, true);
    }
    let session = call.link.session()?;
    let deadline = Some(Instant::now() + wait);
    if let Some(class) = a.class {
        let interrupted = waiting(call, wait, format!("running {class}"));
        let args = RunArgs {
            class: Some(class),
            program: None,
        };
        let r = typed_until_stop_or_end::<cmd::Run>(
            &session,
            &args,
            Answer::Trigger,
            deadline,
            &interrupted,
        );
        return outcome(call, "run", r, "running", max);
    }
    let Some(test) = a.test else {
        return Err(ToolError::invalid_args("nothing to run"));
    };
    let interrupted = waiting(
        call,
        wait,
        format!("running the unit tests of {}", test.class),
    );
    let args = TestArgs {
        class: Some(test.class),
        program: None,
        method: test.method,
    };
    let r = typed_until_stop_or_end::<cmd::Test>(
        &session,
        &args,
        Answer::Trigger,
        deadline,
        &interrupted,
    );
    outcome(call, "test", r, "running", max)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WaitToolArgs {
    wait_seconds: Option<f64>,
    max_chars: Option<usize>,
}

fn wait(call: &Call, a: WaitToolArgs) -> Result<Answered, ToolError> {
    wait_for_stop_or_end(
        call,
        wait_for(a.wait_seconds)?,
        max_chars(a.max_chars),
        true,
    )
}

/// Waits for the next stop or end of anything the session holds, arming the listener first
/// when `arm` and it is not armed. A program stopped now, or an end not answered yet, answers
/// at once.
fn wait_for_stop_or_end(
    call: &Call,
    wait: Duration,
    max: usize,
    arm: bool,
) -> Result<Answered, ToolError> {
    let session = call.link.session()?;
    // Subscribed before looking, so nothing that happens in between is missed.
    let sub = session.subscribe();
    let mut st = status_now(call)?;
    if arm && !st.listener.wanted {
        call.link
            .call::<cmd::Listen>(&ListenArgs { take_over: false }, call.cancelled)?;
        st = status_now(call)?;
    }
    if let Some(stop) = st
        .debuggee
        .as_ref()
        .filter(|d| !d.running)
        .and_then(|d| d.stop.as_ref())
    {
        return stop_answer(call, stop, max);
    }
    if st.state == State::Ended
        && let Some(end) = st.last_end.as_ref()
        && !call.link.end_was_reported(end)
    {
        return end_answer(call, end);
    }
    let what = if st.threads.iter().any(|t| t.running) {
        "running".to_string()
    } else {
        format!("listening: listener armed for {}", st.system.user)
    };
    let interrupted = waiting(call, wait, what);
    let started = Instant::now();
    let deadline = Some(started + wait);
    loop {
        match sub.recv_until(deadline, &interrupted) {
            Ok(Some(client::Incoming::Event(ev))) => match ev.kind() {
                Ok(jsonl::EventKind::Stopped(stop)) => return stop_answer(call, &stop, max),
                Ok(jsonl::EventKind::Ended(ended)) => return end_answer(call, &ended),
                _ => {}
            },
            Ok(Some(client::Incoming::Response(_))) => {}
            Ok(None) => {
                let state = match status_now(call) {
                    Ok(s) if s.threads.iter().any(|t| t.running) => "running",
                    _ => "listening",
                };
                return waiting_answer(state, started.elapsed());
            }
            Err(ClientError::Interrupted) => return Err(cancelled_error()),
            Err(e) => return Err(e.into()),
        }
    }
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum StepKind {
    Into,
    Over,
    Out,
    Continue,
    ToLine,
    JumpToLine,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepToolArgs {
    kind: StepKind,
    line: Option<u32>,
    location: Option<String>,
    thread: Option<u32>,
    wait_seconds: Option<f64>,
    max_chars: Option<usize>,
}

fn step(call: &Call, a: StepToolArgs) -> Result<Answered, ToolError> {
    let wait = wait_for(a.wait_seconds)?;
    let max = max_chars(a.max_chars);
    let thread = thread_or_current(call, a.thread)?;
    let session = call.link.session()?;
    let deadline = Some(Instant::now() + wait);
    // The session answers `pending` after this; the wait here goes on to the deadline.
    let timeout_ms = Some(u64::try_from(wait.as_millis()).unwrap_or(u64::MAX).max(1));
    let interrupted = waiting(call, wait, format!("running thread {thread}"));
    let step_type = match a.kind {
        StepKind::Into => Some(StepType::Into),
        StepKind::Over => Some(StepType::Over),
        StepKind::Out => Some(StepType::Out),
        StepKind::Continue => Some(StepType::Continue),
        StepKind::ToLine | StepKind::JumpToLine => None,
    };
    let r = match step_type {
        Some(step_type) => {
            let args = StepArgs {
                step_type,
                timeout_ms,
                thread: Some(thread),
                frame: None,
            };
            typed_until_stop_or_end::<cmd::Step>(
                &session,
                &args,
                Answer::Movement,
                deadline,
                &interrupted,
            )
        }
        None => {
            if a.line.is_none() && a.location.is_none() {
                return Err(ToolError::invalid_args(
                    "to_line and jump_to_line need line (or location)",
                ));
            }
            let args = LineTargetArgs {
                location: a.location,
                line: a.line,
                timeout_ms,
                thread: Some(thread),
                frame: None,
            };
            if a.kind == StepKind::ToLine {
                typed_until_stop_or_end::<cmd::RunToLine>(
                    &session,
                    &args,
                    Answer::Movement,
                    deadline,
                    &interrupted,
                )
            } else {
                typed_until_stop_or_end::<cmd::JumpToLine>(
                    &session,
                    &args,
                    Answer::Movement,
                    deadline,
                    &interrupted,
                )
            }
        }
    };
    outcome(call, "step", r, "running", max)
}

// ---- looking -----------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StackArgs {
    thread: Option<u32>,
}

fn stack(call: &Call, a: StackArgs) -> Result<Answered, ToolError> {
    let thread = thread_or_current(call, a.thread)?;
    let s = call.link.call::<cmd::Stack>(
        &AtArgs {
            thread: Some(thread),
            frame: None,
        },
        call.cancelled,
    )?;
    let summary = s
        .frames
        .iter()
        .map(|f| {
            format!(
                "#{} {}->{} line {}{}",
                f.index,
                f.object,
                f.method,
                f.line,
                f.file
                    .as_deref()
                    .map(|x| format!(" ({x})"))
                    .unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    answered(
        json!({
            "thread": s.thread,
            "epoch": s.epoch,
            "frames": s.frames.iter().map(view::location).collect::<Vec<_>>(),
        }),
        summary,
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariablesArgs {
    thread: Option<u32>,
    frame: Option<usize>,
    path: Option<String>,
    offset: Option<u32>,
    limit: Option<u32>,
    max_chars: Option<usize>,
}

/// The key `changed` remembers a frame's variables under.
fn frame_key_of(call: &Call, thread: u32, frame: usize) -> String {
    call.link
        .call::<cmd::Stack>(
            &AtArgs {
                thread: Some(thread),
                frame: None,
            },
            call.cancelled,
        )
        .ok()
        .and_then(|s| s.frames.into_iter().find(|f| f.index == frame))
        .map(|f| view::frame_key(&f))
        .unwrap_or_default()
}

fn variables(call: &Call, a: VariablesArgs) -> Result<Answered, ToolError> {
    let thread = thread_or_current(call, a.thread)?;
    let frame = a.frame.unwrap_or(0);
    let max = max_chars(a.max_chars);
    let limit = a.limit.unwrap_or(100).clamp(1, 1000);
    let offset = a.offset.unwrap_or(0);
    let args = VarsArgs {
        id: a.path.clone(),
        epoch: None,
        offset,
        limit,
        thread: Some(thread),
        frame: Some(frame),
    };
    let r = call.link.call::<cmd::Vars>(&args, call.cancelled)?;
    let key = frame_key_of(call, thread, frame);
    let shape =
        |v: &jsonl::results::Variable| view::variable(call.link, v, thread, &key, r.epoch, max);
    let mut out = json!({"thread": thread, "frame": frame, "epoch": r.epoch});
    let summary;
    match &a.path {
        None => {
            let mut scopes: Vec<Value> = Vec::new();
            let scope_list = r.scopes.clone().unwrap_or_default();
            let root: Vec<Value> = r
                .variables
                .iter()
                .filter(|v| v.scope.is_empty())
                .map(shape)
                .collect();
            if !root.is_empty() {
                scopes.push(json!({"id": "", "name": "", "variables": root}));
            }
            for s in &scope_list {
                let vars: Vec<Value> = r
                    .variables
                    .iter()
                    .filter(|v| v.scope == s.name)
                    .map(shape)
                    .collect();
                scopes.push(json!({"id": s.id, "name": s.name, "variables": vars}));
            }
            summary = scopes
                .iter()
                .map(|s| {
                    let vars = s["variables"]
                        .as_array()
                        .map(|vs| {
                            vs.iter()
                                .map(|v| {
                                    format!(
                                        "{} = {}",
                                        v["name"].as_str().unwrap_or(""),
                                        v["value"].as_str().unwrap_or("")
                                    )
                                })
                                .collect::<Vec<_>>()
                                .join(", ")
                        })
                        .unwrap_or_default();
                    format!(
                        "{}: {vars}",
                        s["name"]
                            .as_str()
                            .filter(|n| !n.is_empty())
                            .unwrap_or("(root)")
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            out["scopes"] = Value::Array(scopes);
        }
        Some(path) => {
            let vars: Vec<Value> = r.variables.iter().map(shape).collect();
            summary = vars
                .iter()
                .map(|v| {
                    format!(
                        "{} = {}",
                        v["name"].as_str().unwrap_or(""),
                        v["value"].as_str().unwrap_or("")
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            let start = r.offset.unwrap_or(offset);
            let next = match r.more {
                Some(true) => Some(start + u32::try_from(vars.len()).unwrap_or(u32::MAX)),
                _ => None,
            };
            out["path"] = json!(path);
            out["variables"] = Value::Array(vars);
            out["total"] = json!(
                r.total
                    .unwrap_or(u32::try_from(r.variables.len()).unwrap_or(u32::MAX))
            );
            out["offset"] = json!(start);
            out["next_offset"] = json!(next);
        }
    }
    answered(out, summary)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TableToolArgs {
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

fn table(call: &Call, a: TableToolArgs) -> Result<Answered, ToolError> {
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetToolArgs {
    path: String,
    value: String,
    thread: Option<u32>,
    frame: Option<usize>,
    max_chars: Option<usize>,
}

fn set_variable(call: &Call, a: SetToolArgs) -> Result<Answered, ToolError> {
    let thread = thread_or_current(call, a.thread)?;
    let frame = a.frame.unwrap_or(0);
    let r = call.link.call::<cmd::Set>(
        &SetArgs {
            path: a.path.clone(),
            value: a.value,
            epoch: None,
            thread: Some(thread),
            frame: Some(frame),
        },
        call.cancelled,
    )?;
    let key = frame_key_of(call, thread, frame);
    let variable = r
        .variable
        .as_ref()
        .map(|v| view::variable(call.link, v, thread, &key, r.epoch, max_chars(a.max_chars)));
    let value = variable
        .as_ref()
        .and_then(|v| v["value"].as_str().map(str::to_string))
        .unwrap_or_else(|| r.echo.clone());
    answered(
        json!({"path": r.path, "value": value, "echo": r.echo, "variable": variable}),
        format!("{} = {value}", r.path),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SourceToolArgs {
    location: Option<String>,
    object: Option<String>,
    line: Option<u32>,
    around: Option<u32>,
    thread: Option<u32>,
    frame: Option<usize>,
}

/// `OBJ:line` for an object name or an abapGit file name.
pub fn object_location(object: &str, line: u32) -> Result<String, ToolError> {
    if object.to_ascii_lowercase().ends_with(".abap") {
        let unit = abapgit::SourceUnit::from_path(object)
            .map_err(|e| ToolError::invalid_args(e.to_string()))?;
        Ok(unit.location(line))
    } else {
        Ok(format!("{}:{line}", object.to_uppercase()))
    }
}

fn source(call: &Call, a: SourceToolArgs) -> Result<Answered, ToolError> {
    let around = a.around.unwrap_or(5).min(500);
    let location = match (a.location, a.object) {
        (Some(l), _) => Some(l),
        (None, Some(o)) => Some(object_location(&o, a.line.unwrap_or(1))?),
        (None, None) => None,
    };
    let (thread, frame) = if location.is_none() {
        (
            Some(thread_or_current(call, a.thread)?),
            Some(a.frame.unwrap_or(0)),
        )
    } else {
        (None, None)
    };
    let r = call.link.call::<cmd::Source>(
        &SourceArgs {
            location,
            before: around,
            after: around,
            thread,
            frame,
        },
        call.cancelled,
    )?;
    let file = abapgit::SourceUnit::from_uri(&r.uri).map(|u| u.file_name());
    answered(
        json!({"uri": r.uri, "file": file, "line": r.line, "lines": view::source_lines(&r.lines)}),
        view::numbered(&r.lines),
    )
}

// ---- abap_end ----------------------------------------------------------------------------

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum How {
    Terminate,
    Detach,
    Shutdown,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EndArgs {
    how: How,
}

fn nothing_to_do(how: &str) -> Result<Answered, ToolError> {
    answered(
        json!({"how": how, "done": false, "note": "nothing was stopped: nothing to do"}),
        format!("{how}: nothing was stopped, nothing to do"),
    )
}

fn is_nothing_stopped(e: &ToolError) -> bool {
    matches!(
        e.code.as_str(),
        "state.not_stopped" | "state.no_debuggee" | "state.debuggee_ended"
    )
}

fn end(call: &Call, a: EndArgs) -> Result<Answered, ToolError> {
    match a.how {
        How::Shutdown => {
            let Some(session) = call.link.existing()? else {
                return answered(
                    json!({"how": "shutdown", "done": false, "note": "no session runs: nothing to do"}),
                    "shutdown: no session runs, nothing to do",
                );
            };
            let r = session.call::<cmd::Shutdown>(
                &NoArgs {},
                crate::link::READ_TIMEOUT,
                call.cancelled,
            )?;
            call.link.reset();
            let receipt = &r.receipt;
            answered(
                json!({"how": "shutdown", "done": true, "receipt": {
                    "listener_stopped": receipt.listener_stopped,
                    "breakpoints_deleted": receipt.breakpoints_deleted,
                    "debuggees": receipt.debuggees.iter().map(|d| json!({"thread": d.thread, "program": d.program, "how": d.how})).collect::<Vec<_>>(),
                    "errors": receipt.errors,
                }}),
                receipt.summary(),
            )
        }
        How::Terminate => {
            let Some(thread) = status_now(call)?.current_thread else {
                return nothing_to_do("terminate");
            };
            match call.link.call::<cmd::Terminate>(
                &AtArgs {
                    thread: Some(thread),
                    frame: None,
                },
                call.cancelled,
            ) {
                Ok(r) => {
                    call.link.remember_end(&r.ended);
                    let v = view::end_view(&r.ended);
                    answered(
                        json!({"how": "terminate", "done": true, "ended": v}),
                        format!("terminated thread {thread}; breakpoints and listener stay"),
                    )
                }
                Err(e) if is_nothing_stopped(&e) => nothing_to_do("terminate"),
                Err(e) => Err(e),
            }
        }
        How::Detach => {
            let Some(thread) = status_now(call)?.current_thread else {
                return nothing_to_do("detach");
            };
            match call.link.call::<cmd::Detach>(
                &AtArgs {
                    thread: Some(thread),
                    frame: None,
                },
                call.cancelled,
            ) {
                Ok(r) => {
                    call.link.remember_end(&r.detached.ended);
                    let v = view::end_view(&r.detached.ended);
                    answered(
                        json!({"how": "detach", "done": true, "ended": v, "breakpoints_disabled": r.breakpoints_disabled}),
                        format!(
                            "detached thread {thread}: it runs on; {} breakpoint(s) taken off",
                            r.breakpoints_disabled.len()
                        ),
                    )
                }
                Err(e) if is_nothing_stopped(&e) => nothing_to_do("detach"),
                Err(e) => Err(e),
            }
        }
    }
}

/// The resource `abapdbg://session/stop`: the current stop view, or null and the last end.
pub fn stop_resource(call: &Call) -> Result<Value, ToolError> {
    let st = status_now(call)?;
    let stop = st
        .debuggee
        .as_ref()
        .filter(|d| !d.running)
        .and_then(|d| d.stop.as_ref())
        .map(|s| view::stop_view(call.link, s, DEFAULT_MAX_CHARS, call.cancelled));
    Ok(json!({
        "state": st.state.as_str(),
        "stop": stop,
        "last_end": st.last_end.as_ref().map(view::end_view),
    }))
}

/// The resource `abapdbg://source/{object}`: the whole source of an object (a name or an
/// abapGit file name).
pub fn source_resource(call: &Call, object: &str) -> Result<String, ToolError> {
    let r = call.link.call::<cmd::Source>(
        &SourceArgs {
            location: Some(object_location(object, 1)?),
            before: 0,
            after: 10_000,
            thread: None,
            frame: None,
        },
        call.cancelled,
    )?;
    Ok(r.lines
        .iter()
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n"))
}

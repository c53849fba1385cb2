//! `abap_run`, `abap_wait`, `abap_step`: a move or a catch, waited for until the stop, the end
//! or `wait_seconds`, with progress every few seconds and the caller's cancellation.

use std::cell::Cell;
use std::time::{Duration, Instant};

use client::ClientError;
use client::movement::{Answer, Outcome, typed_until_stop_or_end};
use jsonl::args::{LineTargetArgs, ListenArgs, RunArgs, StepArgs, StepType, TestArgs};
use jsonl::results::{Ended, Stopped};
use jsonl::{State, cmd};
use serde::Deserialize;
use serde_json::json;

use super::{Answered, Call, answered, max_chars, status_now, thread_or_current, wait_for};
use crate::error::ToolError;
use crate::view;

/// How often a waiting tool reports progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(3);

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
pub(super) struct RunToolArgs {
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

pub(super) fn run(call: &Call, a: RunToolArgs) -> Result<Answered, ToolError> {
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
        return wait_for_stop_or_end(call, wait, max, false);
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
pub(super) struct WaitToolArgs {
    wait_seconds: Option<f64>,
    max_chars: Option<usize>,
    /// Takes the listener over from another debugger listening for the same user.
    #[serde(default)]
    take_over: bool,
}

pub(super) fn wait(call: &Call, a: WaitToolArgs) -> Result<Answered, ToolError> {
    wait_for_stop_or_end(
        call,
        wait_for(a.wait_seconds)?,
        max_chars(a.max_chars),
        a.take_over,
    )
}

/// Waits for the next stop or end of anything the session holds, arming the listener first
/// when it is not armed (with `take_over`, taking it from another debugger). A program stopped
/// now, or an end not answered yet, answers at once; a listener conflict fails at once.
fn wait_for_stop_or_end(
    call: &Call,
    wait: Duration,
    max: usize,
    take_over: bool,
) -> Result<Answered, ToolError> {
    let session = call.link.session()?;
    // Subscribed before looking, so nothing that happens in between is missed.
    let sub = session.subscribe();
    let mut st = status_now(call)?;
    if !st.listener.wanted || take_over {
        call.link
            .call::<cmd::Listen>(&ListenArgs { take_over }, call.cancelled)?;
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
                // Nothing is caught while another debugger holds the listener: say so now.
                Ok(jsonl::EventKind::ListenerConflict(c)) => {
                    let hint = c.hint.as_deref().and_then(|h| {
                        client::hints::for_front_end(
                            client::hints::FrontEnd::Mcp,
                            "conflict.listener",
                            h,
                        )
                    });
                    let err = ToolError::new("conflict.listener", c.message);
                    return Err(match hint {
                        Some(h) => err.with_hint(h),
                        None => err,
                    });
                }
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
pub(super) struct StepToolArgs {
    kind: StepKind,
    line: Option<u32>,
    location: Option<String>,
    thread: Option<u32>,
    wait_seconds: Option<f64>,
    max_chars: Option<usize>,
}

pub(super) fn step(call: &Call, a: StepToolArgs) -> Result<Answered, ToolError> {
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

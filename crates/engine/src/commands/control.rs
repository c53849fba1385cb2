//! Catching and moving programs: `listen`, `unlisten`, `run`, `wait`, `step`, `run_to_line`,
//! `jump_to_line`, `terminate`, `detach`, `threads`, `thread`.

use std::sync::Arc;
use std::time::Duration;

use jsonl::args::{
    AtArgs, LineTargetArgs, ListenArgs, StepArgs, StepType, ThreadArgs, WaitArgs, WaitUntil, decode,
};
use jsonl::events::{EventKind, ListenerStopped};
use jsonl::results::{
    DetachResult, EndReason, Ended, ListenResult, MoveResult, TerminateResult, ThreadResult,
    ThreadsResult, UnlistenResult, WaitReached, WaitResult, WaitTimedOut,
};
use jsonl::{ErrorBody, ErrorCode, State};
use serde_json::Value;

use super::Outcome;
use crate::at::{At, resolve};
use crate::debuggee::{StopReason, describe_stop_with};
use crate::engine::{Engine, Origin};
use crate::errors::from_adt;
use crate::errors::is_gone;
use crate::listener;
use crate::to_proto;

const ARM_TIMEOUT: Duration = Duration::from_secs(10);

pub(crate) async fn listen(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: ListenArgs = decode("listen", args)?;
    // A release of what a killed session left deletes the listener: wait for it.
    engine.orphans_settled().await;
    listener::ensure_started(engine, args.take_over);
    // Another tool of the user may have deleted our breakpoints: put them back.
    let engine2 = engine.clone();
    tokio::spawn(async move {
        if let Err(e) = crate::breakpoint_sync::reassert(&engine2).await {
            tracing::warn!("cannot re-assert the breakpoints: {}", e.message);
        }
    });
    let armed = engine.lock().listener_armed;
    // Non-blocking: `listener.armed` follows once the server holds the listener.
    to_proto::ok(ListenResult { armed })
}

pub(crate) async fn unlisten(engine: &Arc<Engine>) -> Outcome {
    let (task, was) = engine.update(|inner| {
        // Also a listener whose poll loop gave up: it may still be registered on the system.
        let was = inner.listener_held();
        inner.listener_wanted = false;
        inner.listener_armed = false;
        (inner.listener_task.take(), was)
    });
    if let Some(task) = task {
        task.abort();
    }
    if was {
        listener::stop_on_server(engine, &engine.config.identity)
            .await
            .map_err(|e| from_adt("stopping the listener", &e))?;
        // Deleted: a later shutdown has no listener of ours to stop.
        engine.update(|inner| inner.listener_registered = false);
        engine.emit(
            EventKind::ListenerStopped(ListenerStopped {
                reason: "unlisten".into(),
            }),
            None,
        );
    }
    to_proto::ok(UnlistenResult { stopped: was })
}

/// Arms the listener (if needed) before a trigger, so its stop is caught.
pub(crate) async fn armed_for_trigger(engine: &Arc<Engine>) -> Result<(), ErrorBody> {
    engine.orphans_settled().await;
    listener::ensure_started(engine, false);
    listener::wait_armed(engine, ARM_TIMEOUT).await?;
    // Another tool of the user may have deleted our breakpoints since they were set: put them
    // back before the program runs, or it would not stop.
    if let Err(e) = crate::breakpoint_sync::reassert(engine).await {
        tracing::warn!("cannot re-assert the breakpoints: {}", e.message);
    }
    Ok(())
}

/// A trigger that ended with an error (dump, termination) rather than a transport failure.
pub(crate) fn run_failed(context: &str, e: &adt::AdtError) -> ErrorBody {
    let mut err = from_adt(context, e);
    if e.http_status().is_some() && e.class() != adt::ErrorClass::NotAuthorized {
        err.code = ErrorCode::RunFailed.as_str().into();
        err.hint = Some("the run ended with an error; see error.adt".into());
    }
    err
}

pub(crate) async fn wait(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: WaitArgs = decode("wait", args)?;
    let (caught_before, epoch_before, stopped_before) = {
        let inner = engine.lock();
        (inner.caught, inner.epoch, described_stop(&inner))
    };
    let reached = |engine: &Engine| {
        let inner = engine.lock();
        match args.until {
            // Stopped once the stop is described, and, when the wait began elsewhere, a stop
            // that came after it: never the previous stop or one still being read.
            WaitUntil::Stopped => {
                described_stop(&inner)
                    && (stopped_before
                        || inner.current().is_some_and(|d| {
                            d.stop
                                .as_ref()
                                .and_then(|s| s.epoch)
                                .is_none_or(|e| e > epoch_before)
                        }))
            }
            WaitUntil::Ended => inner.threads.is_empty() && inner.ended,
            WaitUntil::Caught => inner.caught > caught_before,
        }
    };
    let mut rx = engine.watch();
    let deadline = tokio::time::Instant::now() + Duration::from_millis(args.timeout_ms);
    loop {
        if reached(engine) {
            let inner = engine.lock();
            let stop = inner.current().and_then(|d| d.stop.clone());
            // The epoch of the stop answered (another thread may have stopped since).
            let epoch = stop.as_ref().and_then(|s| s.epoch).unwrap_or(inner.epoch);
            return to_proto::ok(WaitResult::Reached(WaitReached {
                reached: true,
                epoch,
                thread: inner.current,
                frame: stop.as_ref().and_then(|s| s.frame.clone()).map(Box::new),
                stop: stop.map(Box::new),
            }));
        }
        if tokio::time::timeout_at(deadline, rx.changed())
            .await
            .is_err()
        {
            // Expiry reports the state; it is not a failure.
            return to_proto::ok(WaitResult::TimedOut(WaitTimedOut {
                reached: false,
                timed_out: true,
            }));
        }
    }
}

/// The current thread is stopped and its stop described (the body its `stopped` event has).
fn described_stop(inner: &crate::engine::Inner) -> bool {
    inner.state() == State::Stopped && inner.current().is_some_and(|d| d.stop.is_some())
}

/// Marks the named thread (else the current one) running and returns where the request acts
/// — in one step, so two clients cannot both move the same program.
fn start_moving(
    engine: &Engine,
    thread: Option<u32>,
    frame: Option<usize>,
) -> Result<At, ErrorBody> {
    let at = resolve(engine, thread, frame)?;
    engine
        .update(|inner| match inner.thread_mut(at.thread) {
            Some(d) if !d.running && d.stops == at.stop => {
                d.running = true;
                Ok(())
            }
            _ => Err(()),
        })
        // It moved between the two looks: let the caller retry rather than guess.
        .map_err(|()| ErrorBody::new(ErrorCode::Busy, "the program changed state; try again"))?;
    Ok(at)
}

/// Waits for a movement at most `timeout_ms` (or the configured default); after that the
/// result arrives as an event carrying the request id.
async fn bounded(
    engine: &Arc<Engine>,
    timeout_ms: Option<u64>,
    task: tokio::task::JoinHandle<Outcome>,
) -> Outcome {
    let default = engine.lock().limits.step_timeout;
    let budget = timeout_ms.map(Duration::from_millis).unwrap_or(default);
    match tokio::time::timeout(budget, task).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(join)) => Err(ErrorBody::new(
            ErrorCode::Internal,
            format!("step task failed: {join}"),
        )),
        Err(_) => to_proto::ok(MoveResult::Pending { pending: true }),
    }
}

pub(crate) async fn step(engine: &Arc<Engine>, args: &Value, cause: &Origin) -> Outcome {
    let args: StepArgs = decode("step", args)?;
    let kind = match args.step_type {
        StepType::Into => adt::StepKind::Into,
        StepType::Over => adt::StepKind::Over,
        StepType::Out => adt::StepKind::Return,
        StepType::Continue => adt::StepKind::Continue,
    };
    // A step acts on the thread, from where its program is: `frame`, when named, must exist
    // and is otherwise not used.
    let at = start_moving(engine, args.thread, args.frame)?;
    let (engine2, cause) = (engine.clone(), cause.clone());
    let task = tokio::spawn(async move {
        let (thread, client) = (at.thread, at.client.clone());
        let mut position = at.hold_for_move().await;
        if kind == adt::StepKind::Continue {
            // A continue may stop at a watchpoint: read what fired.
            let detail = client.step_detailed(kind).await;
            if detail.is_ok() {
                *position = 0;
            }
            return match detail {
                Ok(detail) if !detail.reached_watchpoints.is_empty() => {
                    let reason = StopReason::Watchpoint(detail.reached_watchpoints);
                    stopped(engine2, thread, client, reason, None, None, cause).await
                }
                Ok(detail) => finish_move(engine2, thread, client, Ok(detail.outcome), cause).await,
                Err(e) => finish_move(engine2, thread, client, Err(e), cause).await,
            };
        }
        // One round trip: the step, the stack and the top-level variables in one batch.
        let scopes = engine2
            .lock()
            .threads
            .get(&thread)
            .map(|d| d.scopes.clone())
            .unwrap_or_default();
        let parents = crate::debuggee::stop_parents(&scopes);
        let inspection = client.step_and_inspect(kind, &parents).await;
        if inspection.is_ok() {
            *position = 0;
        }
        match inspection {
            Ok(adt::StepInspection {
                outcome: adt::StepOutcome::Stopped { .. },
                reached_breakpoints,
                stack,
                variables,
            }) => {
                let reason = if reached_breakpoints.is_empty() {
                    StopReason::Step
                } else {
                    StopReason::Breakpoint(reached_breakpoints)
                };
                let reads = variables.map(|v| (parents, v));
                stopped(engine2, thread, client, reason, stack, reads, cause).await
            }
            Ok(inspection) => {
                finish_move(engine2, thread, client, Ok(inspection.outcome), cause).await
            }
            Err(e) => finish_move(engine2, thread, client, Err(e), cause).await,
        }
    });
    bounded(engine, args.timeout_ms, task).await
}

/// Reports a stop a movement led to, from what the movement already read.
async fn stopped(
    engine: Arc<Engine>,
    thread: u32,
    client: adt::Client,
    reason: StopReason,
    stack: Option<adt::Stack>,
    reads: Option<(Vec<String>, adt::ChildVariables)>,
    cause: Origin,
) -> Outcome {
    let stop = describe_stop_with(&engine, thread, &client, reason, stack, reads)
        .await
        .map_err(|e| from_adt("reading the stack after the step", &e))?;
    let stop = Box::new(stop);
    engine.emit(EventKind::Stopped(stop.clone()), Some(&cause));
    to_proto::ok(MoveResult::Stop { stop })
}

/// `run_to_line` and `jump_to_line`: `location` (`ZCL_X:42`) or just `line` in the source
/// of the named frame (else the thread's selected one); the named thread moves.
pub(crate) async fn to_line(
    engine: &Arc<Engine>,
    args: &Value,
    cause: &Origin,
    jump: bool,
) -> Outcome {
    let cmd = if jump { "jump_to_line" } else { "run_to_line" };
    let args: LineTargetArgs = decode(cmd, args)?;
    let at = resolve(engine, args.thread, args.frame)?;
    let (uri, line) = match (&args.location, args.line) {
        (Some(text), _) => {
            let loc = adt::address::parse_location(text).map_err(|e| {
                ErrorBody::new(ErrorCode::InvalidLocation, format!("'{text}': {e}"))
            })?;
            (loc.uri, loc.line)
        }
        (None, Some(line)) => {
            let uri = at
                .entry
                .as_ref()
                .map(|e| e.uri.split('#').next().unwrap_or_default().to_string())
                .filter(|u| !u.is_empty())
                .ok_or_else(|| {
                    ErrorBody::new(
                        ErrorCode::NotStopped,
                        "no stopped frame to take the source from",
                    )
                })?;
            (uri, line)
        }
        (None, None) => {
            return Err(ErrorBody::new(
                ErrorCode::InvalidArgs,
                format!("{cmd} needs \"line\" or \"location\""),
            )
            .with_hint(format!(
                "e.g. {{\"cmd\":\"{cmd}\",\"args\":{{\"line\":42}}}}"
            )));
        }
    };
    let at = start_moving(engine, Some(at.thread), Some(at.frame))?;
    let (engine2, cause) = (engine.clone(), cause.clone());
    let task = tokio::spawn(async move {
        let (thread, client) = (at.thread, at.client.clone());
        let mut position = at.hold_for_move().await;
        let outcome = client.step_to_line(jump, &uri, line).await;
        if outcome.is_ok() {
            *position = 0;
        }
        drop(position);
        finish_move(engine2, thread, client, outcome, cause).await
    });
    bounded(engine, args.timeout_ms, task).await
}

/// Reports where a step, continue or run-to-line led: an event and the command's result.
pub(crate) async fn finish_move(
    engine: Arc<Engine>,
    thread: u32,
    client: adt::Client,
    outcome: Result<adt::StepOutcome, adt::AdtError>,
    cause: Origin,
) -> Outcome {
    match outcome {
        Ok(adt::StepOutcome::Stopped {
            reached_breakpoints,
        }) => {
            let reason = if reached_breakpoints.is_empty() {
                StopReason::Step
            } else {
                StopReason::Breakpoint(reached_breakpoints)
            };
            stopped(engine, thread, client, reason, None, None, cause).await
        }
        Ok(adt::StepOutcome::Ended) => {
            moved_to_end(&engine, thread, &client, EndReason::Finished, &cause).await
        }
        Err(e) if crate::recovery::is_lost(&e) => {
            // The system dropped the session: the program did not move.
            engine.update(|inner| {
                if let Some(d) = inner.thread_mut(thread) {
                    d.running = false;
                }
            });
            let outcome = crate::recovery::recover(&engine, thread).await;
            Err(crate::recovery::lost_error(
                "stepping",
                &e,
                outcome.as_deref(),
            ))
        }
        Err(e) if is_gone(&e) => {
            moved_to_end(&engine, thread, &client, EndReason::Finished, &cause).await
        }
        Err(e) => {
            engine.update(|inner| {
                if let Some(d) = inner.thread_mut(thread) {
                    d.running = false;
                }
            });
            Err(from_adt("stepping", &e))
        }
    }
}

/// `terminate`: aborts the named thread's program (else the current one's); a named `frame`
/// must exist and is otherwise not used.
pub(crate) async fn terminate(engine: &Arc<Engine>, args: &Value, cause: &Origin) -> Outcome {
    let args: AtArgs = decode("terminate", args)?;
    let at = resolve(engine, args.thread, args.frame)?;
    let (thread, mut client) = (at.thread, at.client);
    let mut outcome = client.terminate().await;
    if let Err(e) = &outcome
        && crate::recovery::is_lost(e)
    {
        // Attached again: terminate through the new session; released: it is gone already.
        match crate::recovery::recover(engine, thread).await.as_deref() {
            Some("reattached") => {
                client = resolve(engine, Some(thread), None)?.client;
                outcome = client.terminate().await;
            }
            _ => {
                return to_proto::ok(MoveResult::Ended {
                    ended: Box::new(Ended {
                        thread,
                        reason: EndReason::Lost,
                        message: None,
                        output: None,
                        test: None,
                        run: None,
                    }),
                });
            }
        }
    }
    match outcome {
        Ok(()) => moved_to_end(engine, thread, &client, EndReason::Terminated, cause).await,
        Err(e) if is_gone(&e) => {
            moved_to_end(engine, thread, &client, EndReason::Terminated, cause).await
        }
        Err(e) => Err(from_adt("terminating", &e)),
    }
}

/// `detach`: our breakpoints off the system (kept in the registry, disabled), then let the
/// named thread's program (else the current one's) run on; a named `frame` must exist.
pub(crate) async fn detach(engine: &Arc<Engine>, args: &Value, cause: &Origin) -> Outcome {
    let args: AtArgs = decode("detach", args)?;
    let at = resolve(engine, args.thread, args.frame)?;
    let (thread, client) = (at.thread, at.client);
    let disabled = super::bp::disable_all(engine).await?;
    let how = crate::release::release_debuggee(engine, &client).await;
    let ended = ended(engine, thread, &client, EndReason::Detached, Some(cause)).await;
    to_proto::ok(DetachResult {
        detached: TerminateResult { ended },
        how,
        breakpoints_disabled: disabled,
    })
}

/// The debuggee of `thread` is gone: forget it, say so, and close its session. When a run in
/// flight caught it, the end carries that run's answer (`crate::runs`).
pub(crate) async fn ended(
    engine: &Arc<Engine>,
    thread: u32,
    client: &adt::Client,
    reason: EndReason,
    cause: Option<&Origin>,
) -> Ended {
    let run = engine
        .update(|inner| inner.remove_thread(thread))
        .and_then(|d| d.run);
    let ended = crate::runs::announce_end(engine, thread, reason, None, run, cause).await;
    let _ = client.end_session().await;
    ended
}

/// [`ended`], answered as a movement's (or `terminate`'s) result.
async fn moved_to_end(
    engine: &Arc<Engine>,
    thread: u32,
    client: &adt::Client,
    reason: EndReason,
    cause: &Origin,
) -> Outcome {
    let ended = ended(engine, thread, client, reason, Some(cause)).await;
    to_proto::ok(MoveResult::Ended {
        ended: Box::new(ended),
    })
}

pub(crate) fn threads(engine: &Arc<Engine>) -> Outcome {
    let inner = engine.lock();
    let threads = inner
        .threads
        .values()
        .map(|d| to_proto::thread_info(d, inner.current == Some(d.thread)))
        .collect();
    to_proto::ok(ThreadsResult {
        current: inner.current,
        threads,
        max_threads: engine.config.max_threads,
    })
}

pub(crate) fn thread(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: ThreadArgs = decode("thread", args)?;
    engine.update(|inner| {
        if !inner.threads.contains_key(&args.id) {
            let known: Vec<u32> = inner.threads.keys().copied().collect();
            return Err(
                ErrorBody::new(ErrorCode::NoDebuggee, format!("no thread {}", args.id))
                    .with_hint(format!("attached threads: {known:?}")),
            );
        }
        inner.current = Some(args.id);
        to_proto::ok(ThreadResult {
            current: args.id,
            thread: inner.current().map(|d| to_proto::thread_info(d, true)),
        })
    })
}

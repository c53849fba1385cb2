//! Catching and moving the program: `listen`, `run`, `wait`, `step`, `terminate`.

use std::sync::Arc;
use std::time::Duration;

use jsonl::args::{RunArgs, StepArgs, StepType, WaitArgs, WaitUntil, decode};
use jsonl::{ErrorBody, ErrorCode, State};
use serde_json::{Value, json};

use super::{Outcome, stopped_client};
use crate::debuggee::{StopReason, describe_stop};
use crate::engine::Engine;
use crate::errors::from_adt;
use crate::listener;

const ARM_TIMEOUT: Duration = Duration::from_secs(10);

pub(crate) async fn listen(engine: &Arc<Engine>) -> Outcome {
    listener::ensure_started(engine);
    let armed = engine.lock().listener_armed;
    // Non-blocking: `listener.armed` follows once the server holds the listener.
    Ok(json!({ "armed": armed }))
}

pub(crate) async fn run(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: RunArgs = decode("run", args)?;
    listener::ensure_started(engine);
    if !listener::wait_armed(engine, ARM_TIMEOUT).await {
        return Err(ErrorBody::new(
            ErrorCode::Timeout,
            "the listener could not be armed, so a stop would not be caught; the class was not run",
        )
        .with_hint("check 'status' and the stderr log, then retry 'run'"));
    }
    // A session of its own: the classrun request stays blocked while the program is stopped.
    let client = adt::Client::new(&engine.config.adt, adt::SessionMode::Stateless)
        .map_err(|e| from_adt("opening a session for the run", &e))?;
    match client.classrun(&args.class).await {
        Ok(output) => Ok(json!({ "class": args.class.to_uppercase(), "output": output })),
        Err(e) => {
            let mut err = from_adt(&format!("running {}", args.class.to_uppercase()), &e);
            if e.http_status().is_some() && e.class() != adt::ErrorClass::NotAuthorized {
                err.code = ErrorCode::RunFailed.as_str().into();
                err.hint = Some("the run ended with an error; see error.adt".into());
            }
            Err(err)
        }
    }
}

pub(crate) async fn wait(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: WaitArgs = decode("wait", args)?;
    let reached = |engine: &Engine| {
        let inner = engine.lock();
        match args.until {
            WaitUntil::Stopped => inner.state() == State::Stopped,
            WaitUntil::Ended => inner.debuggee.is_none() && inner.ended,
        }
    };
    let mut rx = engine.watch();
    let deadline = tokio::time::Instant::now() + Duration::from_millis(args.timeout_ms);
    loop {
        if reached(engine) {
            let inner = engine.lock();
            return Ok(
                json!({"reached": true, "epoch": inner.epoch, "frame": inner.debuggee.as_ref().map(|d| d.frame.clone())}),
            );
        }
        if tokio::time::timeout_at(deadline, rx.changed())
            .await
            .is_err()
        {
            // Expiry reports the state; it is not a failure.
            return Ok(json!({"reached": false, "timed_out": true}));
        }
    }
}

pub(crate) async fn step(engine: &Arc<Engine>, args: &Value, cause: &Value) -> Outcome {
    let args: StepArgs = decode("step", args)?;
    let client = stopped_client(engine)?;
    let kind = match args.step_type {
        StepType::Into => adt::StepKind::Into,
        StepType::Over => adt::StepKind::Over,
        StepType::Out => adt::StepKind::Return,
        StepType::Continue => adt::StepKind::Continue,
    };
    engine.update(|inner| {
        if let Some(d) = inner.debuggee.as_mut() {
            d.running = true;
        }
    });
    let task = tokio::spawn(finish_step(engine.clone(), client, kind, cause.clone()));
    let budget = args
        .timeout_ms
        .map(Duration::from_millis)
        .unwrap_or(engine.config.default_step_timeout);
    match tokio::time::timeout(budget, task).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(join)) => Err(ErrorBody::new(
            ErrorCode::Internal,
            format!("step task failed: {join}"),
        )),
        // Still running: the stop (or end) arrives as an event carrying this request's id.
        Err(_) => Ok(json!({"pending": true})),
    }
}

/// Sends the step and reports where it led, as an event and as the step's result.
async fn finish_step(
    engine: Arc<Engine>,
    client: adt::Client,
    kind: adt::StepKind,
    cause: Value,
) -> Outcome {
    match client.step(kind).await {
        Ok(adt::StepOutcome::Stopped {
            reached_breakpoints,
        }) => {
            let reason = if reached_breakpoints.is_empty() {
                StopReason::Step
            } else {
                StopReason::Breakpoint(reached_breakpoints)
            };
            engine.update(|inner| {
                if let Some(d) = inner.debuggee.as_mut() {
                    d.running = false;
                }
            });
            let body = describe_stop(&engine, &client, reason)
                .await
                .map_err(|e| from_adt("reading the stack after the step", &e))?;
            engine.update(|inner| {
                if let Some(d) = inner.debuggee.as_mut() {
                    d.frame = body["frame"].clone();
                }
            });
            engine.emit("stopped", body.clone(), Some(cause));
            Ok(json!({ "stop": body }))
        }
        Ok(adt::StepOutcome::Ended) => Ok(ended(&engine, &client, "finished", cause).await),
        Err(e) if is_gone(&e) => Ok(ended(&engine, &client, "finished", cause).await),
        Err(e) => {
            engine.update(|inner| {
                if let Some(d) = inner.debuggee.as_mut() {
                    d.running = false;
                }
            });
            Err(from_adt("stepping", &e))
        }
    }
}

pub(crate) async fn terminate(engine: &Arc<Engine>) -> Outcome {
    let client = stopped_client(engine)?;
    match client.terminate().await {
        Ok(()) => Ok(ended(engine, &client, "terminated", Value::Null).await),
        Err(e) if is_gone(&e) => Ok(ended(engine, &client, "terminated", Value::Null).await),
        Err(e) => Err(from_adt("terminating", &e)),
    }
}

/// The debuggee is gone: forget it, say so, and close its session.
async fn ended(engine: &Arc<Engine>, client: &adt::Client, reason: &str, cause: Value) -> Value {
    let thread = engine.update(|inner| {
        inner.ended = true;
        inner.debuggee.take().map(|d| d.thread)
    });
    let body = json!({"thread": thread, "reason": reason});
    engine.emit(
        "debuggee.ended",
        body.clone(),
        (!cause.is_null()).then_some(cause),
    );
    let _ = client.end_session().await;
    json!({ "ended": body })
}

fn is_gone(e: &adt::AdtError) -> bool {
    matches!(
        e.class(),
        adt::ErrorClass::DebuggeeEnded | adt::ErrorClass::NoSessionAttached
    )
}

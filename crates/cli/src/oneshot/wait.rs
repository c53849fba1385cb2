//! `abapdbg wait [--until stopped|ended|caught] [--timeout 30s]`.

use std::time::{Duration, Instant};

use clap::ValueEnum;
use client::{ClientError, Incoming};
use serde_json::{Value, json};

use super::ctx::{Ctx, Failure, out};
use super::{OneShot, Output, render, spinner};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Answers at once when the condition already holds. When the time is \
    up it exits with 3 (state.timed_out); with --json it still prints the protocol's answer \
    {\"reached\":false,\"timed_out\":true}. Ctrl-C stops waiting (exit 130)."
)]
pub struct WaitArgs {
    /// What to wait for: a stopped program, the end of the last one, or a new catch.
    #[arg(long, value_enum, default_value_t = Until::Stopped)]
    until: Until,
    /// How long at most: 30s, 500ms, 2m, or seconds.
    #[arg(long, default_value = "30s", value_parser = super::args::duration)]
    timeout: Duration,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Until {
    Stopped,
    Ended,
    Caught,
}

impl Until {
    fn name(self) -> &'static str {
        match self {
            Until::Stopped => "stopped",
            Until::Ended => "ended",
            Until::Caught => "caught",
        }
    }
}

impl OneShot for WaitArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = wait(ctx, self.until, self.timeout, "waiting")?;
        if ctx.json {
            ctx.print_json(&result);
        } else {
            out(&reached(ctx, self.until, &result)?);
        }
        Ok(())
    }
}

/// The protocol's `wait`, with the spinner; a timeout is `state.timed_out` (after the
/// answer is printed with `--json`).
pub(crate) fn wait(
    ctx: &Ctx,
    until: Until,
    timeout: Duration,
    label: &str,
) -> Result<Value, Failure> {
    let label = format!("{label} until {}", until.name());
    let result = spinner::while_waiting(ctx, &label, || ask(ctx, until, timeout)).map_err(|e| {
        Failure::from(e).with_hint("the session goes on; 'abapdbg status' shows where it stands")
    })?;
    if result["reached"] == true {
        return Ok(result);
    }
    if ctx.json {
        ctx.print_json(&result);
    }
    Err(Failure::new(
        "state.timed_out",
        format!("not {} within {}", until.name(), spinner::elapsed(timeout)),
    )
    .with_hint("wait longer with --timeout; 'abapdbg status' shows where things stand"))
}

/// Sends `wait` and reads its answer among the events. A program that was caught but not yet
/// described makes the session answer `reached` with a null frame; then the `stopped` event
/// that follows says where it stopped.
fn ask(ctx: &Ctx, until: Until, timeout: Duration) -> Result<Value, ClientError> {
    let session = ctx.session().map_err(|_| ClientError::Disconnected)?;
    let sub = session.subscribe();
    let args = json!({"until": until.name(), "timeout_ms": timeout.as_millis() as u64});
    let id = session.send_routed(&sub, "wait", args)?;
    // The session answers at its deadline; the margin covers a busy machine.
    let budget = timeout + Duration::from_secs(30);
    let deadline = Instant::now() + budget;
    let mut last_stop: Option<Value> = None;
    let mut answer: Option<Value> = None;
    loop {
        if let (Some(result), Some(stop)) = (&mut answer, &last_stop) {
            for k in ["epoch", "thread", "frame"] {
                result[k] = stop[k].clone();
            }
            return Ok(result.take());
        }
        let item = match sub.recv_until(Some(deadline), &|| ctx.interrupted()) {
            Ok(Some(item)) => item,
            Ok(None) => {
                session.cancel(id);
                return Err(ClientError::Timeout {
                    cmd: "wait".into(),
                    after: budget,
                });
            }
            Err(ClientError::Interrupted) => {
                session.cancel(id);
                return Err(ClientError::Interrupted);
            }
            Err(e) => return Err(e),
        };
        match item {
            Incoming::Event(ev) if ev.event == "stopped" => last_stop = Some(ev.body),
            Incoming::Event(_) => {}
            Incoming::Response(resp) if resp.id.as_u64() == Some(id) => {
                let result = resp.outcome.map_err(|e| ClientError::Protocol(e.into()))?;
                if result["reached"] != true || until == Until::Ended || !result["frame"].is_null()
                {
                    return Ok(result);
                }
                answer = Some(result);
            }
            Incoming::Response(_) => {}
        }
    }
}

/// The human form of a reached wait: the stop with its source, or how the program ended.
pub(crate) fn reached(ctx: &Ctx, until: Until, result: &Value) -> Result<String, Failure> {
    if until == Until::Ended {
        let status = ctx.request("status", json!({}))?;
        return Ok(render::ended(&status["last_end"], ctx.color));
    }
    Ok(render::stop(&stop_of(ctx, result)?, ctx.color))
}

/// The `stopped` body of the stop a reached wait answered: the wait answers where, the status
/// also why (reason, breakpoints).
pub(crate) fn stop_of(ctx: &Ctx, result: &Value) -> Result<Value, Failure> {
    let status = ctx.request("status", json!({}))?;
    let stop = &status["debuggee"]["stop"];
    if stop.is_object() && stop["epoch"] == result["epoch"] {
        return Ok(stop.clone());
    }
    Ok(json!({"thread": result["thread"], "frame": result["frame"]}))
}

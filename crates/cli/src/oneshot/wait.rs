//! `abapdbg wait [--until stopped|ended|caught] [--timeout 30s]`.

use std::time::{Duration, Instant};

use clap::ValueEnum;
use client::{ClientError, Incoming};
use jsonl::args::{WaitArgs as Wait, WaitUntil};
use jsonl::commands::NoArgs;
use jsonl::results::{Frame, Stopped, WaitReached, WaitResult};
use jsonl::{EventKind, cmd};

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

    fn wire(self) -> WaitUntil {
        match self {
            Until::Stopped => WaitUntil::Stopped,
            Until::Ended => WaitUntil::Ended,
            Until::Caught => WaitUntil::Caught,
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
            ctx.print_json(&WaitResult::Reached(result))
        } else {
            out(&reached(ctx, self.until, &result)?);
            Ok(())
        }
    }
}

/// The protocol's `wait`, with the spinner; a timeout is `state.timed_out` (after the
/// answer is printed with `--json`).
pub(crate) fn wait(
    ctx: &Ctx,
    until: Until,
    timeout: Duration,
    label: &str,
) -> Result<WaitReached, Failure> {
    let label = format!("{label} until {}", until.name());
    let result = spinner::while_waiting(ctx, &label, || ask(ctx, until, timeout)).map_err(|e| {
        Failure::from(e).with_hint("the session goes on; 'abapdbg status' shows where it stands")
    })?;
    let timed_out = match result {
        WaitResult::Reached(reached) if reached.reached => return Ok(reached),
        other => other,
    };
    if ctx.json {
        ctx.print_json(&timed_out)?;
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
fn ask(ctx: &Ctx, until: Until, timeout: Duration) -> Result<WaitResult, ClientError> {
    let session = ctx.session().map_err(|_| ClientError::Disconnected)?;
    let sub = session.subscribe();
    let args = Wait {
        until: until.wire(),
        timeout_ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
    };
    let id = session.send_typed::<cmd::Wait>(&sub, &args)?;
    // The session answers at its deadline; the margin covers a busy machine.
    let budget = timeout + Duration::from_secs(30);
    let deadline = Instant::now() + budget;
    let mut last_stop: Option<Box<Stopped>> = None;
    let mut answer: Option<WaitReached> = None;
    loop {
        if let (Some(mut reached), Some(stop)) = (answer.take(), &last_stop) {
            if let Some(epoch) = stop.epoch {
                reached.epoch = epoch;
            }
            reached.thread = Some(stop.thread);
            reached.frame = stop.frame.clone().map(Box::new);
            return Ok(WaitResult::Reached(reached));
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
            Incoming::Event(ev) => {
                if let Ok(EventKind::Stopped(stop)) = ev.kind() {
                    last_stop = Some(stop);
                }
            }
            Incoming::Response(resp) if resp.id.as_u64() == Some(id) => {
                let result = resp.outcome.map_err(|e| ClientError::Protocol(e.into()))?;
                match client::decode::<WaitResult>("wait", result)? {
                    WaitResult::Reached(reached)
                        if reached.reached && until != Until::Ended && reached.frame.is_none() =>
                    {
                        answer = Some(reached);
                    }
                    other => return Ok(other),
                }
            }
            Incoming::Response(_) => {}
        }
    }
}

/// Where a reached wait found the program: the `stopped` body of its stop, or, when the
/// session's last stop is another one by now, the thread and frame the wait answered.
pub(crate) enum Reached {
    Stop(Box<Stopped>),
    At {
        thread: Option<u32>,
        frame: Option<Box<Frame>>,
    },
}

impl Reached {
    pub(crate) fn frame(&self) -> Option<&Frame> {
        match self {
            Reached::Stop(stop) => stop.frame.as_ref(),
            Reached::At { frame, .. } => frame.as_deref(),
        }
    }

    /// The stop with its source window.
    pub(crate) fn render(&self, color: bool) -> String {
        match self {
            Reached::Stop(stop) => render::stop(stop, color),
            Reached::At { thread, frame } => {
                render::stop_at(None, *thread, frame.as_deref(), color)
            }
        }
    }
}

impl From<Box<Stopped>> for Reached {
    fn from(stop: Box<Stopped>) -> Reached {
        Reached::Stop(stop)
    }
}

/// The human form of a reached wait: the stop with its source, or how the program ended.
pub(crate) fn reached(ctx: &Ctx, until: Until, result: &WaitReached) -> Result<String, Failure> {
    if until == Until::Ended {
        let status = ctx.call::<cmd::Status>(&NoArgs {})?;
        return Ok(match &status.last_end {
            Some(end) => render::ended(end, ctx.color),
            None => render::end_at("finished", None, None, None, ctx.color),
        });
    }
    Ok(stop_of(ctx, result)?.render(ctx.color))
}

/// The stop a reached wait answered: the wait answers where, the status also why (reason,
/// breakpoints).
pub(crate) fn stop_of(ctx: &Ctx, result: &WaitReached) -> Result<Reached, Failure> {
    let status = ctx.call::<cmd::Status>(&NoArgs {})?;
    if let Some(stop) = status.debuggee.and_then(|d| d.stop)
        && stop.epoch == Some(result.epoch)
    {
        return Ok(Reached::Stop(Box::new(stop)));
    }
    Ok(Reached::At {
        thread: result.thread,
        frame: result.frame.clone(),
    })
}

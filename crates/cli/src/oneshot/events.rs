//! `abapdbg events`: the session's events, one line each, until Ctrl-C.

use client::{ClientError, Incoming};
use jsonl::results::StopReason;
use jsonl::{Event, EventKind};
use serde::Serialize;
use serde_json::Value;

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, cell, end_reason, paint, place_of};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(after_help = "Every event any client of the session causes: stopped, \
    debuggee.ended, listener.armed, breakpoint.changed, … (jsonl/PROTOCOL.md lists them). \
    --json prints one JSON object per line: {\"event\",\"state\",\"cause\",\"body\"}. Ends \
    (exit 0) on Ctrl-C, after --count events, or when the session ends.")]
pub struct EventsArgs {
    /// Stop after this many events.
    #[arg(long)]
    count: Option<u64>,
    #[command(flatten)]
    out: Output,
}

impl OneShot for EventsArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let session = ctx.session()?;
        let sub = session.subscribe();
        let mut seen = 0;
        while self.count.is_none_or(|c| seen < c) {
            match sub.recv_until(None, &|| ctx.interrupted()) {
                // Every connection's own greeting, not news of the session.
                Ok(Some(Incoming::Event(ev))) if ev.event == "ready" => {}
                Ok(Some(Incoming::Event(ev))) => {
                    seen += 1;
                    if ctx.json {
                        ctx.print_json(&as_json(&ev))?;
                    } else {
                        out(&line(&ev, ctx.color));
                    }
                }
                Ok(_) => {}
                // Ctrl-C is how this command is meant to end; so is the session's end.
                Err(ClientError::Interrupted | ClientError::Disconnected) => break,
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }
}

/// What `--json` prints of an event: its line without `seq`.
#[derive(Serialize)]
struct Shown<'a> {
    event: &'a str,
    state: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cause: Option<&'a Value>,
    body: &'a Value,
}

fn as_json(ev: &Event) -> Shown<'_> {
    Shown {
        event: &ev.event,
        state: ev.state.as_str(),
        cause: ev.cause.as_ref(),
        body: &ev.body,
    }
}

/// `stopped           ZCL_X:48 in LINE_TOTAL (breakpoint; thread 1)`.
fn line(ev: &Event, color: bool) -> String {
    let summary = match ev.kind() {
        Ok(EventKind::Stopped(stop)) => format!(
            "{} ({}; thread {})",
            place_of(stop.frame.as_ref()),
            stop_reason(stop.reason),
            stop.thread
        ),
        Ok(EventKind::Ended(end)) => {
            let mut s = format!("thread {} {}", end.thread, end_reason(end.reason));
            if let Some(o) = &end.output {
                s.push_str(&format!(": {}", cell(o)));
            }
            s
        }
        Ok(EventKind::ListenerArmed(armed)) => format!("for {}", armed.user),
        Ok(EventKind::BreakpointChanged(changed)) => {
            let bp = &changed.breakpoint;
            format!("{} {} {}", bp.id, bp.status, bp.location)
        }
        _ => ev.body.to_string(),
    };
    format!(
        "{} {}\n",
        paint(color, Style::Bold, &format!("{:<18}", ev.event)),
        summary
    )
}

/// Why a program stopped, as the protocol words it.
fn stop_reason(reason: StopReason) -> &'static str {
    match reason {
        StopReason::Breakpoint => "breakpoint",
        StopReason::Step => "step",
        StopReason::Watchpoint => "watchpoint",
        StopReason::Exception => "exception",
    }
}

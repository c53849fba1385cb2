//! `abapdbg events`: the session's events, one line each, until Ctrl-C.

use client::{ClientError, Incoming};
use jsonl::Event;
use serde_json::{Map, Value};

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, cell, paint, place, text};
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
                        ctx.print_json(&as_json(&ev));
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

fn as_json(ev: &Event) -> Value {
    let mut o = Map::new();
    o.insert("event".into(), Value::String(ev.event.clone()));
    o.insert("state".into(), Value::String(ev.state.as_str().into()));
    if let Some(c) = &ev.cause {
        o.insert("cause".into(), c.clone());
    }
    o.insert("body".into(), ev.body.clone());
    Value::Object(o)
}

/// `stopped           ZCL_X:48 in LINE_TOTAL (breakpoint; thread 1)`.
fn line(ev: &Event, color: bool) -> String {
    let b = &ev.body;
    let summary = match ev.event.as_str() {
        "stopped" => format!(
            "{} ({}; thread {})",
            place(&b["frame"]),
            text(&b["reason"]),
            text(&b["thread"])
        ),
        "debuggee.ended" => {
            let mut s = format!("thread {} {}", text(&b["thread"]), text(&b["reason"]));
            if let Some(o) = b["output"].as_str() {
                s.push_str(&format!(": {}", cell(o)));
            }
            s
        }
        "listener.armed" => format!("for {}", text(&b["user"])),
        "breakpoint.changed" => {
            let bp = &b["breakpoint"];
            format!(
                "{} {} {}",
                text(&bp["id"]),
                text(&bp["status"]),
                text(&bp["location"])
            )
        }
        _ => b.to_string(),
    };
    format!(
        "{} {}\n",
        paint(color, Style::Bold, &format!("{:<18}", ev.event)),
        summary
    )
}

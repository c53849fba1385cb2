//! `abapdbg shutdown`: releases everything and ends the session. Never starts one.

use std::time::{Duration, Instant};

use client::{ClientError, Session};
use serde_json::{Value, json};

use super::ctx::{Ctx, Failure, out};
use super::render::text;
use super::{OneShot, Output};

/// How long to wait for the session's socket to go after it answered.
const GONE_WAIT: Duration = Duration::from_secs(10);

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The listener is deleted, our breakpoints are deleted, stopped programs \
    are continued; returns when the session has ended. --json prints the protocol's answer \
    {\"receipt\":{…}}, or {\"receipt\":null} when no session ran."
)]
pub struct ShutdownArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for ShutdownArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let session = match Session::connect(&ctx.target) {
            Ok(s) => s,
            Err(ClientError::NoSession { .. }) => {
                if ctx.json {
                    ctx.print_json(&json!({ "receipt": null }));
                } else {
                    out(&format!("no session runs for {}\n", ctx.target.describe()));
                }
                return Ok(());
            }
            Err(e) => return Err(e.into()),
        };
        let result =
            session.request("shutdown", json!({}), super::ctx::REQUEST_TIMEOUT, &|| {
                ctx.interrupted()
            })?;
        // The answer comes just before the session exits; a command right after this one
        // must not reach the ending session.
        let deadline = Instant::now() + GONE_WAIT;
        while session.socket().exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        if ctx.json {
            ctx.print_json(&result);
        } else {
            out(&receipt(&result["receipt"]));
        }
        Ok(())
    }
}

fn receipt(r: &Value) -> String {
    let mut s = format!(
        "session ended: listener {}, {} breakpoint(s) deleted\n",
        if r["listener_stopped"] == true {
            "stopped"
        } else {
            "not stopped"
        },
        text(&r["breakpoints_deleted"])
    );
    for d in r["debuggees"].as_array().into_iter().flatten() {
        s.push_str(&format!(
            "thread {} ({}): {}\n",
            text(&d["thread"]),
            text(&d["program"]),
            text(&d["how"])
        ));
    }
    for e in r["errors"].as_array().into_iter().flatten() {
        s.push_str(&format!("not released: {}\n", text(e)));
    }
    s
}

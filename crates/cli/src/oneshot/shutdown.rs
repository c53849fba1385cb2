//! `abapdbg shutdown`: releases everything and ends the session. Never starts one.

use std::time::{Duration, Instant};

use client::{ClientError, Session};
use jsonl::cmd;
use jsonl::commands::NoArgs;
use jsonl::results::{Receipt, ShutdownResult};
use serde::Serialize;

use super::ctx::{Ctx, Failure, out};
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
            // No session answers, but a killed one left its record: a session started now
            // releases what it held (at its start), and this one ends it.
            Err(ClientError::NoSession { .. }) if left_a_record(ctx) => {
                eprintln!(
                    "abapdbg: no session runs, but one that ended without releasing left a record: starting one to release what it held"
                );
                Session::connect_or_start(&ctx.target)?
            }
            Err(ClientError::NoSession { .. }) => {
                if ctx.json {
                    return ctx.print_json(&NoReceipt { receipt: None });
                } else {
                    out(&format!("no session runs for {}\n", ctx.target.describe()));
                }
                return Ok(());
            }
            Err(e) => return Err(e.into()),
        };
        let result: ShutdownResult =
            session.call::<cmd::Shutdown>(&NoArgs {}, super::ctx::REQUEST_TIMEOUT, &|| {
                ctx.interrupted()
            })?;
        // The answer comes just before the session exits; a command right after this one
        // must not reach the ending session.
        let deadline = Instant::now() + GONE_WAIT;
        while session.socket().exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        if ctx.json {
            return ctx.print_json(&result);
        }
        out(&receipt(&result.receipt));
        Ok(())
    }
}

/// Whether a session of the target recorded something it held and is gone.
fn left_a_record(ctx: &Ctx) -> bool {
    ctx.target
        .state_file_path()
        .and_then(|p| std::fs::metadata(p).ok())
        .is_some_and(|m| m.is_file() && m.len() > 0)
}

/// What `shutdown --json` prints when no session ran: `{"receipt":null}`.
#[derive(Serialize)]
struct NoReceipt {
    receipt: Option<Receipt>,
}

fn receipt(r: &Receipt) -> String {
    // Not stopped only when stopping it failed (an error names it); else none was armed.
    let listener = if r.listener_stopped {
        "listener stopped"
    } else if r.errors.iter().any(|e| e.starts_with("stop listener")) {
        "listener not stopped"
    } else {
        "no listener was armed"
    };
    let mut s = format!(
        "session ended: {listener}, {} breakpoint(s) deleted\n",
        r.breakpoints_deleted
    );
    for d in &r.debuggees {
        s.push_str(&format!("thread {} ({}): {}\n", d.thread, d.program, d.how));
    }
    for e in &r.errors {
        s.push_str(&format!("not released: {e}\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listener_is_not_stopped_only_when_stopping_it_failed() {
        let none = Receipt::default();
        assert_eq!(
            receipt(&none),
            "session ended: no listener was armed, 0 breakpoint(s) deleted\n"
        );
        let failed = Receipt {
            errors: vec!["stop listener: HTTP 500".into()],
            ..Receipt::default()
        };
        assert!(
            receipt(&failed).starts_with("session ended: listener not stopped, 0"),
            "{}",
            receipt(&failed)
        );
        let stopped = Receipt {
            listener_stopped: true,
            breakpoints_deleted: 2,
            ..Receipt::default()
        };
        assert!(receipt(&stopped).starts_with("session ended: listener stopped, 2"));
    }
}

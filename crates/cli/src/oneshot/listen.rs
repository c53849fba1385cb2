//! `abapdbg listen [--take-over]`: arms the listener and returns once the system holds it.

use std::time::{Duration, Instant};

use client::{ClientError, Incoming};
use jsonl::args::ListenArgs as Listen;
use jsonl::commands::NoArgs;
use jsonl::{EventKind, cmd};
use serde::Serialize;

use super::ctx::{Ctx, Failure, out};
use super::{OneShot, Output};

/// How long the system has to confirm the listener.
const ARM_WAIT: Duration = Duration::from_secs(20);

#[derive(Debug, clap::Args)]
#[command(
    after_help = "When another debugger (an IDE, another session) listens for the user, \
    this fails with conflict.listener; --take-over takes the listener from it."
)]
pub struct ListenArgs {
    /// Take the listener over from another debugger of the same user.
    #[arg(long)]
    take_over: bool,
    #[command(flatten)]
    out: Output,
}

impl OneShot for ListenArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let armed = arm(ctx, self.take_over)?;
        if ctx.json {
            ctx.print_json(&armed)
        } else {
            out(&format!("listener armed for {}\n", armed.user));
            Ok(())
        }
    }
}

/// What `listen --json` prints: `{"armed":true,"user":…}`, with the rest of the
/// `listener.armed` body when the system confirmed it now.
#[derive(Debug, Serialize)]
pub(crate) struct Armed {
    armed: bool,
    pub(crate) user: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    terminal_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ide_id: Option<String>,
}

/// Arms the listener and waits until the system holds it.
pub(crate) fn arm(ctx: &Ctx, take_over: bool) -> Result<Armed, Failure> {
    let session = ctx.session()?;
    // Subscribed before asking, so the confirmation cannot pass unseen.
    let sub = session.subscribe();
    let result = ctx.call::<cmd::Listen>(&Listen { take_over })?;
    if result.armed {
        let status = ctx.call::<cmd::Status>(&NoArgs {})?;
        return Ok(Armed {
            armed: true,
            user: status.system.user,
            terminal_id: None,
            ide_id: None,
        });
    }
    let deadline = Instant::now() + ARM_WAIT;
    loop {
        let event = match sub.recv_until(Some(deadline), &|| ctx.interrupted()) {
            Ok(Some(Incoming::Event(ev))) => ev,
            Ok(Some(Incoming::Response(_))) => continue,
            Ok(None) => {
                return Err(Failure::new(
                    "transport.timeout",
                    format!(
                        "the system did not confirm the listener within {} s",
                        ARM_WAIT.as_secs()
                    ),
                )
                .with_hint("the session keeps trying; 'abapdbg status' shows the listener"));
            }
            Err(ClientError::Interrupted) => {
                return Err(Failure::from(ClientError::Interrupted).with_hint(
                    "the session keeps arming the listener; 'abapdbg unlisten' stops it",
                ));
            }
            Err(e) => return Err(e.into()),
        };
        match event.kind() {
            Ok(EventKind::ListenerArmed(body)) => {
                return Ok(Armed {
                    armed: true,
                    user: body.user,
                    terminal_id: Some(body.terminal_id),
                    ide_id: Some(body.ide_id),
                });
            }
            Ok(EventKind::ListenerConflict(conflict)) => {
                let hint = conflict
                    .hint
                    .and_then(|h| super::hints::for_cli("conflict.listener", &h))
                    .unwrap_or_else(|| "'abapdbg listen --take-over' takes it over".to_string());
                return Err(Failure::new("conflict.listener", conflict.message).with_hint(hint));
            }
            Ok(EventKind::ListenerFailed(failed)) => {
                return Err(Failure::new("listener.failed", failed.message));
            }
            Ok(_) => {}
            // Only a listener event that cannot be read is ours to report.
            Err(e) if event.event.starts_with("listener.") => {
                return Err(ClientError::Malformed(e.to_string()).into());
            }
            Err(_) => {}
        }
    }
}

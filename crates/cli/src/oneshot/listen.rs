//! `abapdbg listen [--take-over]`: arms the listener and returns once the system holds it.

use std::time::{Duration, Instant};

use client::{ClientError, Incoming};
use serde_json::{Value, json};

use super::ctx::{Ctx, Failure, out};
use super::render::text;
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
            ctx.print_json(&armed);
        } else {
            out(&format!("listener armed for {}\n", text(&armed["user"])));
        }
        Ok(())
    }
}

/// Arms the listener and waits until the system holds it: `{"armed":true,"user":…}` (with the
/// rest of the `listener.armed` body when it came now).
pub(crate) fn arm(ctx: &Ctx, take_over: bool) -> Result<Value, Failure> {
    let session = ctx.session()?;
    // Subscribed before asking, so the confirmation cannot pass unseen.
    let sub = session.subscribe();
    let result = ctx.request("listen", json!({ "take_over": take_over }))?;
    if result["armed"] == true {
        let status = ctx.request("status", json!({}))?;
        return Ok(json!({"armed": true, "user": status["system"]["user"]}));
    }
    let deadline = Instant::now() + ARM_WAIT;
    loop {
        match sub.recv_until(Some(deadline), &|| ctx.interrupted()) {
            Ok(Some(Incoming::Event(ev))) => match ev.event.as_str() {
                "listener.armed" => {
                    let mut body = ev.body;
                    if let Some(o) = body.as_object_mut() {
                        o.insert("armed".into(), Value::Bool(true));
                    }
                    return Ok(body);
                }
                "listener.conflict" | "listener.failed" => {
                    let code = if ev.event == "listener.conflict" {
                        "conflict.listener"
                    } else {
                        "listener.failed"
                    };
                    let message = ev.body["message"]
                        .as_str()
                        .unwrap_or("the listener could not be armed");
                    let mut failure = Failure::new(code, message);
                    if let Some(h) = ev.body["hint"].as_str() {
                        failure = failure.with_hint(h);
                    } else if code == "conflict.listener" {
                        failure = failure.with_hint("'abapdbg listen --take-over' takes it over");
                    }
                    return Err(failure);
                }
                _ => {}
            },
            Ok(Some(Incoming::Response(_))) => {}
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
        }
    }
}

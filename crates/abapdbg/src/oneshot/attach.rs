//! `abapdbg attach [--timeout s] [--json]`: arms the listener, waits for a program to stop,
//! prints the stop and exits — the seed spec's `attach --json`, for scripts. (On a terminal
//! this is where the interactive debugger will start; until then it behaves the same.)

use std::time::Duration;

use serde_json::Value;

use super::ctx::{Ctx, Failure, out};
use super::wait::{Until, reached, wait};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Prints 'Listener active' on stderr as soon as the system holds the \
    listener: start the program after that. Then waits for a stop (one that already holds \
    answers at once) and prints it; --json prints the protocol's wait answer \
    {\"reached\":true,\"epoch\":…,\"thread\":…,\"frame\":…} with \"session\" (the session's \
    socket). Step, inspect and continue with the other commands. No stop within --timeout: \
    exit 3 (state.timed_out)."
)]
pub(crate) struct AttachArgs {
    /// How long to wait for a stop: seconds, or 30s, 2m.
    #[arg(long, default_value = "30", value_parser = super::args::duration)]
    timeout: Duration,
    /// Take the listener over from another debugger of the same user.
    #[arg(long)]
    take_over: bool,
    #[command(flatten)]
    out: Output,
}

impl OneShot for AttachArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        super::listen::arm(ctx, self.take_over)?;
        // The marker scripts of the seed spec wait for before they start the program.
        eprintln!("Listener active");
        let mut result = wait(ctx, Until::Stopped, self.timeout, "attached, waiting")?;
        if ctx.json {
            let socket = ctx.session()?.socket().display().to_string();
            if let Some(o) = result.as_object_mut() {
                o.insert("session".into(), Value::String(socket));
            }
            ctx.print_json(&result);
        } else {
            out(&reached(ctx, Until::Stopped, &result)?);
        }
        Ok(())
    }
}

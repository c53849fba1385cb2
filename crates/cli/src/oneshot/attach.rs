//! `abapdbg attach [--timeout s] [--json]`: arms the listener, waits for a program to stop,
//! prints the stop and exits — the seed spec's `attach --json`, for scripts. On a terminal
//! (stdin and stdout) without --json it is the interactive debugger, as `abapdbg repl`.

use std::io::IsTerminal;
use std::time::Duration;

use jsonl::results::WaitReached;
use serde::Serialize;

use super::ctx::{Ctx, Failure, out};
use super::wait::{Until, reached, wait};
use super::{OneShot, Output};
use crate::repl;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Prints 'Listener active' on stderr as soon as the system holds the \
    listener: start the program after that. Then waits for a stop (one that already holds \
    answers at once) and prints it; --json prints the protocol's wait answer \
    {\"reached\":true,\"epoch\":…,\"thread\":…,\"frame\":…} with \"session\" (the session's \
    socket). Step, inspect and continue with the other commands. No stop within --timeout: \
    exit 3 (state.timed_out).\n\n\
    On a terminal (stdin and stdout) and without --json, the stop opens the interactive \
    debugger instead, as 'abapdbg repl' (h at its prompt lists the commands)."
)]
pub struct AttachArgs {
    /// How long to wait for a stop: seconds, or 30s, 2m.
    #[arg(long, default_value = "30", value_parser = super::args::duration)]
    timeout: Duration,
    /// Take the listener over from another debugger of the same user.
    #[arg(long)]
    take_over: bool,
    #[command(flatten)]
    out: Output,
}

/// Whether a person is at the terminal: the interactive debugger, not the script form.
fn at_terminal() -> bool {
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

impl OneShot for AttachArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn interactive(&self) -> bool {
        !self.out.json && at_terminal()
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        if self.interactive() {
            let options = repl::Options {
                timeout: Some(self.timeout),
                take_over: self.take_over,
            };
            return repl::run(ctx, &options);
        }
        super::listen::arm(ctx, self.take_over)?;
        // The marker scripts of the seed spec wait for before they start the program.
        eprintln!("Listener active");
        let result = wait(ctx, Until::Stopped, self.timeout, "attached, waiting")?;
        if ctx.json {
            let socket = ctx.session()?.socket().display().to_string();
            ctx.print_json(&Attached {
                reached: result,
                session: socket,
            })
        } else {
            out(&reached(ctx, Until::Stopped, &result)?);
            Ok(())
        }
    }
}

/// What `attach --json` prints: the protocol's wait answer and the session's socket.
#[derive(Serialize)]
struct Attached {
    #[serde(flatten)]
    reached: WaitReached,
    session: String,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Arms the listener and waits for a program to stop (at once when one is \
    stopped already; Ctrl-C ends the wait and leaves the session as it is), then reads \
    commands: s, n, o, c to step into, over, out and continue; v, x <var>, p <path>, \
    table <var>, bt, f <n>, threads, t <n> to look; b <location>, set, w; q detaches (our breakpoints come off \
    the system, the program runs on) and exits, as Ctrl-D does; kill terminates the program. \
    h lists them all. History is kept in repl_history in the state directory \
    (ABAPDBG_STATE_DIR, else ~/.local/state/abapdbg); Tab completes commands and variables."
)]
pub struct ReplArgs {
    /// How long to wait for the first stop (seconds, or 30s, 2m); without it, until one comes.
    #[arg(long, value_parser = super::args::duration)]
    timeout: Option<Duration>,
    /// Take the listener over from another debugger of the same user.
    #[arg(long)]
    take_over: bool,
}

impl OneShot for ReplArgs {
    fn json(&self) -> bool {
        false
    }

    fn interactive(&self) -> bool {
        true
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        if !at_terminal() {
            return Err(Failure::usage(
                "the interactive debugger needs a terminal (stdin and stdout)",
            )
            .with_hint("scripts use 'abapdbg attach --json' and the one-shot commands"));
        }
        let options = repl::Options {
            timeout: self.timeout,
            take_over: self.take_over,
        };
        repl::run(ctx, &options)
    }
}

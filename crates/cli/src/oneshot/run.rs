//! `abapdbg run <class> [--report]`: runs a class as a console application (or a report) and
//! returns when it stops or ends.

use jsonl::args::RunArgs as Run;
use jsonl::cmd;
use jsonl::results::RunResult;

use super::ctx::{Ctx, Failure, out};
use super::movement::{Answer, Outcome, print, until_stop_or_end_within};
use super::render;
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Arms the listener, starts the program and returns when it stops at a \
    breakpoint (the stop and its source) or ends (what it printed). A program that stopped \
    goes on running in the session: step, continue or terminate it with further commands.\n\n\
    --json prints {\"stop\":{…}} (the stopped event's body) when it stopped, or the protocol's \
    answer {\"class\":…,\"output\":…} when it ended. Ctrl-C stops waiting; the program goes on."
)]
pub struct RunArgs {
    /// The class (IF_OO_ADT_CLASSRUN) to run, or with --report the report.
    class: String,
    /// Run a report (executable program) instead of a class.
    #[arg(long)]
    report: bool,
    /// Give up waiting after this many seconds (exit 3, state.timed_out); the program goes on.
    #[arg(long, value_name = "SECONDS", default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    #[command(flatten)]
    out: Output,
}

impl OneShot for RunArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let name = self.class.trim();
        let args = if self.report {
            Run {
                program: Some(name.to_string()),
                ..Run::default()
            }
        } else {
            Run {
                class: Some(name.to_string()),
                ..Run::default()
            }
        };
        let outcome = until_stop_or_end_within::<cmd::Run>(
            ctx,
            &format!("running {name}"),
            &args,
            Answer::Trigger,
            Some(std::time::Duration::from_secs(self.timeout)),
        )?;
        let Outcome::Answered(result) = outcome else {
            return print(ctx, &outcome);
        };
        let result: RunResult = client::decode("run", result)?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        out(&render::end_at(
            "finished",
            None,
            None,
            Some(&result.output),
            ctx.color,
        ));
        Ok(())
    }
}

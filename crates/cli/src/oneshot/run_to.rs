//! `abapdbg run-to <line|location>`.

use super::ctx::{Ctx, Failure};
use jsonl::cmd;

use super::movement::{Answer, print, until_stop_or_end};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
pub struct RunToArgs {
    /// A line of the current source (40), or a location (ZCL_X:40).
    target: String,
    #[command(flatten)]
    out: Output,
}

impl OneShot for RunToArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let args = super::args::line_target(&self.target);
        let outcome = until_stop_or_end::<cmd::RunToLine>(
            ctx,
            &format!("running to {}", self.target.trim()),
            &args,
            Answer::Movement,
        )?;
        print(ctx, &outcome)
    }
}

//! `abapdbg jump-to <line|location>`: a write action (the session must allow writes).

use super::ctx::{Ctx, Failure};
use jsonl::cmd;

use super::movement::{Answer, print, until_stop_or_end};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Skips (or repeats) statements without running them. Refused with \
    permission.write_not_allowed unless the session allows writes (ABAPDBG_ALLOW_WRITES=1 \
    when it starts, or serve --allow-writes)."
)]
pub struct JumpToArgs {
    /// A line of the current source (40), or a location (ZCL_X:40).
    target: String,
    #[command(flatten)]
    out: Output,
}

impl OneShot for JumpToArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let args = super::args::line_target(&self.target);
        let outcome = until_stop_or_end::<cmd::JumpToLine>(
            ctx,
            &format!("jumping to {}", self.target.trim()),
            &args,
            Answer::Movement,
        )?;
        print(ctx, &outcome)
    }
}

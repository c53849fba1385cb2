//! `abapdbg continue`: `step continue`.

use super::ctx::{Ctx, Failure};
use super::step::{StepKind, step};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Returns the next stop or the end of the program (with what a run \
    printed). --json prints {\"stop\":{…}} or {\"ended\":{…}}. Ctrl-C stops waiting; the \
    program goes on."
)]
pub struct ContinueArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for ContinueArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        step(ctx, StepKind::Continue)
    }
}

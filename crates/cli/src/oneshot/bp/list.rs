//! `abapdbg bp list`.

use jsonl::cmd;
use jsonl::commands::NoArgs;

use crate::oneshot::ctx::{Ctx, Failure};
use crate::oneshot::{OneShot, Output};

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for ListArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.call::<cmd::BpList>(&NoArgs {})?;
        super::print(ctx, &result, &result.breakpoints, true)
    }
}

//! `abapdbg bp enable <id>… | --all`.

use clap::ArgGroup;
use jsonl::cmd;

use crate::oneshot::ctx::{Ctx, Failure};
use crate::oneshot::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(group(ArgGroup::new("which").required(true).args(["ids", "all"])))]
pub struct EnableArgs {
    /// Breakpoint ids (see 'abapdbg bp list').
    #[arg(add = crate::oneshot::complete::breakpoints())]
    ids: Vec<u32>,
    /// Every breakpoint of the session.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    out: Output,
}

impl OneShot for EnableArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.call::<cmd::BpEnable>(&super::ids(self.ids.clone(), self.all))?;
        super::print(ctx, &result, &result.breakpoints, true)
    }
}

//! `abapdbg terminate`: aborts the stopped program.

use jsonl::args::AtArgs;
use jsonl::cmd;

use super::ctx::{Ctx, Failure, out};
use super::render;
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "--json prints the protocol's answer {\"ended\":{…,\"reason\":\"terminated\"}}."
)]
pub struct TerminateArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for TerminateArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.call::<cmd::Terminate>(&AtArgs::default())?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        out(&render::ended(&result.ended, ctx.color));
        Ok(())
    }
}

//! `abapdbg unlisten`: deletes the listener.

use jsonl::cmd;
use jsonl::commands::NoArgs;

use super::ctx::{Ctx, Failure, out};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
pub struct UnlistenArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for UnlistenArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.call::<cmd::Unlisten>(&NoArgs {})?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        if result.stopped {
            out("listener stopped\n");
        } else {
            out("no listener was armed\n");
        }
        Ok(())
    }
}

//! `abapdbg thread <n>`: makes a caught program the current one.

use jsonl::args::ThreadArgs as Select;
use jsonl::cmd;

use super::ctx::{Ctx, Failure, out};
use super::{OneShot, Output};
use jsonl::results::ThreadInfo;

#[derive(Debug, clap::Args)]
pub struct ThreadArgs {
    /// The thread number (see 'abapdbg threads').
    #[arg(add = crate::oneshot::complete::threads())]
    id: u32,
    #[command(flatten)]
    out: Output,
}

impl OneShot for ThreadArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.call::<cmd::Thread>(&Select { id: self.id })?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        let thread: Vec<ThreadInfo> = result.thread.into_iter().collect();
        out(&super::threads::table(&thread, ctx.color));
        Ok(())
    }
}

//! `abapdbg thread <n>`: makes a caught program the current one.

use serde_json::json;

use super::ctx::{Ctx, Failure, out};
use super::{OneShot, Output};

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
        let result = ctx.request("thread", json!({ "id": self.id }))?;
        if ctx.json {
            ctx.print_json(&result);
            return Ok(());
        }
        out(&super::threads::table(
            &[result["thread"].clone()],
            ctx.color,
        ));
        Ok(())
    }
}

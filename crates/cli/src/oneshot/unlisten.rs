//! `abapdbg unlisten`: deletes the listener.

use serde_json::json;

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
        let result = ctx.request("unlisten", json!({}))?;
        if ctx.json {
            ctx.print_json(&result);
        } else if result["stopped"] == true {
            out("listener stopped\n");
        } else {
            out("no listener was armed\n");
        }
        Ok(())
    }
}

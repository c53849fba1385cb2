//! `abapdbg bp export`: the breakpoints as JSON on stdout, for `bp import`.

use serde_json::json;

use crate::oneshot::ctx::{Ctx, Failure, out};
use crate::oneshot::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Prints {\"format\":\"abapdbg-breakpoints/1\",\"breakpoints\":[…]}, \
    pretty-printed (one line with --json). Save it and set the same breakpoints later, in \
    another session or on another system: abapdbg bp export > bps.json; abapdbg bp import bps.json"
)]
pub struct ExportArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for ExportArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.request("bp.export", json!({}))?;
        if ctx.json {
            ctx.print_json(&result);
        } else {
            let pretty =
                serde_json::to_string_pretty(&result).unwrap_or_else(|_| result.to_string());
            out(&format!("{pretty}\n"));
        }
        Ok(())
    }
}

//! `abapdbg bp export`: the breakpoints as JSON on stdout, for `bp import`.

use jsonl::cmd;
use jsonl::commands::NoArgs;

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
        let result = ctx.call::<cmd::BpExport>(&NoArgs {})?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        // Through a `Value`, so members come sorted by name, as `--json` prints them.
        let pretty = serde_json::to_value(&result)
            .and_then(|v| serde_json::to_string_pretty(&v))
            .map_err(|e| {
                Failure::new("internal.bug", format!("the export cannot be printed: {e}"))
            })?;
        out(&format!("{pretty}\n"));
        Ok(())
    }
}

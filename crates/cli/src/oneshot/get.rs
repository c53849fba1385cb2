//! `abapdbg get <path>`: one variable by path.

use jsonl::args::GetArgs as Get;
use jsonl::cmd;

use super::ctx::{Ctx, Failure, out};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Paths: LV_COUNT, LS_ORDER-NUMBER, LT_ITEMS[3]-PRICE, ME->MV_NAME, \
    ZCL_X=>GV_A, <FS>, LR_REF->*. The value is whole (--full also beyond the session's size \
    limit). --json prints the protocol's answer {\"epoch\",\"variable\":{…}}."
)]
pub struct GetArgs {
    /// The variable's path.
    #[arg(add = crate::oneshot::complete::variables())]
    path: String,
    /// The whole value, however long.
    #[arg(long)]
    full: bool,
    #[command(flatten)]
    out: Output,
}

impl OneShot for GetArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.call::<cmd::Get>(&Get {
            path: self.path.trim().to_uppercase(),
            full: self.full,
            ..Get::default()
        })?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        let mut shown = [result.variable];
        super::vars::summarize(ctx, &mut shown);
        out(&super::vars::table(&shown, ctx.color));
        Ok(())
    }
}

//! `abapdbg set <path> <value>`: assigns a value (a write action).

use jsonl::args::SetArgs as Assign;
use jsonl::cmd;

use super::ctx::{Ctx, Failure, out};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The value is converted as ABAP converts it. Refused with \
    permission.write_not_allowed unless the session allows writes (ABAPDBG_ALLOW_WRITES=1 when \
    it starts, or serve --allow-writes). --json prints the protocol's answer \
    {\"epoch\",\"path\",\"echo\",\"variable\"}."
)]
pub struct SetArgs {
    /// The variable's path, e.g. LV_COUNT or LS_ORDER-NUMBER.
    #[arg(add = crate::oneshot::complete::variables())]
    path: String,
    /// The new value as ABAP text, e.g. 5, 'ACME', 20261231.
    value: String,
    #[command(flatten)]
    out: Output,
}

impl OneShot for SetArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.call::<cmd::Set>(&Assign {
            path: self.path.trim().to_uppercase(),
            value: self.value.clone(),
            ..Assign::default()
        })?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        let variable: Vec<_> = result.variable.into_iter().collect();
        out(&super::vars::table(&variable, ctx.color));
        Ok(())
    }
}

//! `abapdbg bp list`.

use serde_json::json;

use crate::oneshot::ctx::{Ctx, Failure};
use crate::oneshot::{OneShot, Output};

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for ListArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.request("bp.list", json!({}))?;
        super::print(ctx, &result, true);
        Ok(())
    }
}

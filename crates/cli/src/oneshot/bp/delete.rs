//! `abapdbg bp delete <id>… | --id <id> | --all`.

use clap::ArgGroup;
use jsonl::cmd;

use crate::oneshot::ctx::{Ctx, Failure, out};
use crate::oneshot::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(group(ArgGroup::new("which").required(true).multiple(true).args(["ids", "id", "all"])))]
pub struct DeleteArgs {
    /// Breakpoint ids (see 'abapdbg bp list').
    #[arg(add = crate::oneshot::complete::breakpoints())]
    ids: Vec<u32>,
    /// A breakpoint id (repeatable).
    #[arg(long = "id", value_name = "ID", add = crate::oneshot::complete::breakpoints())]
    id: Vec<u32>,
    /// Delete every breakpoint of the session.
    #[arg(long, conflicts_with_all = ["ids", "id"])]
    all: bool,
    #[command(flatten)]
    out: Output,
}

impl OneShot for DeleteArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let ids: Vec<u32> = self.ids.iter().chain(&self.id).copied().collect();
        let result = ctx.call::<cmd::BpDelete>(&super::ids(ids, self.all))?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        let deleted: Vec<String> = result.deleted.iter().map(u32::to_string).collect();
        out(&if deleted.is_empty() {
            "no breakpoints to delete\n".to_string()
        } else {
            format!("deleted {}\n", deleted.join(", "))
        });
        Ok(())
    }
}

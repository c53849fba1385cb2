//! `abapdbg bp delete <id>… | --id <id> | --all`.

use clap::ArgGroup;
use serde_json::json;

use crate::oneshot::ctx::{Ctx, Failure, out};
use crate::oneshot::render::text;
use crate::oneshot::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(group(ArgGroup::new("which").required(true).multiple(true).args(["ids", "id", "all"])))]
pub struct DeleteArgs {
    /// Breakpoint ids (see 'abapdbg bp list').
    #[arg(add = crate::oneshot::complete::breakpoints())]
    ids: Vec<u64>,
    /// A breakpoint id (repeatable).
    #[arg(long = "id", value_name = "ID", add = crate::oneshot::complete::breakpoints())]
    id: Vec<u64>,
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
        let ids: Vec<u64> = self.ids.iter().chain(&self.id).copied().collect();
        let args = if self.all {
            json!({"all": true})
        } else {
            json!({ "ids": ids })
        };
        let result = ctx.request("bp.delete", args)?;
        if ctx.json {
            ctx.print_json(&result);
            return Ok(());
        }
        let deleted: Vec<String> = result["deleted"]
            .as_array()
            .into_iter()
            .flatten()
            .map(text)
            .collect();
        out(&if deleted.is_empty() {
            "no breakpoints to delete\n".to_string()
        } else {
            format!("deleted {}\n", deleted.join(", "))
        });
        Ok(())
    }
}

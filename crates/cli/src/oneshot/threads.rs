//! `abapdbg threads`: the caught programs.

use serde_json::{Value, json};

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, Table, place, text};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
pub struct ThreadsArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for ThreadsArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.request("threads", json!({}))?;
        if ctx.json {
            ctx.print_json(&result);
            return Ok(());
        }
        let list: Vec<Value> = result["threads"].as_array().cloned().unwrap_or_default();
        if list.is_empty() {
            out("no program is caught\n");
            return Ok(());
        }
        out(&table(&list, ctx.color));
        Ok(())
    }
}

/// Threads as a table, the current one marked.
pub(crate) fn table(threads: &[Value], color: bool) -> String {
    let mut t = Table::new(&["", "THREAD", "STATE", "WHERE", "PROGRAM", "USER"]);
    t.align_right(1);
    for th in threads {
        let current = th["current"] == true;
        let state = if th["running"] == true {
            "running"
        } else {
            "stopped"
        };
        t.styled_row(vec![
            (if current { ">" } else { "" }.into(), Some(Style::Green)),
            (text(&th["thread"]), None),
            (state.into(), None),
            (place(&th["frame"]), current.then_some(Style::Bold)),
            (text(&th["program"]), None),
            (text(&th["user"]), None),
        ]);
    }
    t.render(color)
}

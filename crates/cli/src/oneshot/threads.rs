//! `abapdbg threads`: the caught programs.

use jsonl::cmd;
use jsonl::commands::NoArgs;
use jsonl::results::ThreadInfo;

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, Table, place_of};
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
        let result = ctx.call::<cmd::Threads>(&NoArgs {})?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        if result.threads.is_empty() {
            out("no program is caught\n");
            return Ok(());
        }
        out(&table(&result.threads, ctx.color));
        Ok(())
    }
}

/// Threads as a table, the current one marked.
pub(crate) fn table(threads: &[ThreadInfo], color: bool) -> String {
    let mut t = Table::new(&["", "THREAD", "STATE", "WHERE", "PROGRAM", "USER"]);
    t.align_right(1);
    for th in threads {
        let current = th.current;
        let state = if th.running { "running" } else { "stopped" };
        t.styled_row(vec![
            (if current { ">" } else { "" }.into(), Some(Style::Green)),
            (th.thread.to_string(), None),
            (state.into(), None),
            (place_of(th.frame.as_ref()), current.then_some(Style::Bold)),
            (th.program.clone(), None),
            (th.user.clone(), None),
        ]);
    }
    t.render(color)
}

//! `abapdbg stack`.

use jsonl::args::AtArgs;
use jsonl::cmd;

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, Table, location};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
pub struct StackArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for StackArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.call::<cmd::Stack>(&AtArgs::default())?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        // FILE: the abapGit file the line counts in, where an editor finds it.
        let mut t = Table::new(&["", "#", "LOCATION", "METHOD", "INCLUDE", "FILE"]);
        t.align_right(1);
        for f in &result.frames {
            let current = f.index == result.current;
            let location = location(f);
            let file = f
                .file
                .as_ref()
                .map(|file| format!("{file}:{}", f.line))
                .unwrap_or_default();
            t.styled_row(vec![
                (if current { ">" } else { "" }.into(), Some(Style::Green)),
                (f.index.to_string(), None),
                (location, current.then_some(Style::Bold)),
                (f.method.clone(), None),
                (f.include.clone(), None),
                (file, None),
            ]);
        }
        out(&t.render(ctx.color));
        Ok(())
    }
}

//! `abapdbg stack`.

use serde_json::json;

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, Table, text};
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
        let result = ctx.request("stack", json!({}))?;
        if ctx.json {
            ctx.print_json(&result);
            return Ok(());
        }
        let mut t = Table::new(&["", "#", "LOCATION", "METHOD", "INCLUDE"]);
        t.align_right(1);
        for f in result["frames"].as_array().into_iter().flatten() {
            let current = f["index"] == result["current"];
            let location = format!("{}:{}", text(&f["object"]), text(&f["line"]));
            t.styled_row(vec![
                (if current { ">" } else { "" }.into(), Some(Style::Green)),
                (text(&f["index"]), None),
                (location, current.then_some(Style::Bold)),
                (text(&f["method"]), None),
                (text(&f["include"]), None),
            ]);
        }
        out(&t.render(ctx.color));
        Ok(())
    }
}

//! `abapdbg frame <n>`: selects a stack frame for vars, get and source.

use serde_json::json;

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, paint, place, source_window, text};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
pub struct FrameArgs {
    /// The frame's index in 'abapdbg stack' (0 = innermost).
    #[arg(add = crate::oneshot::complete::frames())]
    index: usize,
    #[command(flatten)]
    out: Output,
}

impl OneShot for FrameArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.request("frame", json!({ "index": self.index }))?;
        if ctx.json {
            ctx.print_json(&result);
            return Ok(());
        }
        let f = &result["frame"];
        let head = format!("frame {} at {}", text(&f["index"]), place(f));
        out(&format!(
            "{}\n{}",
            paint(ctx.color, Style::Bold, &head),
            source_window(&f["source"], ctx.color)
        ));
        Ok(())
    }
}

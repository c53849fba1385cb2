//! `abapdbg frame <n>`: selects a stack frame for vars, get and source.

use jsonl::args::FrameArgs as Select;
use jsonl::cmd;

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, paint, place, source_window};
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
        let result = ctx.call::<cmd::Frame>(&Select {
            index: self.index,
            epoch: None,
        })?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        let f = &result.frame;
        let head = format!("frame {} at {}", f.index, place(f));
        out(&format!(
            "{}\n{}",
            paint(ctx.color, Style::Bold, &head),
            source_window(f.source.as_deref().unwrap_or_default(), ctx.color)
        ));
        Ok(())
    }
}

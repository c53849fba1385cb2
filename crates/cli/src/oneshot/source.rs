//! `abapdbg source [--location L] [--context N]`: source lines around the current line.

use jsonl::args::SourceArgs as Source;
use jsonl::cmd;

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, paint, source_window};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
pub struct SourceArgs {
    /// Around this location (ZCL_X:40) instead of the selected frame's line.
    #[arg(long)]
    location: Option<String>,
    /// Lines before and after.
    #[arg(long, default_value_t = 5)]
    context: u32,
    #[command(flatten)]
    out: Output,
}

impl OneShot for SourceArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let args = Source {
            location: self.location.as_ref().map(|l| l.trim().to_string()),
            before: self.context,
            after: self.context,
            thread: None,
            frame: None,
        };
        let result = ctx.call::<cmd::Source>(&args)?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        let head = format!("{} line {}", result.uri, result.line);
        out(&format!(
            "{}\n{}",
            paint(ctx.color, Style::Dim, &head),
            source_window(&result.lines, ctx.color)
        ));
        Ok(())
    }
}

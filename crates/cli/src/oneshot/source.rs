//! `abapdbg source [--location L] [--context N]`: source lines around the current line.

use serde_json::{Value, json};

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, paint, source_window, text};
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
        let mut args = json!({"before": self.context, "after": self.context});
        if let Some(l) = &self.location {
            args["location"] = Value::String(l.trim().to_string());
        }
        let result = ctx.request("source", args)?;
        if ctx.json {
            ctx.print_json(&result);
            return Ok(());
        }
        let head = format!("{} line {}", text(&result["uri"]), text(&result["line"]));
        out(&format!(
            "{}\n{}",
            paint(ctx.color, Style::Dim, &head),
            source_window(&result["lines"], ctx.color)
        ));
        Ok(())
    }
}

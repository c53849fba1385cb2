//! `abapdbg detach`: takes our breakpoints off the system and lets the program run on.

use serde_json::json;

use super::ctx::{Ctx, Failure, out};
use super::render::{self, text};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The breakpoints stay listed (disabled); 'abapdbg bp enable --all' \
    sets them again. --json prints the protocol's answer {\"detached\",\"how\",\
    \"breakpoints_disabled\"}."
)]
pub struct DetachArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for DetachArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.request("detach", json!({}))?;
        if ctx.json {
            ctx.print_json(&result);
            return Ok(());
        }
        let mut s = render::ended(&result["detached"]["ended"], ctx.color);
        let ids: Vec<String> = result["breakpoints_disabled"]
            .as_array()
            .into_iter()
            .flatten()
            .map(text)
            .collect();
        if !ids.is_empty() {
            s.push_str(&format!("breakpoints disabled: {}\n", ids.join(", ")));
        }
        out(&s);
        Ok(())
    }
}

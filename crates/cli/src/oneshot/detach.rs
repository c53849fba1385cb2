//! `abapdbg detach`: takes our breakpoints off the system and lets the program run on.

use jsonl::args::AtArgs;
use jsonl::cmd;

use super::ctx::{Ctx, Failure, out};
use super::render;
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
        let result = ctx.call::<cmd::Detach>(&AtArgs::default())?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        let mut s = render::ended(&result.detached.ended, ctx.color);
        let ids: Vec<String> = result
            .breakpoints_disabled
            .iter()
            .map(u32::to_string)
            .collect();
        if !ids.is_empty() {
            s.push_str(&format!("breakpoints disabled: {}\n", ids.join(", ")));
        }
        out(&s);
        Ok(())
    }
}

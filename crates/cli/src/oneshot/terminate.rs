//! `abapdbg terminate`: aborts the stopped program.

use jsonl::args::AtArgs;
use jsonl::cmd;
use jsonl::results::Ended;

use super::ctx::{Ctx, Failure, out};
use super::render;
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "--json prints the protocol's answer {\"ended\":{…,\"reason\":\"terminated\"}}."
)]
pub struct TerminateArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for TerminateArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.call::<cmd::Terminate>(&AtArgs::default())?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        out(&terminated(&result.ended, ctx.color));
        Ok(())
    }
}

/// A terminate that succeeded: the program was terminated, and what it printed until then.
fn terminated(ended: &Ended, color: bool) -> String {
    let mut s = render::paint(color, render::Style::Bold, "terminated");
    s.push_str(&format!(" the program (thread {})\n", ended.thread));
    if let Some(output) = ended.output.as_deref().filter(|o| !o.is_empty()) {
        s.push_str(output);
        if !output.ends_with('\n') {
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terminate_says_the_program_was_terminated() {
        let ended: Ended = serde_json::from_value(serde_json::json!({"thread": 1,
            "reason": "terminated", "output": "partial", "run": {"cmd": "run", "ok": false,
            "error": {"code": "run.failed", "message": "programTerminated (HTTP 500)"}}}))
        .expect("an ended body");
        let text = terminated(&ended, false);
        assert_eq!(text, "terminated the program (thread 1)\npartial\n");
    }
}

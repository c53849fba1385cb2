//! `abapdbg dump catch <id> [--user U]`: breakpoints that stop the next occurrence of a dump
//! before it dies, for the dump's user (or `--user`), and the listener armed.

use jsonl::args::DumpCatchArgs;
use jsonl::cmd;

use crate::oneshot::ctx::{Ctx, Failure, out};
use crate::oneshot::{OneShot, Output};

#[derive(Debug, clap::Args)]
pub struct CatchArgs {
    /// The dump's id, as 'abapdbg dumps' lists it.
    #[arg(add = crate::oneshot::complete::dumps())]
    id: String,
    /// Catch the runs of this user (default: the dump's user; for another user than the
    /// session's, the session also listens for that user).
    #[arg(long)]
    user: Option<String>,
    #[command(flatten)]
    out: Output,
}

impl OneShot for CatchArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.call::<cmd::DumpCatch>(&DumpCatchArgs {
            id: self.id.clone(),
            user: self.user.clone(),
        })?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        out(&crate::oneshot::bp::table(
            &result.breakpoints,
            false,
            ctx.color,
        ));
        let armed = if result.armed {
            "listening"
        } else {
            "not listening yet"
        };
        out(&format!("catching the runs of {} ({armed})\n", result.user));
        if let Some(warning) = &result.warning {
            eprintln!("abapdbg: warning: {warning}");
        }
        Ok(())
    }
}

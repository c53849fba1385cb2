//! `abapdbg debug …`: the original debug command's forms (seed 000), so a script written for
//! it runs with the program name changed. Each subcommand is the abapdbg command it maps to,
//! with the same clap arguments (`debug set` is `bp set`, `debug step` is `step`, …); only
//! `debug attach` adds flags of its own (`attach.rs`). README's Shell section has the table.

mod attach;

use clap::Subcommand;

use super::OneShot;
use super::bp::{delete, list, set};
use super::ctx::{Ctx, Failure};
use super::{stack, step, terminate, vars};

#[derive(Debug, Subcommand)]
pub enum DebugCommand {
    /// Set breakpoints: --objects ZCL_FOO:42,…, --files FILE:LINE,…, --object X --line N
    /// (as 'abapdbg bp set').
    Set(set::SetArgs),
    /// The session's breakpoints (as 'abapdbg bp list').
    List(list::ListArgs),
    /// Delete breakpoints: --id ID, --all, --object X --line N (as 'abapdbg bp delete').
    Delete(delete::DeleteArgs),
    /// Arm the listener, wait for a stop and print it (as 'abapdbg attach').
    Attach(attach::DebugAttachArgs),
    /// Step: --type over|into|out|continue (as 'abapdbg step').
    Step(step::StepArgs),
    /// Variables: --name VAR, --expand VAR (as 'abapdbg vars').
    Vars(vars::VarsArgs),
    /// The call stack (as 'abapdbg stack').
    Stack(stack::StackArgs),
    /// Abort the stopped program (as 'abapdbg terminate').
    Terminate(terminate::TerminateArgs),
}

impl DebugCommand {
    fn inner(&self) -> &dyn OneShot {
        match self {
            DebugCommand::Set(c) => c,
            DebugCommand::List(c) => c,
            DebugCommand::Delete(c) => c,
            DebugCommand::Attach(c) => c,
            DebugCommand::Step(c) => c,
            DebugCommand::Vars(c) => c,
            DebugCommand::Stack(c) => c,
            DebugCommand::Terminate(c) => c,
        }
    }
}

impl OneShot for DebugCommand {
    fn json(&self) -> bool {
        self.inner().json()
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        self.inner().run(ctx)
    }

    fn interactive(&self) -> bool {
        self.inner().interactive()
    }
}

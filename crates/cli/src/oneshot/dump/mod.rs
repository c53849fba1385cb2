//! `abapdbg dump …`: one short dump: show it, or catch its next occurrence.

pub(crate) mod catch;
pub(crate) mod show;

use clap::Subcommand;

use super::OneShot;
use super::ctx::{Ctx, Failure};

#[derive(Debug, Subcommand)]
pub enum DumpCommand {
    /// One dump: its chapters, the source around the termination line, the active calls.
    Show(show::ShowArgs),
    /// Stop the next occurrence of a dump before it dies (breakpoints for its user).
    Catch(catch::CatchArgs),
}

impl OneShot for DumpCommand {
    fn json(&self) -> bool {
        self.inner().json()
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        self.inner().run(ctx)
    }
}

impl DumpCommand {
    fn inner(&self) -> &dyn OneShot {
        match self {
            DumpCommand::Show(c) => c,
            DumpCommand::Catch(c) => c,
        }
    }
}

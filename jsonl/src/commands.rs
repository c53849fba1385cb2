//! The one list of commands: each command's name, argument type and result type, written
//! once. [`crate::COMMANDS`], the schema's `Request` and `Response` definitions and the
//! engine's dispatch (an exhaustive `match` on [`Command`]) all come from this table, so a
//! command cannot be listed without being dispatched, or dispatched without being listed.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::args::*;
use crate::results::*;

/// The arguments of a command that takes none: any object.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoArgs {}

impl JsonSchema for NoArgs {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NoArgs".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "object"})
    }
}

/// A command's argument and result types, as the command table names them.
pub trait CommandSpec {
    /// The command.
    const COMMAND: Command;
    /// What its `args` decode into.
    type Args: Serialize + DeserializeOwned + std::fmt::Debug;
    /// What a successful response's `result` decodes into.
    type Result: Serialize + DeserializeOwned + std::fmt::Debug;
}

macro_rules! command_table {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal ($args:ty) -> $result:ty; )*) => {
        /// A command of the protocol.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Command {
            $( $(#[$doc])* $variant, )*
        }

        impl Command {
            /// Every command, in the order `hello` lists them.
            pub const ALL: &[Command] = &[$(Command::$variant),*];

            /// The name a request's `cmd` carries.
            pub fn name(self) -> &'static str {
                match self {
                    $(Command::$variant => $name,)*
                }
            }

            /// The command a request's `cmd` names, if any.
            pub fn from_name(name: &str) -> Option<Command> {
                match name {
                    $($name => Some(Command::$variant),)*
                    _ => None,
                }
            }

            /// The schema of the command's `args`.
            pub(crate) fn args_schema(self, generator: &mut SchemaGenerator) -> Value {
                match self {
                    $(Command::$variant => generator.subschema_for::<$args>().to_value(),)*
                }
            }

            /// The schema of the `result` of a successful response.
            pub(crate) fn result_schema(self, generator: &mut SchemaGenerator) -> Value {
                match self {
                    $(Command::$variant => generator.subschema_for::<$result>().to_value(),)*
                }
            }
        }

        /// Every command name, in the order `hello` lists them.
        pub const COMMANDS: &[&str] = &[$($name),*];

        /// One type per command, naming its arguments and its result: what a typed client
        /// calls (`session.call::<cmd::Step>(&args)`).
        pub mod cmd {
            use super::*;
            $(
                $(#[$doc])*
                #[derive(Debug, Clone, Copy, PartialEq, Eq)]
                pub struct $variant;

                impl CommandSpec for $variant {
                    const COMMAND: Command = Command::$variant;
                    type Args = $args;
                    type Result = $result;
                }
            )*
        }
    };
}

command_table! {
    /// Logs on, reports the protocol and what the session can do.
    Hello = "hello" (HelloArgs) -> HelloResult;
    Status = "status" (NoArgs) -> StatusResult;
    Configure = "configure" (ConfigureArgs) -> ConfigureResult;
    /// Answered by the serve loop itself: it stops waiting for another request.
    Cancel = "cancel" (CancelArgs) -> CancelResult;
    BpSet = "bp.set" (BpSetArgs) -> BreakpointsResult;
    BpList = "bp.list" (NoArgs) -> BreakpointsResult;
    BpDelete = "bp.delete" (BpIdsArgs) -> BpDeleteResult;
    BpEnable = "bp.enable" (BpIdsArgs) -> BreakpointsResult;
    BpDisable = "bp.disable" (BpIdsArgs) -> BreakpointsResult;
    BpExport = "bp.export" (NoArgs) -> BpExportResult;
    BpImport = "bp.import" (BpImportArgs) -> BpImportResult;
    Listen = "listen" (ListenArgs) -> ListenResult;
    Unlisten = "unlisten" (NoArgs) -> UnlistenResult;
    Run = "run" (RunArgs) -> RunResult;
    Test = "test" (TestArgs) -> TestResult;
    Wait = "wait" (WaitArgs) -> WaitResult;
    Step = "step" (StepArgs) -> MoveResult;
    RunToLine = "run_to_line" (LineTargetArgs) -> MoveResult;
    JumpToLine = "jump_to_line" (LineTargetArgs) -> MoveResult;
    Terminate = "terminate" (AtArgs) -> TerminateResult;
    Detach = "detach" (AtArgs) -> DetachResult;
    Threads = "threads" (NoArgs) -> ThreadsResult;
    Thread = "thread" (ThreadArgs) -> ThreadResult;
    Stack = "stack" (AtArgs) -> StackResult;
    Frame = "frame" (FrameArgs) -> FrameResult;
    Vars = "vars" (VarsArgs) -> VarsResult;
    Get = "get" (GetArgs) -> GetResult;
    Set = "set" (SetArgs) -> SetResult;
    WatchSet = "watch.set" (WatchSetArgs) -> WatchpointsResult;
    WatchList = "watch.list" (AtArgs) -> WatchpointsResult;
    WatchDelete = "watch.delete" (WatchIdArgs) -> WatchDeleteResult;
    Table = "table" (TableArgs) -> TableResult;
    Export = "export" (ExportArgs) -> ExportResult;
    Source = "source" (SourceArgs) -> SourceResult;
    Search = "search" (SearchArgs) -> SearchResult;
    Dumps = "dumps" (DumpsArgs) -> DumpsResult;
    Dump = "dump" (DumpArgs) -> DumpResult;
    DumpCatch = "dump.catch" (DumpCatchArgs) -> DumpCatchResult;
    /// The protocol as a JSON Schema (any JSON value).
    Schema = "schema" (NoArgs) -> Value;
    /// Answered by the serve loop itself: it releases everything and ends the session.
    Shutdown = "shutdown" (NoArgs) -> ShutdownResult;
}

impl std::fmt::Display for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_commands_map_one_to_one() {
        assert_eq!(Command::ALL.len(), COMMANDS.len());
        for (command, name) in Command::ALL.iter().zip(COMMANDS) {
            assert_eq!(command.name(), *name);
            assert_eq!(Command::from_name(name), Some(*command));
        }
        let mut names: Vec<&str> = COMMANDS.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            COMMANDS.len(),
            "a command name is listed twice"
        );
        assert_eq!(Command::from_name("nope"), None);
        assert_eq!(Command::from_name("Hello"), None);
    }

    /// PROTOCOL.md is the prose contract: every command has a `### \`name\`` heading (alone or
    /// with related commands), and every such heading names a command.
    #[test]
    fn every_command_is_documented_in_protocol_md() {
        let text = include_str!("../PROTOCOL.md");
        let documented: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("### "))
            .flat_map(|heading| heading.split(", "))
            .filter_map(|part| part.strip_prefix('`')?.strip_suffix('`'))
            .collect();
        for name in COMMANDS {
            assert!(
                documented.contains(name),
                "PROTOCOL.md has no '### `{name}`' heading"
            );
        }
        for name in &documented {
            assert!(
                COMMANDS.contains(name),
                "PROTOCOL.md documents '{name}', which is not a command"
            );
        }
    }
}

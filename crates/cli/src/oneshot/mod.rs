//! The one-shot commands: `abapdbg bp set …`, `abapdbg vars`, `abapdbg step`, … Each call is a
//! short-lived process that reaches the running session through the session client (starting
//! `serve --daemon` when none runs), asks what the command maps to in the protocol
//! (jsonl/PROTOCOL.md), prints the answer and exits. One command per file.
//!
//! These modules speak only the protocol, through the typed calls of `client` with the
//! argument and result types of `jsonl`; the crate cannot reach the engine, the ADT client or
//! the simulator (it does not depend on them).

mod args;
pub(crate) mod complete;
pub(crate) mod ctx;
pub(crate) mod hints;
pub(crate) mod movement;
pub(crate) mod render;
mod spinner;

mod attach;
pub(crate) mod bp;
mod config;
mod continue_cmd;
mod debug;
mod detach;
mod dump;
mod dumps;
mod events;
mod frame;
mod get;
mod jump_to;
pub(crate) mod listen;
mod run;
mod run_to;
mod set;
mod settings;
mod shutdown;
mod source;
mod stack;
mod status;
pub(crate) mod step;
mod table;
mod terminate;
mod test;
mod thread;
pub(crate) mod threads;
mod unconfigured;
mod unlisten;
pub(crate) mod vars;
pub(crate) mod wait;

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::Subcommand;

use ctx::{Ctx, Failure};

/// `--json`, on every one-shot command.
#[derive(Debug, Clone, Copy, clap::Args)]
pub(crate) struct Output {
    /// Print exactly one JSON value (the protocol's result) on stdout instead of text.
    #[arg(long)]
    pub(crate) json: bool,
}

/// One command: its `--json` flag and what it does.
trait OneShot {
    fn json(&self) -> bool;
    fn run(&self, ctx: &Ctx) -> Result<(), Failure>;
    /// Interactive (the debugger at a prompt): Ctrl-C never ends the process by itself.
    fn interactive(&self) -> bool {
        false
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Breakpoints: set, list, delete, enable, disable, export, import.
    #[command(subcommand)]
    Bp(bp::BpCommand),
    /// The original debug command's forms: set, list, delete, attach, step, vars, stack, terminate.
    #[command(subcommand)]
    Debug(debug::DebugCommand),
    /// Short dumps (runtime errors), newest first.
    Dumps(dumps::DumpsCmd),
    /// One short dump: show it, or catch its next occurrence.
    #[command(subcommand)]
    Dump(dump::DumpCommand),
    /// Arm the listener: catch programs that reach a breakpoint.
    Listen(listen::ListenArgs),
    /// Stop catching programs (delete the listener).
    Unlisten(unlisten::UnlistenArgs),
    /// Run a class as a console application (or a report); waits until it stops or ends.
    Run(run::RunArgs),
    /// Run the ABAP Unit tests of a class; waits until a test stops or the run ends.
    Test(test::TestArgs),
    /// Wait until a program is stopped (or has ended).
    Wait(wait::WaitArgs),
    /// Arm the listener and wait for a program to stop; print the stop and exit.
    Attach(attach::AttachArgs),
    /// The interactive debugger: wait for a stop, then step and look at a prompt.
    Repl(attach::ReplArgs),
    /// Step the stopped program: into, over (default), out or continue.
    Step(step::StepArgs),
    /// Let the stopped program run to its next stop or its end.
    Continue(continue_cmd::ContinueArgs),
    /// Run to a line of the current source (or a location).
    RunTo(run_to::RunToArgs),
    /// Move the execution point to a line without running what lies between (needs writes).
    JumpTo(jump_to::JumpToArgs),
    /// The call stack of the stopped program, innermost first.
    Stack(stack::StackArgs),
    /// Select a stack frame for vars, get and source.
    Frame(frame::FrameArgs),
    /// Variables of the selected frame, or the components of one.
    Vars(vars::VarsArgs),
    /// Rows of an internal table, or the whole table as JSON, CSV or ABAP.
    Table(table::TableArgs),
    /// One variable by path: LT_ITEMS[3]-PRICE, ME->MV_NAME, <FS>.
    Get(get::GetArgs),
    /// Assign a value to a variable (needs writes).
    Set(set::SetArgs),
    /// Source lines around the current line (or a location).
    Source(source::SourceArgs),
    /// The caught programs.
    Threads(threads::ThreadsArgs),
    /// Make a caught program the current one.
    Thread(thread::ThreadArgs),
    /// Print the session's events as they happen, until Ctrl-C.
    Events(events::EventsArgs),
    /// Abort the stopped program.
    Terminate(terminate::TerminateArgs),
    /// Take our breakpoints off the system and let the program run on.
    Detach(detach::DetachArgs),
    /// Where the session stands: state, listener, threads, breakpoints, system.
    Status(status::StatusArgs),
    /// Debugger settings: system debugging, exception objects, …; without flags, print them.
    Settings(settings::SettingsCmd),
    /// Release everything and end the session.
    Shutdown(shutdown::ShutdownArgs),
    /// The effective target system and where its session lives (password redacted).
    Config(config::ConfigArgs),
}

impl Command {
    fn command(&self) -> &dyn OneShot {
        match self {
            Command::Bp(c) => c,
            Command::Debug(c) => c,
            Command::Dumps(c) => c,
            Command::Dump(c) => c,
            Command::Listen(c) => c,
            Command::Unlisten(c) => c,
            Command::Run(c) => c,
            Command::Test(c) => c,
            Command::Wait(c) => c,
            Command::Attach(c) => c,
            Command::Repl(c) => c,
            Command::Step(c) => c,
            Command::Continue(c) => c,
            Command::RunTo(c) => c,
            Command::JumpTo(c) => c,
            Command::Stack(c) => c,
            Command::Frame(c) => c,
            Command::Vars(c) => c,
            Command::Table(c) => c,
            Command::Get(c) => c,
            Command::Set(c) => c,
            Command::Source(c) => c,
            Command::Threads(c) => c,
            Command::Thread(c) => c,
            Command::Events(c) => c,
            Command::Terminate(c) => c,
            Command::Detach(c) => c,
            Command::Status(c) => c,
            Command::Settings(c) => c,
            Command::Shutdown(c) => c,
            Command::Config(c) => c,
        }
    }
}

/// `config check` is `abapdbg doctor` (which lives in the binary, beside the engine): its
/// `--json` when the command is that one.
pub fn config_check(command: &Command) -> Option<bool> {
    match command {
        Command::Config(c) => c.check(),
        _ => None,
    }
}

/// Runs one command; failures go to stderr as one line, their code chooses the exit status.
/// `profile`: the global `--profile`, over `ABAPDBG_PROFILE`.
pub fn run(command: Command, profile: Option<&str>) -> ExitCode {
    let command = command.command();
    let flag = if command.interactive() {
        plain_interrupt_flag()
    } else {
        interrupt_flag()
    };
    let mut ctx = Ctx::new(command.json(), flag);
    if let Some(profile) = profile {
        match client::Target::resolve_process_env(Some(profile)) {
            Ok(target) => ctx.target = target,
            Err(e) => {
                let failure = Failure::from(client::ClientError::from(e));
                eprintln!("{}", failure.line());
                return ExitCode::from(failure.exit_code());
            }
        }
    }
    match command.run(&ctx) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("{}", failure.line());
            ExitCode::from(failure.exit_code())
        }
    }
}

/// Runs a command within another one (a line typed at the interactive debugger's prompt).
pub(crate) fn execute(ctx: &Ctx, command: &Command) -> Result<(), Failure> {
    command.command().run(ctx)
}

/// Ctrl-C only sets the flag: the interactive debugger decides what it ends (a wait), and
/// leaves only through its own exits, which let a stopped program go.
fn plain_interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, flag.clone());
    flag
}

/// Ctrl-C sets the flag the waits look at (they cancel their request and end with 130); a
/// second Ctrl-C ends the process at once. The session is another process and never sees it.
fn interrupt_flag() -> Arc<AtomicBool> {
    use signal_hook::consts::SIGINT;
    let flag = Arc::new(AtomicBool::new(false));
    // Registered first, so it sees the flag as the previous Ctrl-C left it.
    let _ = signal_hook::flag::register_conditional_shutdown(SIGINT, 130, flag.clone());
    let _ = signal_hook::flag::register(SIGINT, flag.clone());
    flag
}

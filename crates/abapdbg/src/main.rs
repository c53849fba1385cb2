//! `abapdbg`: the ABAP debugger for the shell, for editors and for AI agents.
//!
//! This binary is the one place that links the engine and the simulator together; it wires
//! `serve`, `sim`, `demo`, `dap` and the command line of crates/cli (the one-shot commands,
//! the interactive debugger, shell completion), which speaks to the session only.

mod cli;
mod dap;
mod demo;
mod doctor;
mod identity;
mod memory;
mod serve;
mod sim;
mod system;

use clap::Parser;

fn main() -> std::process::ExitCode {
    // Shell completion (`COMPLETE=bash abapdbg -- …` on every Tab): answers and exits when
    // COMPLETE is set, before anything else may write to stdout.
    abapdbg_cli::complete_shell(<cli::Cli as clap::CommandFactory>::command);
    let cli = cli::Cli::parse();
    init_tracing(cli.verbose);
    // One-shot commands only talk to the session: no async runtime, no engine.
    let command = match cli.command {
        // `config check` is `doctor`, with the global --profile.
        cli::Command::OneShot(command) => match abapdbg_cli::config_check(&command) {
            Some(json) => cli::Command::Doctor(cli::DoctorArgs {
                profile: cli.profile.clone(),
                object: None,
                json,
                record: None,
            }),
            None => return abapdbg_cli::run(command, cli.profile.as_deref()),
        },
        // DAP runs on the session client too (crates/dap), with threads of its own.
        cli::Command::Dap => return dap::run(cli.profile),
        cli::Command::Mcp(args) => return mcp::run(args, cli.profile),
        cli::Command::Version => {
            println!("abapdbg {}", cli::version());
            return std::process::ExitCode::SUCCESS;
        }
        other => other,
    };
    if matches!(command, cli::Command::Serve(_) | cli::Command::Demo(_)) {
        memory::keep_working_memory();
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("abapdbg: cannot start the async runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let command = match command {
        cli::Command::Doctor(args) => {
            let code = runtime.block_on(doctor::run(args));
            runtime.shutdown_background();
            return code;
        }
        other => other,
    };
    let result = runtime.block_on(async {
        match command {
            cli::Command::Serve(args) => serve::run(args).await,
            cli::Command::Sim(args) => sim::run(args).await,
            cli::Command::Replay(args) => sim::replay(args).await,
            cli::Command::Doctor(_) => Ok(()),
            cli::Command::Demo(args) => demo::run(args).await,
            cli::Command::OneShot(_)
            | cli::Command::Dap
            | cli::Command::Mcp(_)
            | cli::Command::Version => Ok(()),
        }
    });
    // Do not wait for the blocking stdin reader: everything we hold is released by now.
    runtime.shutdown_background();
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("abapdbg: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn init_tracing(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("ABAPDBG_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    // Logs go to stderr: stdout carries protocol lines only.
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colour codes only for a person at a terminal, never into a log file or a pipe.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
}

//! `abapdbg dap`: the Debug Adapter Protocol on stdin/stdout, for editors (docs/dap.md).
//!
//! The adapter lives in crates/dap and reaches the session through the session client, like
//! the one-shot commands: no engine, no ADT client, no async runtime here. This file only wires
//! stdio and the signals that end it (each releases what the adapter holds, as `disconnect`
//! does).

use std::io::BufReader;
use std::process::ExitCode;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// `profile`: the command line's `--profile`, the default for launch configurations that name
/// none (over `ABAPDBG_PROFILE`, as for the one-shot commands).
pub(crate) fn run(profile: Option<String>) -> ExitCode {
    let signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("abapdbg dap: signals are not caught ({e}); disconnect to release");
            None
        }
    };
    dap::run(
        BufReader::new(std::io::stdin()),
        std::io::stdout(),
        move |k| match (k, &profile) {
            ("ABAPDBG_PROFILE", Some(p)) => Some(p.clone()),
            _ => std::env::var(k).ok(),
        },
        |stopper| {
            if let Some(mut signals) = signals {
                let _ = std::thread::Builder::new()
                    .name("dap-signals".into())
                    .spawn(move || {
                        if signals.forever().next().is_some() {
                            stopper.stop();
                        }
                    });
            }
        },
    );
    ExitCode::SUCCESS
}

//! `abapdbg sim`: the ADT simulator on its own.

use std::error::Error;

use crate::cli::SimArgs;

pub(crate) async fn run(args: SimArgs) -> Result<(), Box<dyn Error + Send + Sync>> {
    let f = &args.faults;
    let faults = sim::Faults {
        latency: std::time::Duration::from_millis(f.latency_ms),
        drop_every: f.drop_every,
        error_every: f.error_every,
        error_status: f.error_status,
        icm_every: f.icm_every,
        csrf_rotate_every: f.csrf_rotate_every,
        session_expiry_every: f.session_expiry_every,
        foreign_listeners: f
            .foreign_listener
            .iter()
            .map(|u| u.to_uppercase())
            .collect(),
        ..sim::Faults::default()
    };
    let limits = sim::Limits {
        statements: args.limits.max_statements,
        run_time: std::time::Duration::from_secs(args.limits.max_run_seconds),
        table_rows: usize::try_from(args.limits.max_table_rows).unwrap_or(usize::MAX),
        run_memory: usize::try_from(args.limits.max_run_memory.saturating_mul(1024 * 1024))
            .unwrap_or(usize::MAX),
        ..sim::Limits::default()
    };
    let mut config = sim::SimConfig {
        listen: args.listen,
        program_dirs: args.programs,
        db_file: args.db,
        faults,
        limits,
        ..sim::SimConfig::default()
    };
    if !args.user.is_empty() {
        let mut users = Vec::new();
        for user in &args.user {
            let (name, password) = user
                .split_once(':')
                .filter(|(n, p)| !n.is_empty() && !p.is_empty())
                .ok_or("--user must be NAME:PASSWORD, e.g. --user DEVELOPER:abap")?;
            users.push((name.to_uppercase(), password.to_string()));
        }
        config.users = users;
    }
    let user = config
        .users
        .iter()
        .map(|(u, _)| u.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let handle = sim::start(config).await?;
    // The documented defaults stay (scripts and tests rely on them), and say what they mean.
    eprintln!(
        "abapdbg sim: warning: this simulator is open to every local user: anyone on this \
         machine can log on as {user} with the password given or documented, and use its \
         admin API ({}/sim/: state, faults) without a login; use it for tests and demos only",
        handle.base_url()
    );
    // The first stdout line is the base URL: scripts read it to find us.
    println!("{}", handle.base_url());
    use std::io::Write;
    let _ = std::io::stdout().flush();
    wait_for_stop_signal().await;
    handle.shutdown().await;
    Ok(())
}

/// `abapdbg replay`: a cassette served as an ADT system until a stop signal.
pub(crate) async fn replay(
    args: crate::cli::ReplayArgs,
) -> Result<(), Box<dyn Error + Send + Sync>> {
    let cassette = adt::cassette::Cassette::read(&args.file)?;
    eprintln!(
        "replaying {} exchanges recorded from {}",
        cassette.exchanges.len(),
        cassette.header.base_url
    );
    let replay = replay::Replay::start(cassette, args.listen).await?;
    println!("{}", replay.base_url());
    use std::io::Write;
    let _ = std::io::stdout().flush();
    wait_for_stop_signal().await;
    let unmatched = replay.unmatched();
    if !unmatched.is_empty() {
        eprintln!("{} request(s) were not in the cassette", unmatched.len());
    }
    replay.shutdown().await;
    Ok(())
}

async fn wait_for_stop_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    match (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) {
        (Ok(mut int), Ok(mut term)) => {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
            }
        }
        _ => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

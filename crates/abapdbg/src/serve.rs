//! `abapdbg serve`: the coprocess on stdin/stdout.

use std::error::Error;

use crate::cli::{Release, ServeArgs};
use crate::{identity, system};

pub(crate) async fn run(args: ServeArgs) -> Result<(), Box<dyn Error + Send + Sync>> {
    let system = system::resolve(&args).await?;
    let identity = adt::Identity {
        user: system.adt.user.clone(),
        terminal_id: identity::terminal_id(),
        ide_id: identity::ide_id(),
    };
    let mut config = engine::EngineConfig::new(system.adt.clone(), identity);
    config.listener_poll_secs = args.listener_poll_secs;
    config.allow_writes = args.allow_writes;
    config.state_file = identity::state_file(&system.adt);
    config.max_threads = usize::from(args.max_threads);
    config.release = match args.release {
        Release::Continue => engine::ReleasePolicy::Continue,
        Release::Terminate => engine::ReleasePolicy::Terminate,
    };
    let input = tokio::io::BufReader::new(tokio::io::stdin());
    let receipt = engine::serve(config, input, tokio::io::stdout(), signals()).await?;
    eprintln!("{}", receipt.summary());
    if let Some(sim) = system.embedded {
        sim.shutdown().await;
    }
    Ok(())
}

/// Resolves on SIGINT, SIGTERM or SIGHUP: each is a request to release and leave.
async fn signals() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut int), Ok(mut term), Ok(mut hup)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
        signal(SignalKind::hangup()),
    ) else {
        tracing::warn!("cannot watch signals; only stdin EOF and 'shutdown' end the session");
        return std::future::pending().await;
    };
    tokio::select! {
        _ = int.recv() => {}
        _ = term.recv() => {}
        _ = hup.recv() => {}
    }
}

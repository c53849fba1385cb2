//! `abapdbg serve`: the coprocess on stdin/stdout.

use std::error::Error;

use crate::cli::{Release, ServeArgs};
use crate::{identity, system};

pub(crate) async fn run(args: ServeArgs) -> Result<(), Box<dyn Error + Send + Sync>> {
    if args.daemon {
        return daemon(&args).await;
    }
    let system = system::resolve(&args).await?;
    // The embedded simulator's session is named by what it is, not by its random port, so
    // front ends find it; it needs no state file, as nothing of it outlives the process.
    let known = system.embedded.is_none().then_some(&system.adt);
    let socket = if args.no_socket {
        None
    } else {
        identity::socket_path(known)
    };
    if args.relay
        && let Some(path) = &socket
        && let Ok(stream) = tokio::net::UnixStream::connect(path).await
    {
        tracing::info!("relaying to the running session at {}", path.display());
        return relay(stream).await;
    }
    let identity = adt::Identity {
        user: system.adt.user.clone(),
        terminal_id: identity::terminal_id(),
        ide_id: identity::ide_id(),
    };
    let mut config = engine::EngineConfig::new(system.adt.clone(), identity);
    config.listener_poll_secs = args.listener_poll_secs;
    config.allow_writes = args.allow_writes || system.allow_writes;
    config.state_file = known.and_then(|adt| identity::state_file(Some(adt)));
    config.socket = socket;
    config.idle_exit = std::time::Duration::from_secs(args.idle_exit);
    config.max_threads = usize::from(args.max_threads);
    config.source_context = args.source_context;
    config.release = match args.release {
        Release::Continue => engine::ReleasePolicy::Continue,
        Release::Terminate => engine::ReleasePolicy::Terminate,
    };
    let receipt = if args.no_stdio {
        engine::serve_socket(config, signals()).await?
    } else {
        let input = tokio::io::BufReader::new(tokio::io::stdin());
        engine::serve(config, input, tokio::io::stdout(), signals()).await?
    };
    eprintln!("{}", receipt.summary());
    if let Some(sim) = system.embedded {
        sim.shutdown().await;
    }
    Ok(())
}

/// Copies stdin to the running session's socket and its answers to stdout, until either side
/// closes.
async fn relay(stream: tokio::net::UnixStream) -> Result<(), Box<dyn Error + Send + Sync>> {
    let (mut from_session, mut to_session) = stream.into_split();
    let upstream = async {
        let mut stdin = tokio::io::stdin();
        let r = tokio::io::copy(&mut stdin, &mut to_session).await;
        // Our client is done: say so to the session, then keep reading its last answers.
        let _ = tokio::io::AsyncWriteExt::shutdown(&mut to_session).await;
        r
    };
    let downstream = async {
        let mut stdout = tokio::io::stdout();
        tokio::io::copy(&mut from_session, &mut stdout).await
    };
    let (up, down) = tokio::join!(upstream, downstream);
    up?;
    down?;
    Ok(())
}

/// `--daemon`: starts `serve --no-stdio` detached, waits until its socket accepts, and prints
/// one JSON line saying where it is.
async fn daemon(args: &ServeArgs) -> Result<(), Box<dyn Error + Send + Sync>> {
    // Without a URL the background session runs the embedded simulator.
    let adt_config = system::configured(args)?;
    let socket = identity::socket_path(adt_config.as_ref())
        .ok_or("no runtime directory: set XDG_RUNTIME_DIR or ABAPDBG_RUNTIME_DIR")?;
    let log_path = identity::daemon_log(adt_config.as_ref())
        .ok_or("no state directory: set HOME or ABAPDBG_STATE_DIR")?;
    if let Some(dir) = log_path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let log = std::fs::File::create(&log_path)?;
    let exe = std::env::current_exe()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("serve").arg("--no-stdio");
    let pass = |cmd: &mut std::process::Command, flag: &str, v: &Option<String>| {
        if let Some(v) = v {
            cmd.arg(flag).arg(v);
        }
    };
    pass(&mut cmd, "--profile", &args.profile);
    pass(&mut cmd, "--url", &args.url);
    pass(&mut cmd, "--user", &args.user);
    pass(&mut cmd, "--client", &args.client);
    pass(&mut cmd, "--language", &args.language);
    cmd.arg("--listener-poll-secs")
        .arg(args.listener_poll_secs.to_string());
    cmd.arg("--max-threads").arg(args.max_threads.to_string());
    cmd.arg("--source-context")
        .arg(args.source_context.to_string());
    cmd.arg("--idle-exit").arg(args.idle_exit.to_string());
    cmd.arg("--release").arg(match args.release {
        Release::Continue => "continue",
        Release::Terminate => "terminate",
    });
    if args.allow_writes {
        cmd.arg("--allow-writes");
    }
    // What a password_command printed, so the session does not run it again.
    for (name, value) in system::secret_env(adt_config.as_ref()) {
        if let Some(v) = value {
            cmd.env(name, v);
        }
    }
    cmd.stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(log);
    {
        use std::os::unix::process::CommandExt;
        // Its own process group: a Ctrl-C in the starting terminal does not reach it.
        cmd.process_group(0);
    }
    let mut child = cmd.spawn()?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        if tokio::net::UnixStream::connect(&socket).await.is_ok() {
            println!(
                "{}",
                serde_json::json!({"socket": socket, "pid": child.id(), "log": log_path})
            );
            return Ok(());
        }
        if let Some(status) = child.try_wait()? {
            let tail = std::fs::read_to_string(&log_path).unwrap_or_default();
            return Err(format!(
                "the background session exited ({status}) before it listened:\n{tail}"
            )
            .into());
        }
        if std::time::Instant::now() > deadline {
            return Err(format!(
                "the background session did not open {} within 20 s; see {}",
                socket.display(),
                log_path.display()
            )
            .into());
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
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

//! `abapdbg serve`: the coprocess on stdin/stdout.

use std::error::Error;

use crate::cli::{Release, ServeArgs};
use crate::{identity, system};

pub(crate) async fn run(args: ServeArgs) -> Result<(), Box<dyn Error + Send + Sync>> {
    if args.daemon {
        return daemon(&args).await;
    }
    if args.relay {
        return relay_to_session(&args).await;
    }
    let mut system = system::resolve(&args).await?;
    if let Some(path) = &args.record {
        let users = if args.redact_users {
            vec![system.adt.user.clone()]
        } else {
            Vec::new()
        };
        let recorder = adt::cassette::Recorder::create(
            path,
            &system.adt.base_url,
            &users,
            adt::cassette::DEFAULT_MAX_BYTES,
        )
        .map_err(|e| {
            format!(
                "--record {}: {e} (a cassette is never overwritten: name a new file)",
                path.display()
            )
        })?;
        tracing::info!(
            "recording the exchanges with the system into {}",
            path.display()
        );
        system.adt.recorder = Some(std::sync::Arc::new(recorder));
    }
    // The embedded simulator's session is named by what it is, not by its random port, so
    // front ends find it; it needs no state file, as nothing of it outlives the process.
    let known = system.embedded.is_none().then_some(&system.adt);
    let socket = if args.no_socket {
        None
    } else {
        identity::socket_path(known)
    };
    let identity = adt::Identity {
        user: system.adt.user.clone(),
        terminal_id: identity::terminal_id(),
        ide_id: identity::ide_id(),
    };
    let mut config = engine::EngineConfig::new(system.adt.clone(), identity);
    config.listener_poll_secs = args.listener_poll_secs;
    config.allow_writes = args.allow_writes || system.allow_writes;
    config.state_file = known.and_then(|adt| identity::state_file(Some(adt)));
    // What each system offers is cached beside the state files (one file per URL and client).
    config.discovery_cache = known.and_then(|_| identity::state_dir());
    config.refresh_discovery = args.refresh_discovery;
    config.socket = socket;
    config.idle_exit = std::time::Duration::from_secs(args.idle_exit);
    config.release_grace = std::time::Duration::from_secs(args.release_grace);
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

/// `--relay`: speaks to the session that runs for this system, never starts one.
async fn relay_to_session(args: &ServeArgs) -> Result<(), Box<dyn Error + Send + Sync>> {
    let target = system::target(args)?;
    let path = target
        .socket_path()
        .ok_or("no runtime directory: set XDG_RUNTIME_DIR or ABAPDBG_RUNTIME_DIR")?;
    // Another local user could listen there (a shared runtime directory): the session
    // client's rules (issue 25).
    client::check_socket_dir(&path)?;
    let stream = tokio::net::UnixStream::connect(&path).await.map_err(|e| {
        format!(
            "--relay: no session runs for {} (nothing listens at {}: {e}); start one with `abapdbg serve --daemon`, or leave out --relay to serve here",
            target.describe(),
            path.display()
        )
    })?;
    let peer = stream.peer_cred()?;
    client::check_peer_uid(&path, peer.pid().unwrap_or(0), peer.uid())?;
    tracing::info!("relaying to the running session at {}", path.display());
    relay(stream).await
}

/// Reads the session's next line into `answer` (appending: cancel-safe in a `select!`, as a
/// cancelled read keeps what it took), at most `client::MAX_REPLY_BYTES` of it (issue 25).
async fn read_answer(
    session: &mut (impl tokio::io::AsyncBufRead + Unpin),
    answer: &mut Vec<u8>,
) -> std::io::Result<usize> {
    use tokio::io::AsyncBufReadExt;
    loop {
        let available = session.fill_buf().await?;
        if available.is_empty() {
            return Ok(answer.len());
        }
        let (take, done) = match available.iter().position(|b| *b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        if answer.len() + take > client::MAX_REPLY_BYTES {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "the session sent a line longer than {} bytes",
                    client::MAX_REPLY_BYTES
                ),
            ));
        }
        answer.extend_from_slice(&available[..take]);
        session.consume(take);
        if done {
            return Ok(answer.len());
        }
    }
}

/// Copies request lines from stdin to the session and its lines to stdout. Ends as soon as
/// stdin is closed and every request sent has its answer (or when the session closes);
/// fails when any answer was an error, so a script sees it in the exit code.
async fn relay(stream: tokio::net::UnixStream) -> Result<(), Box<dyn Error + Send + Sync>> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let (from_session, mut to_session) = stream.into_split();
    let mut session = tokio::io::BufReader::new(from_session);
    let mut stdin = tokio::io::BufReader::new(tokio::io::stdin());
    let mut stdout = tokio::io::stdout();
    let (mut request, mut answer) = (Vec::new(), Vec::new());
    let (mut sent, mut answered, mut failed) = (0usize, 0usize, 0usize);
    let mut stdin_open = true;
    while stdin_open || answered < sent {
        tokio::select! {
            // Both reads keep what they read in their buffer when the other branch wins.
            read = stdin.read_until(b'\n', &mut request), if stdin_open => {
                if read? == 0 {
                    stdin_open = false;
                    // Our client is done: say so to the session, which still answers.
                    let _ = to_session.shutdown().await;
                    continue;
                }
                if !request.ends_with(b"\n") {
                    request.push(b'\n');
                }
                // Blank lines are no requests and get no answer (PROTOCOL.md).
                if !request.iter().all(u8::is_ascii_whitespace) {
                    sent += 1;
                }
                to_session.write_all(&request).await?;
                request.clear();
            }
            read = read_answer(&mut session, &mut answer) => {
                if read? == 0 {
                    if answered < sent {
                        return Err(format!(
                            "the session closed the connection before answering {} request(s)",
                            sent - answered
                        )
                        .into());
                    }
                    break;
                }
                stdout.write_all(&answer).await?;
                stdout.flush().await?;
                let line: serde_json::Value =
                    serde_json::from_slice(&answer).unwrap_or_default();
                if line["type"] == "response" {
                    answered += 1;
                    if line["ok"] == false {
                        failed += 1;
                    }
                }
                answer.clear();
            }
        }
    }
    if failed > 0 {
        return Err(
            format!("{failed} of {answered} request(s) failed (see their responses)").into(),
        );
    }
    Ok(())
}

/// `--daemon`: starts `serve --no-stdio` detached, waits until its socket accepts, and prints
/// one JSON line saying where it is. When a session already serves this system it says so
/// (`"already_running": true`, with that session's pid) and starts nothing.
async fn daemon(args: &ServeArgs) -> Result<(), Box<dyn Error + Send + Sync>> {
    // Without a URL the background session runs the embedded simulator.
    let adt_config = system::configured(args)?;
    let socket = identity::socket_path(adt_config.as_ref())
        .ok_or("no runtime directory: set XDG_RUNTIME_DIR or ABAPDBG_RUNTIME_DIR")?;
    let log_path = identity::daemon_log(adt_config.as_ref())
        .ok_or("no state directory: set HOME or ABAPDBG_STATE_DIR")?;
    if let Some(pid) = session_pid(&socket).await {
        return already_running(&socket, pid, &log_path);
    }
    if let Some(dir) = log_path.parent() {
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
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
    if let Some(ca) = &args.ca_bundle {
        cmd.arg("--ca-bundle").arg(ca);
    }
    if args.insecure {
        cmd.arg("--insecure");
    }
    if let Some(record) = &args.record {
        // The daemon runs elsewhere: it gets the path as the caller meant it.
        cmd.arg("--record").arg(std::path::absolute(record)?);
        if args.redact_users {
            cmd.arg("--redact-users");
        }
    }
    cmd.arg("--listener-poll-secs")
        .arg(args.listener_poll_secs.to_string());
    cmd.arg("--max-threads").arg(args.max_threads.to_string());
    cmd.arg("--source-context")
        .arg(args.source_context.to_string());
    cmd.arg("--idle-exit").arg(args.idle_exit.to_string());
    cmd.arg("--release-grace")
        .arg(args.release_grace.to_string());
    cmd.arg("--release").arg(match args.release {
        Release::Continue => "continue",
        Release::Terminate => "terminate",
    });
    if args.allow_writes {
        cmd.arg("--allow-writes");
    }
    if args.refresh_discovery {
        cmd.arg("--refresh-discovery");
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
        if let Some(status) = child.try_wait()? {
            // Another start won the race for this system: that session is the one to use.
            if let Some(pid) = session_pid(&socket).await {
                return already_running(&socket, pid, &log_path);
            }
            let tail = std::fs::read_to_string(&log_path).unwrap_or_default();
            return Err(format!(
                "the background session exited ({status}) before it listened:\n{tail}"
            )
            .into());
        }
        if let Some(pid) = session_pid(&socket).await {
            if pid == child.id() {
                println!(
                    "{}",
                    serde_json::json!({"socket": socket, "pid": pid, "log": log_path})
                );
                return Ok(());
            }
            // Someone else's session answers there: ours will find it and end.
            let _ = child.wait();
            return already_running(&socket, pid, &log_path);
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

/// The pid of the session that listens at `socket` (from the `ready` line it greets every
/// client with), or `None` when nothing answers there.
async fn session_pid(socket: &std::path::Path) -> Option<u32> {
    use tokio::io::AsyncBufReadExt;
    let greeting = async {
        let stream = tokio::net::UnixStream::connect(socket).await.ok()?;
        let mut line = String::new();
        tokio::io::BufReader::new(stream)
            .read_line(&mut line)
            .await
            .ok()?;
        let ready: serde_json::Value = serde_json::from_str(&line).ok()?;
        ready["body"]["pid"].as_u64()?.try_into().ok()
    };
    tokio::time::timeout(std::time::Duration::from_secs(5), greeting)
        .await
        .ok()
        .flatten()
}

/// Says that a session already serves this system, and which; starts nothing.
fn already_running(
    socket: &std::path::Path,
    pid: u32,
    log_path: &std::path::Path,
) -> Result<(), Box<dyn Error + Send + Sync>> {
    eprintln!(
        "abapdbg: a session already serves this system (pid {pid}, {}); nothing was started, \
         and that session keeps its own settings",
        socket.display()
    );
    println!(
        "{}",
        serde_json::json!({
            "socket": socket, "pid": pid, "log": log_path, "already_running": true,
        })
    );
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

//! The serve loop: clients on stdio and on a Unix socket send requests; each request runs in
//! its own task and gets exactly one answer; everything we hold is released on every way out
//! (stdin EOF, `shutdown`, the caller's stop signal, an idle lease running out).

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use jsonl::{ErrorBody, ErrorCode, parse_request};
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncWrite, BufReader};
use tokio::sync::mpsc;

use crate::commands;
use crate::config::EngineConfig;
use crate::engine::{ClientId, Engine, Origin};
use crate::linereader::{LineRead, read_line_bounded};
use crate::outbox::Outbox;
use crate::release::{Receipt, release_all};

/// Why `serve` could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Adt(#[from] adt::AdtError),
    #[error(transparent)]
    State(#[from] crate::statefile::StateError),
    #[error(
        "another abapdbg session already serves {socket}; share it (abapdbg serve --relay) or stop it first"
    )]
    Running { socket: PathBuf },
    #[error("cannot keep the session's records in {path}: {source}")]
    StateDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot open the socket {path}: {source}")]
    Socket {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// A request still waiting for its answer.
struct InFlight {
    origin: Origin,
    cmd: String,
    abort: Option<tokio::task::AbortHandle>,
}

/// Requests still waiting for their answer, so each gets exactly one even on shutdown or
/// `cancel`.
type Pending = Arc<Mutex<HashMap<u64, InFlight>>>;

fn lock(p: &Pending) -> std::sync::MutexGuard<'_, HashMap<u64, InFlight>> {
    p.lock().unwrap_or_else(|e| e.into_inner())
}

/// How long a socket client that closed its side still gets answers to what it asked.
const CLOSING_CLIENT_GRACE: Duration = Duration::from_secs(60);

/// What ends the session, as the connections report it.
enum Control {
    Shutdown(Origin),
    StdinClosed,
}

/// Shared by every connection.
struct Hub {
    engine: Arc<Engine>,
    pending: Pending,
    next_key: Mutex<u64>,
    control: mpsc::UnboundedSender<Control>,
    /// Writer tasks of socket clients, awaited at the end so last lines are not cut off.
    writers: Mutex<Vec<tokio::task::JoinHandle<()>>>,
    /// Reading tasks of socket clients, ended with the session.
    readers: Mutex<Vec<tokio::task::AbortHandle>>,
    /// A `shutdown` was asked for: every later request is answered `state.shutting_down`.
    shutting_down: AtomicBool,
}

/// Speaks the protocol on `input`/`output` (client 0) and, when the configuration names a
/// socket, on that socket too, until stdin EOF, `shutdown`, or `stop` resolves; then releases
/// everything and returns the receipt.
pub async fn serve<R, W, S>(
    config: EngineConfig,
    input: R,
    output: W,
    stop: S,
) -> Result<Receipt, ServeError>
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
    S: Future<Output = ()>,
{
    run(config, Some((input, output)), stop).await
}

/// Like [`serve`] without stdio: clients connect to the socket only. The session ends on
/// `shutdown`, on `stop`, or when no client has been connected for `config.idle_exit`.
pub async fn serve_socket<S>(config: EngineConfig, stop: S) -> Result<Receipt, ServeError>
where
    S: Future<Output = ()>,
{
    run::<tokio::io::Empty, tokio::io::Sink, S>(config, None, stop).await
}

async fn run<R, W, S>(
    config: EngineConfig,
    stdio: Option<(R, W)>,
    stop: S,
) -> Result<Receipt, ServeError>
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
    S: Future<Output = ()>,
{
    // One session per socket: the lock is taken before anything else, so two sessions
    // starting at the same moment cannot both go on (the loser says so, or with stdio goes
    // on unshared). It is held until this function returns.
    let session_lock = match config.socket.as_deref().map(lock_session).transpose() {
        Ok(lock) => lock,
        Err(e) if stdio.is_some() => {
            tracing::warn!("{e}; other clients cannot share this session");
            None
        }
        Err(e) => return Err(e),
    };
    let orphan = match &config.state_file {
        Some(path) => {
            if let Some(dir) = path.parent() {
                crate::private_dir::ensure(dir).map_err(|source| ServeError::StateDir {
                    path: dir.to_path_buf(),
                    source,
                })?;
            }
            crate::statefile::claim(path)?
        }
        None => None,
    };
    let state_file = config.state_file.clone();
    let socket = match config.socket.as_deref().filter(|_| session_lock.is_some()) {
        Some(path) => match bind(path) {
            Ok(s) => Some(s),
            // With stdio the session works without sharing; say why and go on.
            Err(e) if stdio.is_some() => {
                tracing::warn!("{e}; other clients cannot share this session");
                None
            }
            Err(e) => return Err(e),
        },
        None => None,
    };
    let idle_exit = config.idle_exit;
    let engine = Engine::new(config)?;
    let (control, mut control_rx) = mpsc::unbounded_channel();
    let hub = Arc::new(Hub {
        engine: engine.clone(),
        pending: Arc::default(),
        next_key: Mutex::new(0),
        control,
        writers: Mutex::new(Vec::new()),
        readers: Mutex::new(Vec::new()),
        shutting_down: AtomicBool::new(false),
    });
    let mut writers = Vec::new();
    let mut connections = Vec::new();
    let stdio_present = stdio.is_some();
    if let Some((input, output)) = stdio {
        let (outbox, writer) = Outbox::start(output);
        engine.add_client(0, outbox.clone());
        writers.push(writer);
        let hub = hub.clone();
        connections.push(tokio::spawn(async move {
            // stdio is the session's own client: when it goes (or stops reading), so does
            // the session.
            if connection(&hub, 0, input, &outbox).await != Ended::Shutdown {
                let _ = hub.control.send(Control::StdinClosed);
            }
        }));
    }
    if let Some(old) = orphan {
        crate::statefile::release_orphan(&engine, old).await;
    }
    let state_writer = state_file
        .clone()
        .map(|path| crate::statefile::start_writer(&engine, path));
    let socket_bound = socket.is_some();
    let accept = socket.map(|(listener, _)| tokio::spawn(accept_loop(hub.clone(), listener)));

    tokio::pin!(stop);
    let mut idle_since = tokio::time::Instant::now();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let shutdown_origin = loop {
        tokio::select! {
            msg = control_rx.recv() => match msg {
                Some(Control::Shutdown(origin)) => break Some(origin),
                Some(Control::StdinClosed) | None => break None,
            },
            () = &mut stop => break None,
            _ = tick.tick(), if !stdio_present => {
                crate::grace::tick(&engine);
                // Socket-only sessions end when nobody used them for the lease time.
                if engine.client_count() > 0 {
                    idle_since = tokio::time::Instant::now();
                } else if idle_since.elapsed() >= idle_exit {
                    tracing::info!("no client for {idle_exit:?}: ending the session");
                    break None;
                }
            }
        }
    };

    if let Some(a) = accept {
        a.abort();
    }
    // Requests that come while everything is released are answered at once.
    hub.shutting_down.store(true, Ordering::Release);
    let receipt = release_all(&engine).await;
    engine.exports.remove();
    if let Some(task) = state_writer {
        // Abort and wait, so no write can still be under way when the file is removed.
        task.abort();
        let _ = task.await;
    }
    if let Some(path) = &state_file {
        if receipt.errors.is_empty() {
            crate::statefile::remove(path);
        } else {
            // Something could not be released: keep the last record for the next start.
            tracing::warn!(
                "keeping the state file {}: {} item(s) could not be released",
                path.display(),
                receipt.errors.len()
            );
        }
    }
    for c in connections {
        c.abort();
    }
    for r in lock_list(&hub.readers).drain(..) {
        r.abort();
    }
    let unanswered: Vec<InFlight> = lock(&hub.pending).drain().map(|(_, f)| f).collect();
    for f in unanswered {
        if let Some(abort) = &f.abort {
            abort.abort();
        }
        engine.respond(
            &f.origin,
            &f.cmd,
            Err(ErrorBody::new(
                ErrorCode::ShuttingDown,
                "the session shut down before this request completed",
            )),
        );
    }
    if let Some(origin) = shutdown_origin {
        let result = crate::to_proto::ok(jsonl::results::ShutdownResult {
            receipt: receipt.clone(),
        });
        engine.respond(&origin, "shutdown", result);
    }
    engine.close_all();
    writers.extend(lock_list(&hub.writers).drain(..));
    for w in writers {
        let _ = tokio::time::timeout(Duration::from_secs(5), w).await;
    }
    if let (Some(path), true) = (&engine.config.socket, socket_bound) {
        let _ = std::fs::remove_file(path);
    }
    // A clean end leaves no file behind; the lock itself goes when the file is closed.
    if let (Some(path), Some(_)) = (&engine.config.socket, &session_lock) {
        let _ = std::fs::remove_file(jsonl::paths::lock_path(path));
    }
    drop(session_lock);
    Ok(receipt)
}

fn lock_list<T>(m: &Mutex<Vec<T>>) -> std::sync::MutexGuard<'_, Vec<T>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Takes the session's lock file (`<socket>.lock`), which says a session owns this socket;
/// the lock goes with the process, also when it is killed.
fn lock_session(socket: &Path) -> Result<std::fs::File, ServeError> {
    let path = jsonl::paths::lock_path(socket);
    let fail = |source| ServeError::Socket {
        path: path.clone(),
        source,
    };
    if let Some(dir) = path.parent() {
        crate::private_dir::ensure(dir).map_err(fail)?;
    }
    loop {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(fail)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(ServeError::Running {
                    socket: socket.to_path_buf(),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(fail(e)),
        }
        // An owner that ended removes the file after we opened it and before we locked it:
        // then we hold a lock nobody else can see. Only the file at the path counts.
        if same_file(&file, &path) {
            return Ok(file);
        }
    }
}

/// Whether `file` is the file that `path` names now.
#[cfg(unix)]
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_file: &std::fs::File, _path: &Path) -> bool {
    true
}

/// Binds the socket in a directory only the user can enter, replacing a stale socket file:
/// the caller holds the socket's lock, so no live session listens there.
fn bind(path: &Path) -> Result<(tokio::net::UnixListener, PathBuf), ServeError> {
    let fail = |source| ServeError::Socket {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        crate::private_dir::ensure(dir).map_err(fail)?;
    }
    match std::fs::remove_file(path) {
        Ok(()) => tracing::info!("removed a stale socket {}", path.display()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(fail(e)),
    }
    let listener = tokio::net::UnixListener::bind(path).map_err(fail)?;
    set_mode(path, 0o600).map_err(fail)?;
    Ok((listener, path.to_path_buf()))
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

async fn accept_loop(hub: Arc<Hub>, listener: tokio::net::UnixListener) {
    let mut next: ClientId = 1;
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                tracing::warn!("socket accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let client = next;
        next += 1;
        let (read, write) = stream.into_split();
        let (outbox, writer) = Outbox::start(write);
        {
            let mut writers = lock_list(&hub.writers);
            writers.retain(|w| !w.is_finished());
            writers.push(writer);
        }
        hub.engine.add_client(client, outbox.clone());
        tracing::debug!("client {client} connected");
        let task_hub = hub.clone();
        let task = tokio::spawn(async move {
            let hub = task_hub;
            let grace = match connection(&hub, client, BufReader::new(read), &outbox).await {
                Ended::Shutdown => return,
                // It does not read: nothing it asked is worth finishing.
                Ended::Dropped => Duration::ZERO,
                Ended::Closed => CLOSING_CLIENT_GRACE,
            };
            // The client closed its side: answer what it already asked (bounded), then let
            // it go. Unanswered requests beyond the bound are dropped with it.
            let deadline = tokio::time::Instant::now() + grace;
            let mine = |hub: &Hub| {
                let map = lock(&hub.pending);
                map.iter()
                    .filter(|(_, f)| f.origin.client == client)
                    .map(|(k, _)| *k)
                    .collect::<Vec<u64>>()
            };
            while !mine(&hub).is_empty() && tokio::time::Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            hub.engine.remove_client(client);
            let keys = mine(&hub);
            let left: Vec<InFlight> = {
                let mut map = lock(&hub.pending);
                keys.into_iter().filter_map(|k| map.remove(&k)).collect()
            };
            for f in left {
                if let Some(a) = f.abort {
                    a.abort();
                }
            }
            tracing::debug!("client {client} disconnected");
        });
        let mut readers = lock_list(&hub.readers);
        readers.retain(|r| !r.is_finished());
        readers.push(task.abort_handle());
    }
}

/// How a connection's reading ended.
#[derive(PartialEq)]
enum Ended {
    /// The stream closed (or failed).
    Closed,
    /// The session is shutting down: the client stays registered to receive the receipt.
    Shutdown,
    /// The client left more unread answers than [`crate::outbox::MAX_QUEUED_BYTES`] and was
    /// disconnected.
    Dropped,
}

/// Reads one client's requests until its stream ends or it is dropped for not reading.
/// After a `shutdown` it goes on reading, so requests sent behind it are answered too.
/// Requests written in the same breath as `shutdown` are already in the input: each is
/// answered `state.shutting_down` now, before the session ends and stops reading (they would
/// otherwise get no answer at all). Waiting stops as soon as no complete line is at hand.
async fn answer_requests_behind_shutdown<R: AsyncBufRead + Unpin>(
    engine: &Engine,
    client: ClientId,
    input: &mut R,
) {
    const AT_HAND: Duration = Duration::from_millis(20);
    while let Ok(Ok(LineRead::Line(line))) =
        tokio::time::timeout(AT_HAND, read_line_bounded(input, jsonl::MAX_LINE_BYTES)).await
    {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let (id, cmd) = match parse_request(&line) {
            Ok(req) => (req.id, req.cmd),
            Err(rejected) => (rejected.id, String::new()),
        };
        let err = ErrorBody::new(
            ErrorCode::ShuttingDown,
            "the session is shutting down; this request was not run",
        );
        engine.respond(&Origin { client, id }, &cmd, Err(err));
    }
}

async fn connection<R: AsyncBufRead + Unpin>(
    hub: &Arc<Hub>,
    client: ClientId,
    mut input: R,
    outbox: &Outbox,
) -> Ended {
    let engine = &hub.engine;
    let no_id = Origin {
        client,
        id: Value::Null,
    };
    loop {
        let read = tokio::select! {
            read = read_line_bounded(&mut input, jsonl::MAX_LINE_BYTES) => read,
            () = outbox.dropped() => return Ended::Dropped,
        };
        let line = match read {
            Ok(LineRead::Line(line)) => line,
            Ok(LineRead::Eof) if hub.shutting_down.load(Ordering::Acquire) => {
                return Ended::Shutdown;
            }
            Ok(LineRead::Eof) => return Ended::Closed,
            Ok(LineRead::TooLong) => {
                let err = ErrorBody::new(
                    ErrorCode::TooLarge,
                    format!("request line longer than {} bytes", jsonl::MAX_LINE_BYTES),
                );
                engine.respond(&no_id, "", Err(err));
                continue;
            }
            Err(e) => {
                // A client that exits without closing its side first resets the connection:
                // that is how short-lived front ends leave, not a fault.
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe
                ) {
                    tracing::debug!("client {client} left: {e}");
                } else {
                    tracing::error!("cannot read requests of client {client}: {e}");
                }
                return Ended::Closed;
            }
        };
        // An empty (or blank) line is no request and gets no answer (PROTOCOL.md).
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let req = match parse_request(&line) {
            Ok(req) => req,
            Err(rejected) => {
                let to = Origin {
                    client,
                    id: rejected.id,
                };
                engine.respond(&to, "", Err(*rejected.error));
                continue;
            }
        };
        let origin = Origin {
            client,
            id: req.id.clone(),
        };
        if hub.shutting_down.load(Ordering::Acquire) {
            let err = ErrorBody::new(
                ErrorCode::ShuttingDown,
                "the session is shutting down; this request was not run",
            );
            engine.respond(&origin, &req.cmd, Err(err));
            continue;
        }
        match req.cmd.as_str() {
            "shutdown" => {
                hub.shutting_down.store(true, Ordering::Release);
                answer_requests_behind_shutdown(engine, client, &mut input).await;
                let _ = hub.control.send(Control::Shutdown(origin));
                continue;
            }
            "cancel" => {
                let outcome = cancel(hub, client, &req.args);
                engine.respond(&origin, "cancel", outcome);
                continue;
            }
            _ => {}
        }
        let key = {
            let mut n = hub.next_key.lock().unwrap_or_else(|e| e.into_inner());
            *n += 1;
            *n
        };
        lock(&hub.pending).insert(
            key,
            InFlight {
                origin: origin.clone(),
                cmd: req.cmd.clone(),
                abort: None,
            },
        );
        let task_hub = hub.clone();
        let handle = tokio::spawn(async move {
            let outcome = commands::dispatch(&task_hub.engine, &origin, &req).await;
            let still_pending = lock(&task_hub.pending).remove(&key).is_some();
            if still_pending {
                task_hub.engine.reply(&origin, &req.cmd, outcome);
            }
        });
        if let Some(f) = lock(&hub.pending).get_mut(&key) {
            f.abort = Some(handle.abort_handle());
        }
    }
}

/// `cancel`: answers the named request of the same client with `request.cancelled` and stops
/// waiting for it.
fn cancel(hub: &Hub, client: ClientId, args: &Value) -> Result<Value, ErrorBody> {
    let args: jsonl::args::CancelArgs = jsonl::args::decode("cancel", args)?;
    let found: Vec<InFlight> = {
        let mut map = lock(&hub.pending);
        let keys: Vec<u64> = map
            .iter()
            .filter(|(_, f)| f.origin.client == client && f.origin.id == args.id)
            .map(|(k, _)| *k)
            .collect();
        keys.into_iter().filter_map(|k| map.remove(&k)).collect()
    };
    let cancelled = !found.is_empty();
    for f in found {
        if let Some(abort) = f.abort {
            abort.abort();
        }
        hub.engine.respond(
            &f.origin,
            &f.cmd,
            Err(ErrorBody::new(
                ErrorCode::Cancelled,
                "cancelled by request; anything it started on the system reports through events",
            )),
        );
    }
    crate::to_proto::ok(jsonl::results::CancelResult {
        cancelled,
        id: args.id,
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn one_lock_per_socket_and_a_replaced_lock_file_is_not_ours() {
        let dir = std::env::temp_dir().join(format!("abapdbg-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let socket = dir.join("abapdbg").join("s.sock");
        let held = lock_session(&socket).expect("first lock");
        assert!(matches!(
            lock_session(&socket),
            Err(ServeError::Running { .. })
        ));
        // The owner ends and removes the file; one who opened it before holds a file nobody
        // else sees, and must not take it for the session's lock.
        let path = jsonl::paths::lock_path(&socket);
        let stale = std::fs::File::open(&path).expect("open");
        std::fs::remove_file(&path).expect("remove");
        drop(held);
        assert!(!same_file(&stale, &path));
        let next = lock_session(&socket).expect("a new lock file");
        assert!(same_file(&next, &path));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

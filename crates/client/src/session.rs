//! One connection to a running session: requests with ids, one reader thread that routes
//! responses to their callers and events to subscribers.

use std::collections::HashMap;
use std::io::{BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jsonl::{Event, Outgoing, Response};
use serde_json::{Value, json};

use crate::error::{ClientError, ProtocolError};
use crate::start::start_daemon;
use crate::target::Target;

/// How often blocking waits look at the caller's interrupt flag.
const TICK: Duration = Duration::from_millis(50);

/// What the reader delivers to a [`Subscription`].
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    Event(Event),
    /// The answer to a request sent with [`Session::send_routed`].
    Response(Response),
}

/// Where a response goes.
enum Route {
    Caller(Sender<Response>),
    Subscriber(Sender<Incoming>),
}

#[derive(Default)]
struct Routes {
    pending: HashMap<u64, Route>,
    subscribers: Vec<Sender<Incoming>>,
    /// Set once the connection is gone: later requests fail at once.
    closed: bool,
}

/// A connection to the session of one system. Cheap to share between threads.
pub struct Session {
    writer: Mutex<UnixStream>,
    routes: Arc<Mutex<Routes>>,
    next_id: AtomicU64,
    socket: PathBuf,
}

/// Events (and routed responses) from the moment of [`Session::subscribe`] on.
pub struct Subscription {
    rx: Receiver<Incoming>,
    /// For responses routed here ([`Session::send_routed`]).
    tx: Sender<Incoming>,
    routes: Arc<Mutex<Routes>>,
}

impl Subscription {
    /// The next item, waiting at most `timeout`; `Ok(None)` when the time is up.
    pub fn recv_timeout(&self, timeout: Duration) -> Result<Option<Incoming>, ClientError> {
        match self.rx.recv_timeout(timeout) {
            Ok(item) => Ok(Some(item)),
            Err(RecvTimeoutError::Timeout) if self.closed() => Err(ClientError::Disconnected),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Disconnected),
        }
    }

    fn closed(&self) -> bool {
        self.routes.lock().map(|r| r.closed).unwrap_or(true)
    }

    /// The next item, until `deadline` (`Ok(None)` then) or until `interrupted()` says so.
    pub fn recv_until(
        &self,
        deadline: Option<Instant>,
        interrupted: &dyn Fn() -> bool,
    ) -> Result<Option<Incoming>, ClientError> {
        loop {
            if interrupted() {
                return Err(ClientError::Interrupted);
            }
            let tick = match deadline {
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Ok(None);
                    }
                    left.min(TICK)
                }
                None => TICK,
            };
            if let Some(item) = self.recv_timeout(tick)? {
                return Ok(Some(item));
            }
        }
    }
}

impl Session {
    /// Connects to the running session of `target`; never starts one.
    pub fn connect(target: &Target) -> Result<Session, ClientError> {
        // A broken configuration must not lead to some other system's session.
        if let Some(problem) = target.problem() {
            return Err(problem.clone().into());
        }
        let socket = target.socket_path().ok_or(ClientError::NoSocketDir)?;
        Session::connect_path(&socket).map_err(|e| match e {
            ClientError::Io(io) if is_absent(&io) => ClientError::NoSession {
                target: target.describe(),
                socket: socket.display().to_string(),
            },
            other => other,
        })
    }

    /// Connects to the session of `target`, starting `abapdbg serve --daemon` when none runs.
    pub fn connect_or_start(target: &Target) -> Result<Session, ClientError> {
        match Session::connect(target) {
            Err(ClientError::NoSession { .. }) => {}
            other => return other,
        }
        if let Err(start) = start_daemon(target) {
            // Another front end may have started the same session at the same moment; then
            // our daemon refused to start and theirs is the one to use, once it listens.
            let deadline = Instant::now() + STARTING_WAIT;
            loop {
                if let Ok(s) = Session::connect(target) {
                    return Ok(s);
                }
                if Instant::now() >= deadline || !another_is_starting(target) {
                    return Err(start);
                }
                std::thread::sleep(TICK);
            }
        }
        Session::connect(target)
    }

    /// Connects to a session's socket by path.
    /// Refused when the socket's directory or the process at the other end is not ours.
    pub fn connect_path(socket: &Path) -> Result<Session, ClientError> {
        crate::guard::check_socket_dir(socket)?;
        let stream = UnixStream::connect(socket)?;
        crate::guard::check_peer(socket, &stream)?;
        let reader = stream.try_clone()?;
        let routes = Arc::new(Mutex::new(Routes::default()));
        let routes2 = routes.clone();
        std::thread::Builder::new()
            .name("abapdbg-session-reader".into())
            .spawn(move || read_loop(reader, &routes2))?;
        Ok(Session {
            writer: Mutex::new(stream),
            routes,
            next_id: AtomicU64::new(1),
            socket: socket.to_path_buf(),
        })
    }

    /// The socket this session was reached at.
    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// Whether the connection still stands (the reader has not seen its end).
    pub fn is_open(&self) -> bool {
        self.routes.lock().map(|r| !r.closed).unwrap_or(false)
    }

    /// Receives every event from now on.
    pub fn subscribe(&self) -> Subscription {
        let (tx, rx) = channel();
        if let Ok(mut r) = self.routes.lock() {
            r.subscribers.push(tx.clone());
        }
        Subscription {
            rx,
            tx,
            routes: self.routes.clone(),
        }
    }

    /// Sends a request and waits for its result, at most `timeout` and until `interrupted()`.
    /// On interruption the request is cancelled on the session (what it started goes on).
    pub fn request(
        &self,
        cmd: &str,
        args: Value,
        timeout: Duration,
        interrupted: &dyn Fn() -> bool,
    ) -> Result<Value, ClientError> {
        let (tx, rx) = channel();
        let id = self.send(cmd, args, Route::Caller(tx))?;
        let deadline = Instant::now() + timeout;
        loop {
            if interrupted() {
                self.cancel(id);
                return Err(ClientError::Interrupted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.forget(id);
                return Err(ClientError::Timeout {
                    cmd: cmd.to_string(),
                    after: timeout,
                });
            }
            match rx.recv_timeout(left.min(TICK)) {
                Ok(response) => return outcome(response),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(ClientError::Disconnected),
            }
        }
    }

    /// Sends a request whose response is delivered to `subscription` (as
    /// [`Incoming::Response`]) among the events: for commands that wait for an event or
    /// their answer, whichever comes first. Answers the request id.
    pub fn send_routed(
        &self,
        subscription: &Subscription,
        cmd: &str,
        args: Value,
    ) -> Result<u64, ClientError> {
        self.send(cmd, args, Route::Subscriber(subscription.tx.clone()))
    }

    /// Asks the session to answer request `id` at once with `request.cancelled`.
    pub fn cancel(&self, id: u64) {
        let _ = self.send(
            "cancel",
            json!({ "id": id }),
            Route::Subscriber(channel().0),
        );
    }

    fn forget(&self, id: u64) {
        if let Ok(mut r) = self.routes.lock() {
            r.pending.remove(&id);
        }
    }

    fn send(&self, cmd: &str, args: Value, route: Route) -> Result<u64, ClientError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        {
            let mut r = self.routes.lock().map_err(|_| ClientError::Disconnected)?;
            if r.closed {
                return Err(ClientError::Disconnected);
            }
            r.pending.insert(id, route);
        }
        let line = json!({"id": id, "cmd": cmd, "args": args}).to_string();
        let mut w = self.writer.lock().map_err(|_| ClientError::Disconnected)?;
        let written = w
            .write_all(line.as_bytes())
            .and_then(|()| w.write_all(b"\n"));
        if let Err(e) = written {
            drop(w);
            self.forget(id);
            return Err(ClientError::Io(e));
        }
        Ok(id)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(w) = self.writer.lock() {
            let _ = w.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// A response's result, or its error as a typed error.
pub(crate) fn outcome(response: Response) -> Result<Value, ClientError> {
    response
        .outcome
        .map_err(|e| ClientError::Protocol(ProtocolError::from(e)))
}

/// How long to wait for a session another front end is starting.
const STARTING_WAIT: Duration = Duration::from_secs(20);

/// Whether a session process holds the target's lock (`<socket>.lock`) without listening yet.
fn another_is_starting(target: &Target) -> bool {
    let Some(lock) = target.socket_path().map(|s| jsonl::paths::lock_path(&s)) else {
        return false;
    };
    match std::fs::File::open(lock) {
        Ok(f) => matches!(f.try_lock_shared(), Err(std::fs::TryLockError::WouldBlock)),
        Err(_) => false,
    }
}

fn is_absent(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused
    )
}

fn read_loop(stream: UnixStream, routes: &Mutex<Routes>) {
    let mut reader = BufReader::new(stream);
    let mut line = Vec::new();
    // A line over the limit ends the connection: every waiter is told it is gone.
    while let Ok(crate::guard::Line::Read) =
        crate::guard::read_line(&mut reader, &mut line, crate::guard::MAX_REPLY_BYTES)
    {
        let Ok(text) = std::str::from_utf8(&line) else {
            continue;
        };
        let Ok(item) = jsonl::parse_outgoing(text.trim_end()) else {
            // Not protocol: nothing can be routed from it; the next line may be fine.
            continue;
        };
        let Ok(mut r) = routes.lock() else { break };
        match item {
            Outgoing::Response(resp) => {
                let Some(id) = resp.id.as_u64() else { continue };
                match r.pending.remove(&id) {
                    Some(Route::Caller(tx)) => {
                        let _ = tx.send(resp);
                    }
                    Some(Route::Subscriber(tx)) => {
                        let _ = tx.send(Incoming::Response(resp));
                    }
                    None => {}
                }
            }
            Outgoing::Event(ev) => {
                r.subscribers
                    .retain(|tx| tx.send(Incoming::Event(ev.clone())).is_ok());
            }
            // Only a server makes these; a line read back is a `Response`.
            Outgoing::Written(_) => {}
        }
    }
    if let Ok(mut r) = routes.lock() {
        r.closed = true;
        // Dropping the senders wakes every waiter with `Disconnected`.
        r.pending.clear();
        r.subscribers.clear();
    }
}

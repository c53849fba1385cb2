//! The engine's shared facts and the helpers every command uses to answer.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

use jsonl::events::{EventKind, Ready};
use jsonl::results::Ended;
use jsonl::{ErrorBody, Event, Outgoing, Response, State};
use serde_json::Value;
use tokio::sync::watch;

use crate::breakpoints::Registry;
use crate::config::EngineConfig;
use crate::debuggee::Attached;
use crate::outbox::Outbox;
use crate::source::SourceCache;

/// What a successful request answers: a value, or JSON text written already (a `table`
/// page, see `table_json.rs`).
pub(crate) enum Reply {
    Value(Value),
    Json(String),
}

/// A connected client (stdio is client 0; socket clients follow).
pub(crate) type ClientId = u64;

/// Which request of which client something answers or was caused by. Request ids are
/// chosen by clients, so they only mean something together with the client.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Origin {
    pub(crate) client: ClientId,
    pub(crate) id: Value,
}

struct ClientLink {
    outbox: Outbox,
    /// Events this client asked for in `hello`; `None` = all.
    subscriptions: Option<Vec<String>>,
}

/// Everything the commands share. One per `serve`.
pub(crate) struct Engine {
    pub(crate) config: EngineConfig,
    clients: Mutex<HashMap<ClientId, ClientLink>>,
    inner: Mutex<Inner>,
    changed: watch::Sender<u64>,
    /// Session for breakpoints and other stateless calls.
    pub(crate) main: adt::Client,
    /// Session of its own for the listener's long poll, so it never waits behind other calls.
    pub(crate) listen_client: adt::Client,
    pub(crate) sources: SourceCache,
    /// The state file's last written snapshot; held while writing, so one write at a time.
    pub(crate) recorded: Mutex<Option<crate::statefile::Snapshot>>,
    /// Wakes the keepalives at once, so a session the system dropped is noticed and recovered
    /// when a command saw it, not a keepalive period later.
    pub(crate) check_sessions: tokio::sync::Notify,
    /// Held while breakpoints are brought in line with the system: a re-assert in the
    /// background and a `bp.*` command would otherwise each send what they read, and the later
    /// request could put back what the other just deleted.
    pub(crate) breakpoint_sync: tokio::sync::Mutex<()>,
    /// The session's own directory for exports (`export_file.rs`), removed when it ends.
    pub(crate) exports: crate::export_file::ExportDir,
    /// The count before a stopped program nobody is connected to is released (`grace.rs`).
    pub(crate) grace: crate::grace::Grace,
    /// Held while discovery is learnt, so it is asked once (`discovery.rs`).
    pub(crate) discovering: tokio::sync::Mutex<()>,
}

/// The mutable part. Held only briefly, never across an await.
#[derive(Default)]
pub(crate) struct Inner {
    pub(crate) epoch: u64,
    /// What the system offers, once learnt (`discovery.rs`).
    pub(crate) discovery: Option<adt::SystemDiscovery>,
    pub(crate) listener_wanted: bool,
    pub(crate) listener_armed: bool,
    /// A poll was sent since our listener was last deleted on the system: whatever the poll
    /// loop's state, it may be registered there, so every exit deletes it.
    pub(crate) listener_registered: bool,
    pub(crate) listener_task: Option<tokio::task::JoinHandle<()>>,
    /// The next poll takes the listener over from another debugger.
    pub(crate) listener_take_over: bool,
    /// Why the listener gave up (conflict, repeated failures), until `listen` is sent again.
    pub(crate) listener_error: Option<jsonl::ErrorBody>,
    /// Listeners for other users (a `dump.catch` of another user's dump), by user.
    pub(crate) other_listeners: BTreeMap<String, crate::user_listeners::UserListener>,
    /// Attached debuggees by thread number.
    pub(crate) threads: BTreeMap<u32, Attached>,
    /// The thread commands act on; always one of `threads` when there are any.
    pub(crate) current: Option<u32>,
    /// The last debuggee ended (ran out or was terminated) and nothing was caught since.
    pub(crate) ended: bool,
    pub(crate) next_thread: u32,
    /// Debuggees caught so far (for `wait until caught`).
    pub(crate) caught: u64,
    /// Session limits (`configure`).
    pub(crate) limits: Limits,
    /// A task retries pending breakpoints (the system could not be reached).
    pub(crate) pending_retry: bool,
    /// Debugger settings asked for with `configure`, applied to every attached session.
    pub(crate) settings: Option<adt::DebuggerSettings>,
    pub(crate) breakpoints: Registry,
    /// Our breakpoint ids that `dump.catch` set, with the dump each stops for.
    pub(crate) dump_catches: BTreeMap<u32, String>,
    pub(crate) shutting_down: bool,
    /// `run`s and `test`s in flight, by a number of their own: the end of the thread one of
    /// them caught carries its answer.
    pub(crate) runs: BTreeMap<u64, RunLink>,
    pub(crate) next_run: u64,
    /// The requests of the runs in flight, waiting for their answer (`runs::deliver`): kept
    /// apart from `runs`, as a run whose thread ended is forgotten there before its answer
    /// came.
    pub(crate) run_replies: HashMap<u64, crate::runs::Reply>,
    /// Triggers whose answer goes to another run than the one that sent them (by run number):
    /// the program a trigger started may be the one another run was told was let go, and the
    /// two runs then trade triggers (`runs::deliver`).
    pub(crate) answers_to: HashMap<u64, u64>,
    /// The body of the last `debuggee.ended` event.
    pub(crate) last_end: Option<Ended>,
    /// What an earlier session left and could not be released yet (kept in the state file,
    /// tried again at shutdown).
    pub(crate) leftover: Option<crate::statefile::Snapshot>,
    /// Our programs whose session was lost and that could not be released through a fresh
    /// one: kept in the state file, tried again at shutdown.
    pub(crate) unreleased: Vec<crate::statefile::HeldThread>,
    /// What a killed session of the same user left is being released: for the same user and
    /// terminal that release deletes the listener and the breakpoints of an object, so
    /// commands that set them wait for it ([`Engine::orphans_settled`]).
    pub(crate) releasing_orphan: bool,
}

/// A `run` or `test` in flight, and the thread it caught (at most one).
#[derive(Debug)]
pub(crate) struct RunLink {
    /// `run` or `test`.
    pub(crate) cmd: &'static str,
    /// `class` or `program`.
    pub(crate) kind: &'static str,
    /// The class or report, upper case.
    pub(crate) name: String,
    /// The program a debuggee of this run is caught in (`ZCL_X====…CP`, `ZREP`).
    pub(crate) program: String,
    /// The thread this run caught, tagged when it was caught.
    pub(crate) thread: Option<u32>,
    /// The run's answer, kept once it came if it caught a thread (until that thread ends).
    pub(crate) answer: Option<Result<crate::runs::RunAnswer, ErrorBody>>,
    /// Its program was caught beyond the thread cap and let go: how (`continued`, …).
    pub(crate) released: Option<String>,
    /// The request that started it: the stop of the program it caught is caused by it, so
    /// that client's wait knows the stop for its own.
    pub(crate) origin: Option<Origin>,
}

/// The longest a command waits for the release of what a killed session left.
const ORPHAN_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Source lines shown on each side of the current line: eleven lines, what a person reading
/// code expects to see around a stop.
pub const DEFAULT_SOURCE_CONTEXT: u32 = 5;
/// The most `configure` accepts for it.
pub(crate) const MAX_SOURCE_CONTEXT: u32 = 50;

/// What `configure` can change.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub(crate) max_value_chars: usize,
    pub(crate) step_timeout: std::time::Duration,
    /// Source lines before and after the current line in stops and `frame`.
    pub(crate) source_context: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_value_chars: 4096,
            step_timeout: std::time::Duration::from_secs(30),
            source_context: DEFAULT_SOURCE_CONTEXT,
        }
    }
}

impl Inner {
    /// Whether our listener may be registered on the system.
    pub(crate) fn listener_held(&self) -> bool {
        self.listener_wanted || self.listener_armed || self.listener_registered
    }

    /// The session state, derived from the facts so it can never disagree with them.
    pub(crate) fn state(&self) -> State {
        match self.current() {
            Some(d) if d.running => State::Running,
            Some(_) => State::Stopped,
            None if self.ended => State::Ended,
            None if self.listener_armed => State::Listening,
            None => State::Idle,
        }
    }

    /// The current thread's debuggee.
    pub(crate) fn current(&self) -> Option<&Attached> {
        self.current.and_then(|t| self.threads.get(&t))
    }

    pub(crate) fn thread_mut(&mut self, thread: u32) -> Option<&mut Attached> {
        self.threads.get_mut(&thread)
    }

    /// Adds a caught debuggee; it becomes current when nothing else is stopped. It is tagged
    /// with the run in flight that started it ([`Inner::claim_run`]).
    pub(crate) fn add_thread(&mut self, make: impl FnOnce(u32) -> Attached) -> u32 {
        let thread = self.next_thread;
        self.next_thread += 1;
        let mut attached = make(thread);
        attached.run = self.claim_run(&attached.record.program);
        if let Some(link) = attached.run.and_then(|r| self.runs.get_mut(&r)) {
            link.thread = Some(thread);
        }
        self.threads.insert(thread, attached);
        self.ended = false;
        self.caught += 1;
        if self.current().is_none() {
            self.current = Some(thread);
        }
        thread
    }

    /// The run in flight a debuggee caught in `program` belongs to: the oldest run of that
    /// program that has not caught anything yet. Runs of one program by one user cannot be
    /// told apart on the system (a debuggee names no request), so several in flight are
    /// paired with their catches in the order they were started: each run's request gets a
    /// stop of its own (its `stopped` event's `cause`). Which program's end answers which
    /// run is settled when one ends (`runs.rs`).
    fn claim_run(&self, program: &str) -> Option<u64> {
        let program = program.trim();
        self.runs
            .iter()
            .find(|(_, r)| {
                r.thread.is_none()
                    && r.released.is_none()
                    && r.program.eq_ignore_ascii_case(program)
            })
            .map(|(id, _)| *id)
    }

    /// A program caught beyond the thread cap is let go (`how`, as the release policy says;
    /// the release corrects it if it went otherwise): the run that started it, if one is in
    /// flight, answers so.
    pub(crate) fn release_run(&mut self, program: &str, how: &str) -> Option<u64> {
        let run = self.claim_run(program)?;
        if let Some(link) = self.runs.get_mut(&run) {
            link.released = Some(how.to_string());
        }
        Some(run)
    }

    /// Forgets a thread; another one becomes current if there is one. Returns it.
    pub(crate) fn remove_thread(&mut self, thread: u32) -> Option<Attached> {
        let gone = self.threads.remove(&thread);
        if self.current == Some(thread) {
            self.current = self.threads.keys().next().copied();
        }
        if self.threads.is_empty() && gone.is_some() {
            self.ended = true;
        }
        gone
    }
}

impl Engine {
    pub(crate) fn new(config: EngineConfig) -> Result<Arc<Engine>, adt::AdtError> {
        let main = adt::Client::new(&config.adt, adt::SessionMode::Stateless)?;
        let listen_client = adt::Client::new(&config.adt, adt::SessionMode::Stateless)?;
        let (changed, _) = watch::channel(0);
        let step_timeout = config.default_step_timeout;
        let source_context = config.source_context.min(MAX_SOURCE_CONTEXT);
        // The state file was claimed before the engine exists: when it still lists what a
        // killed session held, commands wait from the first one on until that is released.
        let releasing_orphan = config
            .state_file
            .as_deref()
            .is_some_and(crate::statefile::holds_anything);
        Ok(Arc::new(Engine {
            config,
            clients: Mutex::new(HashMap::new()),
            inner: Mutex::new(Inner {
                next_thread: 1,
                limits: Limits {
                    step_timeout,
                    source_context,
                    ..Limits::default()
                },
                releasing_orphan,
                ..Inner::default()
            }),
            changed,
            main,
            listen_client,
            sources: SourceCache::default(),
            exports: Default::default(),
            grace: Default::default(),
            recorded: Mutex::new(None),
            check_sessions: tokio::sync::Notify::new(),
            breakpoint_sync: tokio::sync::Mutex::new(()),
            discovering: tokio::sync::Mutex::new(()),
        }))
    }

    /// Our terminal and IDE ids acting for `user` (`None`: the session's own identity): the
    /// `requestUser` of another user's listener and breakpoints.
    pub(crate) fn identity_for(&self, user: Option<&str>) -> adt::Identity {
        match user {
            Some(u) => adt::Identity {
                user: u.to_uppercase(),
                ..self.config.identity.clone()
            },
            None => self.config.identity.clone(),
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Inner> {
        // A poisoned lock only means another task panicked mid-update; the facts are still
        // the best we have, and refusing every later command would be worse.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn state(&self) -> State {
        self.lock().state()
    }

    /// Applies a change and wakes every `wait`.
    pub(crate) fn update<T>(&self, f: impl FnOnce(&mut Inner) -> T) -> T {
        let out = f(&mut self.lock());
        self.changed.send_modify(|n| *n = n.wrapping_add(1));
        out
    }

    pub(crate) fn watch(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// Returns once no release of what an earlier session left is under way (at most after
    /// [`ORPHAN_WAIT`]: a command is not held longer than a release can take).
    pub(crate) async fn orphans_settled(&self) {
        let mut rx = self.watch();
        let deadline = tokio::time::Instant::now() + ORPHAN_WAIT;
        while self.lock().releasing_orphan {
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) | Err(_) => return,
            }
        }
    }

    fn links(&self) -> MutexGuard<'_, HashMap<ClientId, ClientLink>> {
        self.clients.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Registers a client and greets it with its `ready` event.
    pub(crate) fn add_client(&self, client: ClientId, outbox: Outbox) {
        let state = self.state();
        let ready = EventKind::Ready(Ready {
            protocol: jsonl::PROTOCOL_VERSION.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            pid: std::process::id(),
            system: self.config.adt.base_url.clone(),
        });
        outbox.send(Outgoing::Event(Event {
            event: ready.name().into(),
            state,
            body: ready.to_body(),
            cause: None,
        }));
        self.links().insert(
            client,
            ClientLink {
                outbox,
                subscriptions: None,
            },
        );
    }

    /// Forgets a client; what was queued for it is still written.
    pub(crate) fn remove_client(&self, client: ClientId) {
        if let Some(link) = self.links().remove(&client) {
            link.outbox.close();
        }
        self.grace.leave(client);
    }

    pub(crate) fn client_count(&self) -> usize {
        self.links().len()
    }

    pub(crate) fn subscribe(&self, client: ClientId, events: Option<Vec<String>>) {
        if let Some(link) = self.links().get_mut(&client) {
            link.subscriptions = events;
        }
    }

    /// Answers a dispatched request: as [`Engine::respond`], a reply written as JSON already
    /// going out as it is.
    pub(crate) fn reply(&self, to: &Origin, cmd: &str, outcome: Result<Reply, ErrorBody>) {
        let json = match outcome {
            Ok(Reply::Json(json)) => json,
            Ok(Reply::Value(value)) => return self.respond(to, cmd, Ok(value)),
            Err(e) => return self.respond(to, cmd, Err(e)),
        };
        self.answer(to, |state| {
            Outgoing::Written(jsonl::WrittenResponse {
                id: to.id.clone(),
                cmd: cmd.to_string(),
                state,
                result: json,
            })
        });
    }

    pub(crate) fn respond(&self, to: &Origin, cmd: &str, outcome: Result<Value, ErrorBody>) {
        if let Err(e) = &outcome
            && e.code == jsonl::ErrorCode::SessionLost.as_str()
        {
            // A command found a debuggee's session gone: let its keepalive recover it now.
            self.check_sessions.notify_waiters();
        }
        self.answer(to, |state| {
            Outgoing::Response(Response {
                id: to.id.clone(),
                cmd: cmd.to_string(),
                state,
                outcome,
            })
        });
    }

    /// Sends the answer made with the current state to the client of `to`, if it is still
    /// there.
    fn answer(&self, to: &Origin, make: impl FnOnce(jsonl::State) -> Outgoing) {
        let state = self.state();
        if let Some(link) = self.links().get(&to.client) {
            link.outbox.send(make(state));
        }
    }

    /// Sends an event to every client that subscribed to it; `cause` is shown only to the
    /// client whose request it was.
    pub(crate) fn emit(&self, event: EventKind, cause: Option<&Origin>) {
        // The last stop and end are kept, so a client that comes later (`status`) sees them.
        match &event {
            EventKind::Stopped(stop) => self.update(|inner| {
                if let Some(d) = inner.thread_mut(stop.thread) {
                    d.stop = Some(stop.as_ref().clone());
                }
            }),
            EventKind::Ended(end) => {
                self.update(|inner| inner.last_end = Some(end.as_ref().clone()))
            }
            _ => {}
        }
        let (event, body) = (event.name().to_string(), event.to_body());
        let state = self.state();
        for (client, link) in self.links().iter() {
            let wanted = link
                .subscriptions
                .as_ref()
                .is_none_or(|list| list.iter().any(|e| *e == event || e == "*"));
            if !wanted {
                continue;
            }
            link.outbox.send(Outgoing::Event(Event {
                event: event.clone(),
                state,
                body: body.clone(),
                cause: cause.filter(|o| o.client == *client).map(|o| o.id.clone()),
            }));
        }
    }

    /// Closes every client's stream (after the last line).
    pub(crate) fn close_all(&self) {
        for (_, link) in self.links().drain() {
            link.outbox.close();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caught(program: &str) -> impl FnOnce(u32) -> Attached {
        let config = adt::Config {
            base_url: "http://127.0.0.1:9".into(),
            ..Default::default()
        };
        let client = adt::Client::new(&config, adt::SessionMode::Stateful).expect("client");
        let record = adt::Debuggee {
            program: program.into(),
            ..Default::default()
        };
        move |t| Attached::new(t, client, record)
    }

    fn in_flight(inner: &mut Inner, program: &str) -> u64 {
        let id = inner.next_run;
        inner.next_run += 1;
        inner.runs.insert(
            id,
            RunLink {
                cmd: "run",
                kind: "class",
                name: "ZCL_X".into(),
                program: program.into(),
                thread: None,
                answer: None,
                released: None,
                origin: None,
            },
        );
        id
    }

    const POOL: &str = "ZCL_X=========================CP";

    #[test]
    fn a_catch_is_tagged_with_the_one_run_of_its_program() {
        let mut inner = Inner::default();
        let other = in_flight(&mut inner, "ZREP");
        let run = in_flight(&mut inner, POOL);
        let t = inner.add_thread(caught(POOL));
        assert_eq!(inner.threads[&t].run, Some(run));
        assert_eq!(inner.runs[&run].thread, Some(t));
        assert_eq!(inner.runs[&other].thread, None);
        // The run caught its program already: a second catch of it is not the run's.
        let t2 = inner.add_thread(caught(POOL));
        assert_eq!(inner.threads[&t2].run, None);
        // Nothing of that program in flight: no tag.
        let t3 = inner.add_thread(caught("ZOTHER"));
        assert_eq!(inner.threads[&t3].run, None);
    }

    #[test]
    fn catches_of_one_program_go_to_its_runs_in_the_order_they_started() {
        let mut inner = Inner::default();
        let a = in_flight(&mut inner, POOL);
        let b = in_flight(&mut inner, POOL);
        let c = in_flight(&mut inner, POOL);
        let t = inner.add_thread(caught(POOL));
        assert_eq!(inner.threads[&t].run, Some(a), "the oldest run first");
        // One beyond the thread cap is let go: the next run is told, and not paired again.
        assert_eq!(inner.release_run(POOL, "continued"), Some(b));
        assert_eq!(inner.runs[&b].released.as_deref(), Some("continued"));
        assert_eq!(inner.runs[&b].thread, None);
        let t2 = inner.add_thread(caught(POOL));
        assert_eq!(inner.threads[&t2].run, Some(c));
        assert_eq!(inner.runs[&c].thread, Some(t2));
        // Every run has had its catch: a further one is nobody's.
        let t3 = inner.add_thread(caught(POOL));
        assert_eq!(inner.threads[&t3].run, None);
    }
}

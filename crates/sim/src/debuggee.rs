//! Debuggees: the registry of running programs, and the debug hook that runs on each
//! program's interpreter thread.
//!
//! The interpreter thread owns all ABAP state. When the hook decides to stop, it blocks on a
//! `std::sync::mpsc` channel and serves [`Command`]s (stack, variables, step, terminate) sent
//! by HTTP handlers, each with a `tokio::sync::oneshot` reply. A step's reply is kept until the
//! next stop (or the end of the run) and answered from there.
//!
//! Phases of a debuggee (§14.2): running → waiting for attach (stopped at a breakpoint while
//! its user has a listener) → attached (to one stateful context) → ended.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use abap::{DebugHook, Frame, Location, Resume, StopContext, VarRecord};
use axum::response::{IntoResponse, Response};
use tokio::sync::oneshot;

use crate::breakpoints::{Probe, Reached};
use crate::ids;
use crate::listener::DebuggeeInfo;
use crate::state::{Shared, lock};
use crate::variables::ChildVariables;
use crate::watchpoints::{WatchHit, WatchList};

/// How far a step runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StepKind {
    Into,
    Over,
    Return,
    Continue,
    /// Run to a source line (temporary breakpoint).
    RunTo {
        object: String,
        part: abap::SourcePart,
        line: u32,
    },
    /// Continue at a line without executing what lies between (`stepJumpToLine`); stops at
    /// the target before its statement runs.
    Jump,
}

/// How a step ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StepOutcome {
    /// Stopped again; the breakpoints and watchpoints reached at the new position.
    Stopped {
        reached: Vec<Reached>,
        watched: Vec<WatchHit>,
    },
    /// The program ran to its end (or was aborted).
    Ended,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AttachError {
    /// Not (or no longer) waiting for an attach.
    NotWaiting,
    /// Attached by another session.
    AlreadyAttached,
}

/// What the HTTP side asks a stopped debuggee.
pub(crate) enum Command {
    Attach {
        reply: oneshot::Sender<Result<Vec<Reached>, AttachError>>,
    },
    /// Attach again from a new session after the attaching context expired: the program
    /// stays where it is, nothing is reached.
    Reattach {
        reply: oneshot::Sender<Result<Vec<Reached>, AttachError>>,
    },
    /// Read a variable for a new watchpoint: (record, procedure, depth of its frame).
    Watch {
        frame: usize,
        name: String,
        reply: oneshot::Sender<Option<(VarRecord, String, usize)>>,
    },
    Stack {
        reply: oneshot::Sender<Vec<Frame>>,
    },
    /// The `getChildVariables` document of `parents` (`None`: none resolved).
    Children {
        frame: usize,
        parents: Vec<String>,
        reply: oneshot::Sender<Option<String>>,
    },
    Variables {
        frame: usize,
        ids: Vec<String>,
        reply: oneshot::Sender<Vec<VarRecord>>,
    },
    Step {
        kind: StepKind,
        reply: oneshot::Sender<StepOutcome>,
    },
    /// Move the execution pointer to `line` of the current procedure (`stepJumpToLine`).
    /// `Err(())` at once when the target is impossible (the debuggee stays stopped), else the
    /// outcome once it stopped at the target.
    Jump {
        object: String,
        part: abap::SourcePart,
        line: u32,
        reply: oneshot::Sender<Result<oneshot::Receiver<StepOutcome>, ()>>,
    },
    /// Change a variable of frame `frame` (`setVariableValue`): its new record, or why not.
    SetValue {
        frame: usize,
        id: String,
        value: String,
        reply: oneshot::Sender<Result<VarRecord, String>>,
    },
    Terminate {
        reply: Option<oneshot::Sender<()>>,
    },
    /// The attached session went away: run on, detached.
    Release,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    Running,
    Waiting { reported: bool },
    Attached,
    Ended,
}

struct EntryState {
    phase: Phase,
    location: Option<Location>,
    /// Stateful context that attached.
    context: Option<String>,
}

/// What the admin API shows of a debuggee.
#[derive(Debug, Clone)]
pub(crate) struct DebuggeeSnapshot {
    pub id: String,
    pub user: String,
    /// `running`, `waiting`, `attached`, `ended`.
    pub phase: &'static str,
    pub location: Option<Location>,
    pub context: Option<String>,
}

/// A running program that may stop in the debugger.
pub(crate) struct DebuggeeEntry {
    pub id: String,
    pub user: String,
    pub client: String,
    tx: mpsc::Sender<Command>,
    state: Mutex<EntryState>,
    /// Watchpoints of the debug session attached to it.
    pub watchpoints: Mutex<WatchList>,
}

impl DebuggeeEntry {
    pub fn new(user: &str, client: &str) -> (Arc<Self>, mpsc::Receiver<Command>) {
        let (tx, rx) = mpsc::channel();
        let entry = Arc::new(DebuggeeEntry {
            id: ids::hex32(),
            user: user.to_string(),
            client: client.to_string(),
            tx,
            state: Mutex::new(EntryState {
                phase: Phase::Running,
                location: None,
                context: None,
            }),
            watchpoints: Mutex::new(WatchList::default()),
        });
        (entry, rx)
    }

    /// Send a command; false when the program has ended.
    pub fn send(&self, cmd: Command) -> bool {
        if lock(&self.state).phase == Phase::Ended {
            return false;
        }
        self.tx.send(cmd).is_ok()
    }

    /// Ask to attach `context`. A waiting debuggee can be attached, and an attached one whose
    /// attaching context no longer exists (it expired: the program is still stopped, and a
    /// debugger that lost its session may take it again). The check and the send happen under
    /// the state lock, so the hook's attach timeout cannot race it.
    pub fn request_attach(
        &self,
        context: &str,
        sessions: &crate::sessions::Sessions,
    ) -> Result<oneshot::Receiver<Result<Vec<Reached>, AttachError>>, AttachError> {
        let mut st = lock(&self.state);
        if st.phase == Phase::Attached && st.context.as_deref().is_none_or(|c| !sessions.exists(c))
        {
            let (reply, rx) = oneshot::channel();
            self.tx
                .send(Command::Reattach { reply })
                .map_err(|_| AttachError::NotWaiting)?;
            tracing::info!("debuggee {} attached again by {context}", self.id);
            st.context = Some(context.to_string());
            return Ok(rx);
        }
        match &st.phase {
            Phase::Waiting { .. } => {
                let (reply, rx) = oneshot::channel();
                self.tx
                    .send(Command::Attach { reply })
                    .map_err(|_| AttachError::NotWaiting)?;
                tracing::debug!("debuggee {} attach requested by {context}", self.id);
                st.context = Some(context.to_string());
                Ok(rx)
            }
            Phase::Attached => Err(AttachError::AlreadyAttached),
            Phase::Running | Phase::Ended => Err(AttachError::NotWaiting),
        }
    }

    fn set_phase(&self, phase: Phase) {
        lock(&self.state).phase = phase;
    }
}

/// Every program currently running.
#[derive(Default)]
pub(crate) struct DebuggeeRegistry {
    live: Mutex<Vec<Arc<DebuggeeEntry>>>,
}

impl DebuggeeRegistry {
    pub fn add(&self, entry: Arc<DebuggeeEntry>) {
        lock(&self.live).push(entry);
    }

    pub fn remove(&self, id: &str) {
        lock(&self.live).retain(|e| e.id != id);
    }

    pub fn find(&self, id: &str) -> Option<Arc<DebuggeeEntry>> {
        lock(&self.live).iter().find(|e| e.id == id).cloned()
    }

    /// The first debuggee of `user` waiting for attach that no listener reported yet; marks it
    /// reported.
    pub fn take_unreported(&self, user: &str) -> Option<DebuggeeInfo> {
        let live = lock(&self.live);
        for e in live.iter().filter(|e| e.user == user) {
            let mut st = lock(&e.state);
            if st.phase == (Phase::Waiting { reported: false })
                && let Some(location) = st.location.clone()
            {
                st.phase = Phase::Waiting { reported: true };
                return Some(DebuggeeInfo {
                    id: e.id.clone(),
                    user: e.user.clone(),
                    client: e.client.clone(),
                    location,
                });
            }
        }
        None
    }

    pub fn snapshot(&self) -> Vec<DebuggeeSnapshot> {
        lock(&self.live)
            .iter()
            .map(|e| {
                let st = lock(&e.state);
                DebuggeeSnapshot {
                    id: e.id.clone(),
                    user: e.user.clone(),
                    phase: match st.phase {
                        Phase::Running => "running",
                        Phase::Waiting { .. } => "waiting",
                        Phase::Attached => "attached",
                        Phase::Ended => "ended",
                    },
                    location: match st.phase {
                        Phase::Running | Phase::Ended => None,
                        _ => st.location.clone(),
                    },
                    context: match st.phase {
                        Phase::Attached => st.context.clone(),
                        _ => None,
                    },
                }
            })
            .collect()
    }

    /// Abort every program (shutdown).
    pub fn terminate_all(&self) {
        for e in lock(&self.live).iter() {
            let _ = e.tx.send(Command::Terminate { reply: None });
        }
    }
}

enum Mode {
    /// Not attached: a breakpoint (with a listener) makes it wait for attach.
    Free,
    /// Attached; after a step command, the step and the depth it was issued at.
    Attached { step: Option<(StepKind, usize)> },
}

/// The debug hook of one run.
pub(crate) struct SimHook {
    shared: Arc<Shared>,
    entry: Arc<DebuggeeEntry>,
    rx: mpsc::Receiver<Command>,
    mode: Mode,
    pending: Option<oneshot::Sender<StepOutcome>>,
    /// Time the program has been held stopped (not counted as its run time).
    paused: Duration,
    /// What the hook last found out while running free, so a statement costs two atomic
    /// loads while nothing changed: whether the user listens (at a listener registry
    /// version) and whether a breakpoint could fire in the current procedure (at a
    /// breakpoint store version).
    listening: (u64, bool),
    may_hit: Option<(u64, usize, bool)>,
}

impl SimHook {
    pub fn new(
        shared: Arc<Shared>,
        entry: Arc<DebuggeeEntry>,
        rx: mpsc::Receiver<Command>,
    ) -> Self {
        SimHook {
            shared,
            entry,
            rx,
            mode: Mode::Free,
            pending: None,
            paused: Duration::ZERO,
            listening: (u64::MAX, false),
            may_hit: None,
        }
    }

    /// Does the program's user have a listener (asked again only after a change)?
    fn listening(&mut self) -> bool {
        let version = self.shared.listeners.version();
        if self.listening.0 != version {
            self.listening = (version, self.shared.listeners.has(&self.entry.user));
        }
        self.listening.1
    }

    /// Could an external breakpoint fire in the procedure about to run a statement (asked
    /// again when the procedure or the breakpoints change)?
    fn may_hit(&mut self, ctx: &dyn StopContext) -> bool {
        let version = self.shared.breakpoints.version();
        let Some(procedure) = ctx.procedure() else {
            return true;
        };
        if let Some((v, p, answer)) = self.may_hit
            && v == version
            && p == procedure
        {
            return answer;
        }
        let loc = ctx.location();
        let answer = self
            .shared
            .breakpoints
            .may_hit(&self.entry.user, &loc.object, loc.part);
        self.may_hit = Some((version, procedure, answer));
        answer
    }

    /// The run is over: answer a pending step, leave the registry.
    pub fn finish(&mut self) {
        self.entry.set_phase(Phase::Ended);
        if let Some(p) = self.pending.take() {
            let _ = p.send(StepOutcome::Ended);
        }
        // Answer whatever is still queued so no HTTP handler waits for nothing.
        while let Ok(cmd) = self.rx.try_recv() {
            if let Command::Terminate { reply: Some(r) } = cmd {
                let _ = r.send(());
            }
        }
        self.shared.debuggees.remove(&self.entry.id);
        self.shared.breakpoints.drop_debuggee(&self.entry.id);
        self.shared.notify();
    }

    fn stop_here(
        &mut self,
        ctx: &dyn StopContext,
        step: &StepKind,
        depth: usize,
        loc: &Location,
    ) -> bool {
        match step {
            StepKind::Into => true,
            StepKind::Over => ctx.depth() <= depth,
            StepKind::Return => ctx.depth() < depth,
            StepKind::Continue => false,
            StepKind::Jump => true,
            StepKind::RunTo { object, part, line } => {
                loc.line == *line && loc.part == *part && loc.object == *object
            }
        }
    }

    /// Stopped at a breakpoint, not attached: wait (bounded) for an attach.
    fn wait_for_attach(
        &mut self,
        ctx: &dyn StopContext,
        loc: Location,
        hits: Vec<Reached>,
    ) -> Resume {
        {
            let mut st = lock(&self.entry.state);
            st.phase = Phase::Waiting { reported: false };
            st.location = Some(loc);
        }
        self.shared.notify();
        let deadline = Instant::now() + self.shared.config.attach_timeout;
        loop {
            let now = Instant::now();
            let cmd = if now >= deadline {
                let mut st = lock(&self.entry.state);
                match self.rx.try_recv() {
                    Ok(cmd) => {
                        drop(st);
                        cmd
                    }
                    Err(_) => {
                        st.phase = Phase::Running;
                        drop(st);
                        tracing::info!(
                            "debuggee {} not attached in time: running on",
                            self.entry.id
                        );
                        self.shared.notify();
                        return Resume::Run;
                    }
                }
            } else {
                match self.rx.recv_timeout(deadline - now) {
                    Ok(cmd) => cmd,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => {
                        self.entry.set_phase(Phase::Running);
                        return Resume::Run;
                    }
                }
            };
            match cmd {
                Command::Attach { reply } => {
                    self.entry.set_phase(Phase::Attached);
                    if reply.send(Ok(hits.clone())).is_err() {
                        // The attach request went away: keep waiting.
                        self.entry.set_phase(Phase::Waiting { reported: true });
                        continue;
                    }
                    self.mode = Mode::Attached { step: None };
                    return self.serve(ctx);
                }
                Command::Terminate { reply } => {
                    self.entry.set_phase(Phase::Ended);
                    if let Some(r) = reply {
                        let _ = r.send(());
                    }
                    return Resume::Terminate;
                }
                Command::Release => {
                    self.entry.set_phase(Phase::Running);
                    self.shared.notify();
                    return Resume::Run;
                }
                // Inspection and steps need an attached session: drop the reply.
                Command::Reattach { .. }
                | Command::Stack { .. }
                | Command::Children { .. }
                | Command::Variables { .. }
                | Command::Watch { .. }
                | Command::Step { .. }
                | Command::Jump { .. }
                | Command::SetValue { .. } => {}
            }
        }
    }

    /// Attached and stopped: serve commands until one lets the program run.
    fn serve(&mut self, ctx: &dyn StopContext) -> Resume {
        let depth = ctx.depth();
        let last_frame = depth.saturating_sub(1);
        let expiry = self.shared.config.stopped_debuggee_expiry;
        loop {
            let cmd = match self.rx.recv_timeout(expiry) {
                Ok(cmd) => cmd,
                Err(RecvTimeoutError::Timeout) => {
                    tracing::warn!(
                        "debuggee {} stopped for {expiry:?} without a debugger command: aborted",
                        self.entry.id
                    );
                    self.entry.set_phase(Phase::Ended);
                    return Resume::Terminate;
                }
                Err(RecvTimeoutError::Disconnected) => return Resume::Run,
            };
            match cmd {
                Command::Watch { frame, name, reply } => {
                    let idx = frame.min(last_frame);
                    let answer = ctx
                        .variables(idx, std::slice::from_ref(&name))
                        .into_iter()
                        .next()
                        .map(|r| {
                            let procedure = ctx
                                .stack()
                                .get(idx)
                                .map(|f| f.location.event_name.clone())
                                .unwrap_or_default();
                            (r, procedure, depth - idx)
                        });
                    let _ = reply.send(answer);
                }
                Command::Attach { reply } => {
                    let _ = reply.send(Err(AttachError::AlreadyAttached));
                }
                Command::Reattach { reply } => {
                    let _ = reply.send(Ok(Vec::new()));
                }
                Command::Stack { reply } => {
                    let _ = reply.send(ctx.stack());
                }
                Command::Children {
                    frame,
                    parents,
                    reply,
                } => {
                    let _ = reply.send(children(ctx, frame.min(last_frame), &parents));
                }
                Command::Variables { frame, ids, reply } => {
                    let _ = reply.send(ctx.variables(frame.min(last_frame), &ids));
                }
                Command::Step { kind, reply } => {
                    self.mode = Mode::Attached {
                        step: Some((kind, depth)),
                    };
                    self.pending = Some(reply);
                    return Resume::Run;
                }
                Command::Jump {
                    object,
                    part,
                    line,
                    reply,
                } => {
                    let here = ctx.location();
                    let possible =
                        here.object == object && here.part == part && ctx.can_jump_to(line);
                    if !possible {
                        let _ = reply.send(Err(()));
                        continue;
                    }
                    let (step_reply, outcome) = oneshot::channel();
                    if reply.send(Ok(outcome)).is_err() {
                        // The request went away: stay stopped.
                        continue;
                    }
                    self.mode = Mode::Attached {
                        step: Some((StepKind::Jump, depth)),
                    };
                    self.pending = Some(step_reply);
                    return Resume::JumpTo(line);
                }
                Command::SetValue {
                    frame,
                    id,
                    value,
                    reply,
                } => {
                    let result = ctx.set_value(frame.min(last_frame), &id, &value);
                    if result.is_ok() {
                        // The debugger's own change is no watchpoint hit: take the new value
                        // as the watched one.
                        let _ = crate::watchpoints::check(&self.entry.watchpoints, ctx);
                    }
                    let _ = reply.send(result);
                }
                Command::Terminate { reply } => {
                    self.entry.set_phase(Phase::Ended);
                    if let Some(r) = reply {
                        let _ = r.send(());
                    }
                    return Resume::Terminate;
                }
                Command::Release => {
                    self.mode = Mode::Free;
                    self.entry.set_phase(Phase::Running);
                    return Resume::Run;
                }
            }
        }
    }
}

/// `terminateDebuggee` with a `debuggeeId`, sent by a session that attached nothing: aborts a
/// stopped program of `user` that no live session holds (waiting for an attach, or attached
/// by a context that expired), the way a debugger that lost its session releases it. Answers
/// like a terminate of the attached session.
pub(crate) async fn terminate_unheld(shared: &Shared, user: &str, id: &str) -> Response {
    let gone =
        || crate::errors::invalid_debuggee("The debuggee does not exist any more").into_response();
    let Some(entry) = shared.debuggees.find(id.trim()).filter(|e| e.user == user) else {
        return gone();
    };
    {
        let st = lock(&entry.state);
        match st.phase {
            Phase::Waiting { .. } => {}
            Phase::Attached
                if st
                    .context
                    .as_deref()
                    .is_none_or(|c| !shared.sessions.exists(c)) => {}
            Phase::Attached => {
                return crate::errors::invalid_debuggee(
                    "Debuggee already attached, and it does not belong to this session",
                )
                .into_response();
            }
            Phase::Running | Phase::Ended => return gone(),
        }
    }
    let (reply, done) = oneshot::channel();
    if !entry.send(Command::Terminate { reply: Some(reply) }) {
        return gone();
    }
    // A program still running a step of its lost session takes the command at its next stop.
    let _ = tokio::time::timeout(Duration::from_secs(30), done).await;
    crate::errors::terminate_success().into_response()
}

/// The `getChildVariables` document of `parents`, written here, on the program's thread,
/// from records borrowed from the stopped program: none is built or sent across (a page of
/// table rows is a thousand).
fn children(ctx: &dyn StopContext, frame: usize, parents: &[String]) -> Option<String> {
    let mut doc = ChildVariables::new(parents.len());
    for parent in parents {
        if parent == "@ROOT" {
            doc.parent(parent, |rows| {
                for s in ctx.scopes(frame) {
                    let record = if s.name.is_empty() {
                        ctx.variables(frame, std::slice::from_ref(&s.id))
                            .into_iter()
                            .next()
                    } else {
                        None
                    };
                    let fields = record.as_ref().map(VarRecord::fields);
                    rows.row(&s.id, &s.name, fields.as_ref());
                }
                true
            });
        } else {
            doc.parent(parent, |rows| {
                ctx.each_child(frame, parent, &mut |r| rows.row(r.id, "", Some(&r)))
            });
        }
    }
    doc.finish()
}

/// What the interpreter tells about the next statement: its keyword (statement
/// breakpoints), the class a `CATCH` has just caught (exception breakpoints) and a `MESSAGE`'s
/// static id, number and type (message breakpoints).
fn probe_of<'a>(ctx: &dyn StopContext, loc: &'a Location) -> Probe<'a> {
    let statement = ctx.statement();
    Probe {
        location: loc,
        statement: (!statement.is_empty()).then_some(statement),
        exception: ctx.caught_exception(),
        message: ctx.message(),
    }
}

impl SimHook {
    /// Runs `wait` (the program is held stopped) and adds its duration to `paused`.
    fn held(&mut self, wait: impl FnOnce(&mut Self) -> Resume) -> Resume {
        let start = std::time::Instant::now();
        let resume = wait(self);
        self.paused += start.elapsed();
        resume
    }

    fn hits(&self, ctx: &dyn StopContext, loc: &Location, attached: bool) -> Vec<Reached> {
        let probe = probe_of(ctx, loc);
        self.shared.breakpoints.hits(
            &self.entry.user,
            attached.then_some(self.entry.id.as_str()),
            &probe,
            &|condition| ctx.condition_holds(0, condition),
        )
    }
}

impl DebugHook for SimHook {
    fn paused(&self) -> Duration {
        self.paused
    }

    fn before_statement(&mut self, ctx: &dyn StopContext) -> Resume {
        let resume = self.decide(ctx);
        if resume == Resume::Terminate && !self.shared.is_shutting_down() {
            // Ended by the debugger (or a stop nobody served): kept as a dump, as a runtime
            // error is (SIMULATOR.md, Short dumps).
            crate::dumps::record_terminated(&self.shared, &self.entry, ctx);
        }
        resume
    }

    fn runtime_error(&mut self, ctx: &dyn StopContext, error: &abap::RuntimeError) {
        crate::dumps::record(&self.shared, &self.entry, ctx, error);
    }
}

impl SimHook {
    /// Whether the program stops before the statement `ctx` is at, and what it does next.
    fn decide(&mut self, ctx: &dyn StopContext) -> Resume {
        if self.shared.is_shutting_down() {
            return Resume::Terminate;
        }
        if matches!(self.mode, Mode::Free) && !(self.listening() && self.may_hit(ctx)) {
            // Nobody listens, or nothing could stop in this procedure: run on without
            // building the location or asking the breakpoints.
            return Resume::Run;
        }
        let loc = ctx.location();
        match &self.mode {
            Mode::Free => {
                let hits = self.hits(ctx, &loc, false);
                if hits.is_empty() {
                    return Resume::Run;
                }
                self.held(|h| h.wait_for_attach(ctx, loc, hits))
            }
            Mode::Attached { step } => {
                let step = step.clone();
                if matches!(step, Some((StepKind::Jump, _))) {
                    // Landed on the jump target: nothing was executed or reached on the way.
                    let _ = crate::watchpoints::check(&self.entry.watchpoints, ctx);
                    lock(&self.entry.state).location = Some(loc);
                    if let Some(p) = self.pending.take() {
                        let _ = p.send(StepOutcome::Stopped {
                            reached: Vec::new(),
                            watched: Vec::new(),
                        });
                    }
                    return self.held(|h| h.serve(ctx));
                }
                let hits = self.hits(ctx, &loc, true);
                let running = matches!(
                    step,
                    Some((StepKind::Continue, _)) | Some((StepKind::RunTo { .. }, _))
                );
                // Every statement updates the watched values; only running steps stop on a
                // change (§10).
                let watched = crate::watchpoints::check(&self.entry.watchpoints, ctx);
                let watched = if running { watched } else { Vec::new() };
                let stop = !hits.is_empty()
                    || !watched.is_empty()
                    || match step {
                        Some((kind, depth)) => self.stop_here(ctx, &kind, depth, &loc),
                        None => false,
                    };
                if !stop {
                    return Resume::Run;
                }
                lock(&self.entry.state).location = Some(loc);
                if let Some(p) = self.pending.take() {
                    let _ = p.send(StepOutcome::Stopped {
                        reached: hits,
                        watched,
                    });
                }
                self.held(|h| h.serve(ctx))
            }
        }
    }
}

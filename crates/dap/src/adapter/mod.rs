//! The debug adapter: one loop that takes DAP requests, session events and the end of the
//! run, in the order they arrive, and answers each request exactly once.
//!
//! Three threads feed the loop's channel: the reader of the client's messages, the reader of
//! the session's events (started by `launch`/`attach`), and the one that waits for a launched
//! program's answer. Requests to the session are quick (movements are sent with a zero wait
//! and answer `pending`; the stop comes as an event), so a request never waits behind a
//! running program, and every response goes out before the events it led to.
//!
//! Every request to the session is typed (`jsonl::cmd`) and names the thread, and where it
//! reads a frame the frame, it is for: the adapter never moves the session's cursor, which
//! other clients of the session (a person at the REPL) rely on.

mod breakpoints;
mod disconnect;
mod evaluate;
mod events;
mod inspect;
mod lifecycle;
mod stepping;
mod watchpoints;

pub use breakpoints::HitCondition;

use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use client::{ClientError, Incoming, Session};
use jsonl::CommandSpec;
use jsonl::args::StepType;
use jsonl::results::{RunResult, TestResult, VarsResult};
use serde_json::{Value, json};

use crate::config::LaunchConfig;
use crate::framing::{self, FramingError};
use crate::message::{self, Request, RequestError};
use crate::refs::Handles;
use crate::sources::Sources;

/// How long a request to the session that does not wait for the program may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);

/// What the loop acts on.
pub enum Input {
    Request(Request),
    /// A message that is not a request; answered when it has a `seq`.
    BadRequest(RequestError),
    /// The client's stream is broken or unreadable.
    BadFrame(FramingError),
    /// The client closed its side.
    Eof,
    Session(Incoming),
    /// The connection to the session is gone.
    SessionGone,
    /// A launched program's run (or test) answered.
    RunDone(Result<RunAnswer, ClientError>),
    /// A signal: release and end.
    Stop,
}

/// What a launched program's request answered.
#[derive(Debug)]
pub enum RunAnswer {
    Run(RunResult),
    Test(TestResult),
}

/// Ends the adapter from outside (a signal handler): it releases what it holds and returns.
#[derive(Clone)]
pub struct Stopper(Sender<Input>);

impl Stopper {
    pub fn stop(&self) {
        let _ = self.0.send(Input::Stop);
    }
}

/// Why a request failed: the sentence the user sees.
#[derive(Debug)]
pub(crate) struct Failure(pub(crate) String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(e.to_string())
    }
}

/// The error's hint as an IDE user acts on it (the session writes its hints for the protocol:
/// `'listen' with {"take_over":true}` is the launch option `takeOver` here).
pub(crate) fn hint(e: &ClientError) -> Option<String> {
    match e {
        ClientError::Protocol(p) => p.hint.as_deref().and_then(|h| dap_hint(&p.code, h)),
        other => other.hint(),
    }
}

/// A protocol hint of an error or event of `code`, as the adapter says it.
pub(crate) fn dap_hint(code: &str, hint: &str) -> Option<String> {
    client::hints::for_front_end(client::hints::FrontEnd::Dap, code, hint)
}

/// A session error as a sentence with its hint.
pub(crate) fn explain(e: &ClientError) -> String {
    match hint(e) {
        Some(h) => format!("{e} ({h})"),
        None => e.to_string(),
    }
}

type Reply = Result<Option<Value>, Failure>;

/// A variable of the adapter's environment by name.
type Env = Box<dyn Fn(&str) -> Option<String> + Send>;

/// The writer of DAP messages: assigns `seq`.
struct Output {
    writer: Box<dyn Write + Send>,
    seq: i64,
    broken: bool,
}

impl Output {
    fn send(&mut self, mut message: Value) {
        if self.broken {
            return;
        }
        self.seq += 1;
        message["seq"] = json!(self.seq);
        if framing::write_message(&mut self.writer, &message).is_err() {
            // The client is gone; the loop ends at its EOF.
            self.broken = true;
        }
    }
}

/// What the client said about itself in `initialize`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ClientCaps {
    pub(crate) lines_start_at1: bool,
    pub(crate) supports_variable_type: bool,
    /// Paths are `file://` URIs (`pathFormat: "uri"`).
    pub(crate) uri_paths: bool,
}

/// The connection to the session, once `launch` or `attach` made it.
pub(crate) struct Link {
    pub(crate) session: Arc<Session>,
    /// No session ran for the system: this adapter started it, and ends it.
    pub(crate) started_here: bool,
    /// The listener was armed before we came: leave it armed.
    pub(crate) listener_was_wanted: bool,
    /// The session was started with writes allowed.
    pub(crate) session_allows_writes: bool,
}

/// A stack frame a `frameId` stands for: what a request about it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct FrameRef {
    pub(crate) thread: u32,
    pub(crate) epoch: u64,
    pub(crate) index: usize,
}

/// What a `variablesReference` stands for.
#[derive(Debug, Clone)]
pub(crate) enum VarRef {
    /// A scope of a frame by its name (`""`: the variables directly under the root).
    Scope { frame: FrameRef, name: String },
    /// A variable with children: structure, object, reference, table.
    Var {
        frame: FrameRef,
        id: String,
        table: bool,
        /// Child name → id, as last listed (for `setVariable`).
        children: HashMap<String, String>,
    },
}

impl VarRef {
    pub(crate) fn frame(&self) -> FrameRef {
        match self {
            VarRef::Scope { frame, .. } | VarRef::Var { frame, .. } => *frame,
        }
    }
}

pub struct Adapter {
    out: Output,
    inputs: Sender<Input>,
    caps: ClientCaps,
    config: Option<LaunchConfig>,
    link: Option<Link>,
    sources: Sources,
    frames: Handles<FrameRef>,
    vars: Handles<VarRef>,
    goto_targets: Handles<String>,
    bps: breakpoints::Registry,
    /// Watchpoints we set (data breakpoints): thread and the session's watchpoint id.
    watchpoints: Vec<(u32, String)>,
    /// Threads reported to the client and not ended.
    threads_seen: BTreeSet<u32>,
    /// How we moved a thread (`step`, `goto`), until its next stop.
    moving: HashMap<u32, &'static str>,
    /// The thread of the last stop.
    last_thread: Option<u32>,
    /// The exception class each thread stopped at, while it stays there.
    exceptions: HashMap<u32, String>,
    /// The frame the client last looked at (scopes, variables, evaluate) in this stop: what an
    /// expression without a frame is read in.
    focus: Option<FrameRef>,
    /// The scopes and variables of each frame read in this stop (`vars` without an id):
    /// `scopes` and then `variables` of a scope read them once.
    listings: HashMap<FrameRef, VarsResult>,
    /// Events to send after the response of the request being handled.
    deferred: Vec<Value>,
    /// `configurationDone` came; what it starts has been started.
    configured: bool,
    /// A launched run is in flight.
    run_pending: bool,
    terminated_sent: bool,
    released: bool,
    /// How the adapter finds a variable of its environment (the process's, or a test's).
    env: Env,
}

/// Runs the adapter on `input`/`output` until the client disconnects or the input ends;
/// `on_start` gets a [`Stopper`] (for signal handlers). Releases what it holds on every way out.
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    env: impl Fn(&str) -> Option<String> + Send + 'static,
    on_start: impl FnOnce(Stopper),
) {
    let (tx, rx) = channel();
    on_start(Stopper(tx.clone()));
    let reader_tx = tx.clone();
    let spawned = std::thread::Builder::new()
        .name("dap-reader".into())
        .spawn(move || read_client(input, &reader_tx));
    let mut adapter = Adapter {
        out: Output {
            writer: Box::new(output),
            seq: 0,
            broken: false,
        },
        inputs: tx,
        caps: ClientCaps {
            lines_start_at1: true,
            supports_variable_type: false,
            uri_paths: false,
        },
        config: None,
        link: None,
        sources: Sources::default(),
        frames: Handles::default(),
        vars: Handles::default(),
        goto_targets: Handles::default(),
        bps: breakpoints::Registry::default(),
        watchpoints: Vec::new(),
        threads_seen: BTreeSet::new(),
        moving: HashMap::new(),
        last_thread: None,
        exceptions: HashMap::new(),
        focus: None,
        listings: HashMap::new(),
        deferred: Vec::new(),
        configured: false,
        run_pending: false,
        terminated_sent: false,
        released: false,
        env: Box::new(env),
    };
    if let Err(e) = spawned {
        adapter.console(&format!("abapdbg dap: cannot read the client: {e}"));
        return;
    }
    adapter.serve(&rx);
}

/// Reads the client's messages into the loop.
fn read_client(input: impl BufRead, tx: &Sender<Input>) {
    let mut input = input;
    loop {
        let item = match framing::read_message(&mut input) {
            Ok(None) => Input::Eof,
            Ok(Some(message)) => match message::parse_request(&message) {
                Ok(request) => Input::Request(request),
                Err(e) => Input::BadRequest(e),
            },
            Err(e) => {
                let go_on = e.recoverable();
                let _ = tx.send(Input::BadFrame(e));
                if go_on {
                    continue;
                }
                Input::Eof
            }
        };
        let end = matches!(item, Input::Eof);
        if tx.send(item).is_err() || end {
            return;
        }
    }
}

impl Adapter {
    fn serve(&mut self, rx: &Receiver<Input>) {
        while let Ok(input) = rx.recv() {
            let go_on = match input {
                Input::Request(request) => self.handle(request),
                Input::BadRequest(e) => {
                    match e.answerable() {
                        Some((seq, command)) => {
                            let text = e.to_string();
                            self.out
                                .send(message::error_response(seq, command, &text, &text));
                        }
                        None => self.console(&format!("abapdbg dap: ignored a message: {e}")),
                    }
                    true
                }
                Input::BadFrame(e) => {
                    self.console(&format!("abapdbg dap: {e}"));
                    true
                }
                Input::Eof | Input::Stop => false,
                Input::Session(Incoming::Event(ev)) => {
                    self.on_session_event(&ev);
                    true
                }
                Input::Session(Incoming::Response(_)) => true,
                Input::SessionGone => {
                    self.on_session_gone();
                    true
                }
                Input::RunDone(result) => {
                    self.on_run_done(result);
                    true
                }
            };
            if !go_on || self.out.broken {
                break;
            }
        }
        self.release(None);
    }

    /// Answers one request; `false` when the adapter is to end (after `disconnect`).
    fn handle(&mut self, request: Request) -> bool {
        let args = &request.arguments;
        let reply: Reply = match request.command.as_str() {
            "initialize" => self.initialize(args),
            "launch" => self.launch(args, false),
            "attach" => self.launch(args, true),
            "configurationDone" => self.configuration_done(),
            "setBreakpoints" => self.set_breakpoints(args),
            "setFunctionBreakpoints" => self.set_function_breakpoints(args),
            "setExceptionBreakpoints" => self.set_exception_breakpoints(args),
            "dataBreakpointInfo" => self.data_breakpoint_info(args),
            "setDataBreakpoints" => self.set_data_breakpoints(args),
            "threads" => self.threads(),
            "stackTrace" => self.stack_trace(args),
            "scopes" => self.scopes(args),
            "variables" => self.variables(args),
            "source" => self.source(args),
            "loadedSources" => self.loaded_sources(),
            "evaluate" => self.evaluate(args),
            "setVariable" => self.set_variable(args),
            "setExpression" => self.set_expression(args),
            "exceptionInfo" => self.exception_info(args),
            "next" => self.step(args, StepType::Over),
            "stepIn" => self.step(args, StepType::Into),
            "stepOut" => self.step(args, StepType::Out),
            "continue" => self.step(args, StepType::Continue),
            "goto" => self.goto(args),
            "gotoTargets" => self.goto_targets(args),
            "pause" => Err(Failure(
                "ADT cannot interrupt a running ABAP program: set a breakpoint where it should stop"
                    .into(),
            )),
            "terminate" => self.terminate(),
            "disconnect" => {
                let terminate = args.get("terminateDebuggee").and_then(Value::as_bool);
                self.release(terminate);
                self.respond(&request, Ok(None));
                return false;
            }
            other => Err(Failure(format!("'{other}' is not supported by abapdbg dap"))),
        };
        self.respond(&request, reply);
        true
    }

    fn respond(&mut self, request: &Request, reply: Reply) {
        let msg = match reply {
            Ok(body) => message::response(request.seq, &request.command, body),
            Err(Failure(text)) => {
                let short = text.lines().next().unwrap_or_default().to_string();
                message::error_response(request.seq, &request.command, &short, &text)
            }
        };
        self.out.send(msg);
        for ev in std::mem::take(&mut self.deferred) {
            self.out.send(ev);
        }
    }

    /// Sends an event now.
    pub(crate) fn emit(&mut self, name: &str, body: Value) {
        self.out.send(message::event(name, Some(body)));
    }

    /// Sends an event after the response being prepared.
    pub(crate) fn defer(&mut self, name: &str, body: Value) {
        self.deferred.push(message::event(name, Some(body)));
    }

    /// A line for the debug console.
    pub(crate) fn console(&mut self, text: &str) {
        self.emit(
            "output",
            json!({"category": "console", "output": format!("{text}\n")}),
        );
    }

    pub(crate) fn link(&self) -> Result<&Link, Failure> {
        self.link
            .as_ref()
            .ok_or_else(|| Failure("not connected: send 'launch' or 'attach' first".into()))
    }

    /// One typed request to the session. Requests about a stop name its thread and frame in
    /// their arguments, so the session's cursor, which other clients rely on, never moves.
    pub(crate) fn request<C: CommandSpec>(&self, args: &C::Args) -> Result<C::Result, Failure> {
        let link = self.link()?;
        link.session
            .call_within::<C>(args, REQUEST_TIMEOUT)
            .map_err(|e| Failure(explain(&e)))
    }

    /// Forgets every reference of the last stop.
    pub(crate) fn invalidate(&mut self) {
        self.frames.invalidate();
        self.vars.invalidate();
        self.goto_targets.invalidate();
        self.focus = None;
        self.listings.clear();
    }

    /// A line number as the client counts.
    pub(crate) fn client_line(&self, line: u64) -> u64 {
        if self.caps.lines_start_at1 {
            line
        } else {
            line.saturating_sub(1)
        }
    }

    /// A client's line number as ABAP counts (from 1).
    pub(crate) fn abap_line(&self, line: i64) -> Option<u32> {
        let line = if self.caps.lines_start_at1 {
            line
        } else {
            line + 1
        };
        u32::try_from(line).ok().filter(|l| *l >= 1)
    }

    pub(crate) fn allow_writes(&self) -> bool {
        self.config.as_ref().is_some_and(|c| c.allow_writes)
    }

    /// Sends `terminated` once.
    pub(crate) fn terminated(&mut self) {
        if !self.terminated_sent {
            self.terminated_sent = true;
            self.emit("terminated", json!({}));
        }
    }
}

//! `initialize`, `launch`, `attach`, `configurationDone`, and the end of a launched run.
//!
//! `launch`/`attach` reach the session of the configured system (starting one when none
//! runs), then announce `initialized`; breakpoints come next, and `configurationDone` starts
//! the program (`launch`: `run` or `test` on the session, answered when the program ends) or
//! arms the listener (`attach`: whatever the user starts elsewhere is caught).

use std::sync::Arc;
use std::time::{Duration, Instant};

use client::{ClientError, Session};
use jsonl::args::{ConfigureArgs, ListenArgs, RunArgs, SettingsArgs, TestArgs};
use jsonl::cmd;
use jsonl::results::TestResult;
use serde_json::{Value, json};

use super::{Adapter, ClientCaps, Failure, Input, Link, Reply, RunAnswer, explain};
use crate::config::{LaunchConfig, Mode, Program};
use crate::sources::Sources;

/// How long a launched program may run (and stay stopped) before its answer is given up.
const RUN_LIMIT: Duration = Duration::from_secs(7 * 24 * 3600);

/// The filter id of exception breakpoints by class.
pub(crate) const EXCEPTION_FILTER: &str = "abap-exceptions";

/// What the adapter can do, as `initialize` answers. Only what works: no pause (ADT cannot
/// interrupt a running program), no restart.
pub(crate) fn capabilities() -> Value {
    json!({
        "supportsConfigurationDoneRequest": true,
        "supportsConditionalBreakpoints": true,
        "supportsHitConditionalBreakpoints": true,
        "supportsLogPoints": true,
        "supportsFunctionBreakpoints": true,
        "supportsExceptionFilterOptions": true,
        "exceptionBreakpointFilters": [{
            "filter": EXCEPTION_FILTER,
            "label": "ABAP exception classes",
            "description": "Stop where an exception of the classes named in the condition is caught",
            "default": false,
            "supportsCondition": true,
            "conditionDescription": "exception class names, separated by commas (e.g. CX_SY_ZERODIVIDE, ZCX_ORDER)"
        }],
        "supportsDataBreakpoints": true,
        "supportsEvaluateForHovers": true,
        "supportsClipboardContext": true,
        "supportsSetVariable": true,
        "supportsSetExpression": true,
        "supportsExceptionInfoRequest": true,
        "supportsTerminateRequest": true,
        "supportTerminateDebuggee": true,
        "supportsGotoTargetsRequest": true,
        "supportsValueFormattingOptions": true,
        "supportsLoadedSourcesRequest": true,
    })
}

impl Adapter {
    pub(super) fn initialize(&mut self, args: &Value) -> Reply {
        self.caps = ClientCaps {
            lines_start_at1: args
                .get("linesStartAt1")
                .and_then(Value::as_bool)
                .unwrap_or(true),
            supports_variable_type: args
                .get("supportsVariableType")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            uri_paths: args.get("pathFormat").and_then(Value::as_str) == Some("uri"),
        };
        Ok(Some(capabilities()))
    }

    /// `launch` (`attach` false) and `attach`.
    pub(super) fn launch(&mut self, args: &Value, attach: bool) -> Reply {
        if self.link.is_some() {
            return Err(Failure("already launched or attached".into()));
        }
        let config = LaunchConfig::parse(args, attach)?;
        let target = config.target(&*self.env).map_err(|e| match e.hint() {
            Some(h) => Failure(format!("{e} ({h})")),
            None => Failure(e.to_string()),
        })?;
        let (session, started_here) = reach_session(&target)?;
        let session = Arc::new(session);
        // Subscribe before asking anything, so no event falls between.
        let subscription = session.subscribe();
        let tx = self.inputs.clone();
        std::thread::Builder::new()
            .name("dap-session-events".into())
            .spawn(move || {
                loop {
                    match subscription.recv_timeout(Duration::from_secs(3600)) {
                        Ok(Some(item)) => {
                            if tx.send(Input::Session(item)).is_err() {
                                return;
                            }
                        }
                        Ok(None) => {}
                        Err(_) => {
                            let _ = tx.send(Input::SessionGone);
                            return;
                        }
                    }
                }
            })?;
        self.link = Some(Link {
            session,
            started_here,
            listener_was_wanted: false,
            session_allows_writes: false,
        });
        let status = self.request::<cmd::Status>(&Default::default())?;
        if let Some(link) = self.link.as_mut() {
            link.listener_was_wanted = status.listener.wanted;
            link.session_allows_writes = status.allow_writes;
        }
        // The session's debugger settings, before anything runs: a launched program and the
        // programs caught later are attached with them.
        if let Some(on) = config.system_debugging {
            let args = ConfigureArgs {
                settings: Some(SettingsArgs {
                    system_debugging: Some(on),
                    ..SettingsArgs::default()
                }),
                ..ConfigureArgs::default()
            };
            self.request::<cmd::Configure>(&args)?;
        }
        self.sources = Sources::index(&config.source_roots);
        let system = if status.system.url.is_empty() {
            "the system"
        } else {
            &status.system.url
        };
        let how = if started_here { "started" } else { "joined" };
        let mut notes = vec![format!("abapdbg: {how} the session of {system}")];
        if let Some(on) = config.system_debugging {
            notes.push(format!(
                "abapdbg: system debugging {}",
                if on { "on" } else { "off" }
            ));
        }
        if config.allow_writes && !self.link()?.session_allows_writes {
            notes.push(
                "abapdbg: this session was started without writes: setVariable and goto will be \
                 refused (end it with 'abapdbg shutdown' and launch again)"
                    .into(),
            );
        }
        for note in notes {
            self.defer(
                "output",
                json!({"category": "console", "output": format!("{note}\n")}),
            );
        }
        self.config = Some(config);
        self.defer("initialized", json!({}));
        Ok(None)
    }

    pub(super) fn configuration_done(&mut self) -> Reply {
        let Some(config) = self.config.clone() else {
            return Err(Failure("send 'launch' or 'attach' first".into()));
        };
        if self.configured {
            return Ok(None);
        }
        self.configured = true;
        match &config.mode {
            Mode::Launch(program) => {
                let session = self.link()?.session.clone();
                let program = program.clone();
                let tx = self.inputs.clone();
                self.run_pending = true;
                std::thread::Builder::new()
                    .name("dap-run".into())
                    .spawn(move || {
                        let _ = tx.send(Input::RunDone(launch_run(&session, &program)));
                    })?;
            }
            Mode::Attach => {
                self.request::<cmd::Listen>(&ListenArgs {
                    take_over: config.take_over,
                })?;
                // Programs already stopped in this session are shown at once.
                let threads = self.request::<cmd::Threads>(&Default::default())?;
                for t in threads.threads.iter().filter(|t| !t.running) {
                    self.threads_seen.insert(t.thread);
                    self.defer(
                        "stopped",
                        json!({"reason": "entry", "threadId": t.thread, "allThreadsStopped": false,
                               "description": "stopped before the adapter attached"}),
                    );
                }
            }
        }
        Ok(None)
    }

    /// The launched program answered: its output, then the end of the debug session.
    pub(super) fn on_run_done(&mut self, result: Result<RunAnswer, ClientError>) {
        self.run_pending = false;
        let code = match result {
            Ok(answer) => {
                let (text, ok) = match &answer {
                    RunAnswer::Run(run) => (run.output.clone(), true),
                    RunAnswer::Test(test) => (test_summary(test), test.ok),
                };
                if !text.is_empty() {
                    let text = if text.ends_with('\n') {
                        text
                    } else {
                        format!("{text}\n")
                    };
                    self.emit("output", json!({"category": "stdout", "output": text}));
                }
                if ok { 0 } else { 1 }
            }
            Err(e) => {
                self.emit(
                    "output",
                    json!({"category": "stderr", "output": format!("{}\n", explain(&e))}),
                );
                1
            }
        };
        self.emit("exited", json!({ "exitCode": code }));
        self.terminated();
    }
}

/// Runs the launched program (`run` or `test`), answered when it ends.
fn launch_run(session: &Session, program: &Program) -> Result<RunAnswer, ClientError> {
    match program {
        Program::Class(c) => session
            .call_within::<cmd::Run>(
                &RunArgs {
                    class: Some(c.clone()),
                    program: None,
                },
                RUN_LIMIT,
            )
            .map(RunAnswer::Run),
        Program::Report(r) => session
            .call_within::<cmd::Run>(
                &RunArgs {
                    class: None,
                    program: Some(r.clone()),
                },
                RUN_LIMIT,
            )
            .map(RunAnswer::Run),
        Program::Test { class, method } => session
            .call_within::<cmd::Test>(
                &TestArgs {
                    class: Some(class.clone()),
                    program: None,
                    method: method.clone(),
                },
                RUN_LIMIT,
            )
            .map(RunAnswer::Test),
    }
}

/// How long `launch` keeps trying while a session of the system is ending (one that another
/// debug session just shut down still holds the system for a moment).
const ENDING_SESSION_WAIT: Duration = Duration::from_secs(15);

/// The running session of `target`, or one started now (then `true`).
fn reach_session(target: &client::Target) -> Result<(Session, bool), Failure> {
    let deadline = Instant::now() + ENDING_SESSION_WAIT;
    loop {
        match Session::connect(target) {
            Ok(s) => {
                s.attend();
                return Ok((s, false));
            }
            Err(ClientError::NoSession { .. }) => {}
            Err(e) => return Err(Failure(explain(&e))),
        }
        match Session::connect_or_start(target) {
            Ok(s) => {
                s.attend();
                return Ok((s, true));
            }
            // Nothing to log on with: no session will ever start, waiting cannot help.
            Err(ClientError::Start(reason)) if reason.contains("no password") => {
                return Err(Failure(format!(
                    "auth.credentials_unavailable: {reason} (put \"password\" in the launch \
                     configuration, or set ABAPDBG_PASSWORD, or password_command in the profile)"
                )));
            }
            Err(ClientError::Start(_)) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(e) => return Err(Failure(explain(&e))),
        }
    }
}

/// The lines a unit test result prints: totals, then each failed method with its alerts.
fn test_summary(result: &TestResult) -> String {
    let mut out = format!(
        "{}: {} passed, {} failed\n",
        result.object, result.passed, result.failed
    );
    for class in &result.classes {
        for method in class.methods.iter().filter(|m| !m.passed) {
            out.push_str(&format!("  {}=>{}\n", class.name, method.name));
            for alert in &method.alerts {
                out.push_str(&format!("    {}\n", alert.title));
            }
        }
    }
    out
}

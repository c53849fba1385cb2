//! The debugger operations, one method per ADT call (adt-wire.md §2).

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use reqwest::Method;

use crate::codec::{self, CodecError};
use crate::codec::{ASX_CHILD_VARIABLES, ASX_VARIABLES};
use crate::config::{Config, SessionMode};
use crate::error::{AdtError, ErrorClass};
use crate::transport::{Answer, Call, Session, Wait, encode, query};
use crate::types::{
    ActionResult, AttachInfo, BatchAnswer, BatchCall, BreakpointDetail, BreakpointResult,
    BreakpointScope, BreakpointSpec, ChildVariables, Debuggee, DebuggerAction, DebuggerSettings,
    Identity, MemorySizes, Stack, StepDetail, StepInfo, StepInspection, StepKind, StepOutcome,
    SyncScope, UnitRunResult, Variable, Watchpoint,
};

const DEBUGGER: &str = "/sap/bc/adt/debugger";
const XML: &str = "application/xml";
const MEMORY_SIZES: &str = "application/vnd.sap.adt.debugger.memory.sizes.v1+xml";
const AUNIT_CONFIG: &str = "application/vnd.sap.adt.abapunit.testruns.config.v4+xml";
const AUNIT_RESULT: &str =
    "application/vnd.sap.adt.abapunit.testruns.result.v2+xml, application/xml;q=0.9";
/// Added to the listener's server-side timeout before we give up on the poll ourselves.
const LISTEN_MARGIN: Duration = Duration::from_secs(30);

/// A client for one HTTP session. Cheap to clone; clones share the session.
#[derive(Debug, Clone)]
pub struct Client {
    session: Arc<Session>,
    forms: Arc<Forms>,
}

/// What this system turned out to support, learnt on first use (release differences).
#[derive(Debug, Default)]
struct Forms {
    /// The stack: 0 not tried, 1 `GET /stack` works, 2 only the old `POST ?method=getStack`.
    stack: AtomicU8,
    /// The frame switch: 0 not tried, 1 `PUT <stackUri>`, 2 only `POST ?method=setStackPosition`.
    frame: AtomicU8,
    /// The batch endpoint: 0 not tried, 1 served, 2 missing (single calls instead).
    batch: AtomicU8,
}

const UNKNOWN: u8 = 0;
const NEW_FORM: u8 = 1;
const OLD_FORM: u8 = 2;

/// A 404/405 that says "this resource or method does not exist here" (not a 404 that carries
/// a debugger state such as `noSessionAttached`).
fn missing_resource(e: &AdtError) -> bool {
    match e.http_status() {
        Some(405) => true,
        Some(404) => e.class() == ErrorClass::NotFound,
        _ => false,
    }
}

fn decode<T>(
    operation: &str,
    answer: &Answer,
    parsed: Result<T, CodecError>,
) -> Result<T, AdtError> {
    parsed.map_err(|e| AdtError::unexpected(operation, Some(answer.status), e.0, &answer.body))
}

fn identity_query(identity: &Identity) -> Vec<(&'static str, &str)> {
    vec![
        ("debuggingMode", "user"),
        ("requestUser", identity.user.as_str()),
        ("terminalId", identity.terminal_id.as_str()),
        ("ideId", identity.ide_id.as_str()),
    ]
}

impl Client {
    /// A client with its own connection pool and cookie jar. No request is sent yet.
    pub fn new(config: &Config, mode: SessionMode) -> Result<Client, AdtError> {
        Ok(Client {
            session: Arc::new(Session::new(config, mode)?),
            forms: Arc::new(Forms::default()),
        })
    }

    /// A stateful client that rejoins the user context `context_id` (recorded with
    /// [`Client::context_id`] by an earlier process), e.g. to release a debuggee it left stopped.
    pub fn resume(config: &Config, context_id: &str) -> Result<Client, AdtError> {
        let client = Client::new(config, SessionMode::Stateful)?;
        client.session.set_context_id(context_id);
        Ok(client)
    }

    /// Send every later request of this client to the application server instance the
    /// debuggee runs on (`saplb: <instance>`, the way cloud systems route an attach behind a
    /// load balancer, adt-wire.md §1.3): call it on a fresh stateful client with
    /// [`Debuggee::instance_name`] before attaching. `""` stops routing. Systems without such
    /// a balancer ignore the header.
    pub fn route_to_instance(&self, instance_name: &str) -> Result<(), AdtError> {
        self.session.set_instance(instance_name)
    }

    /// Pins this session's user context after an attach: later answers cannot replace or
    /// drop its `sap-contextid`. True if there was one.
    pub fn pin_session(&self) -> bool {
        self.session.pin_context()
    }

    /// The id of this client's user context, once the server created one.
    pub fn context_id(&self) -> Option<String> {
        self.session.context_id()
    }

    /// Log on: fetch the CSRF token. Fails with [`ErrorClass::NotAuthorized`] on bad
    /// credentials and [`ErrorClass::Transport`] when the system cannot be reached.
    pub async fn logon(&self) -> Result<(), AdtError> {
        self.session.fetch_csrf(self.session.mode()).await
    }

    async fn call(
        &self,
        operation: &str,
        method: Method,
        target: String,
        accept: &str,
        body: Option<(&str, String)>,
        wait: Wait,
    ) -> Result<Answer, AdtError> {
        self.session
            .send(&Call {
                operation,
                method,
                target,
                accept,
                body,
                wait,
                idempotent: idempotent(operation),
            })
            .await
    }

    /// A call whose answer a codec reads; an answer it cannot read is `UnexpectedResponse`.
    #[allow(clippy::too_many_arguments)] // the parts of one request, named where it is made
    async fn read<T>(
        &self,
        operation: &str,
        method: Method,
        target: String,
        accept: &str,
        body: Option<(&str, String)>,
        wait: Wait,
        parse: fn(&str) -> Result<T, CodecError>,
    ) -> Result<T, AdtError> {
        let answer = self
            .call(operation, method, target, accept, body, wait)
            .await?;
        decode(operation, &answer, parse(&answer.body))
    }

    async fn debugger(
        &self,
        method: &str,
        extra: &[(&str, &str)],
        wait: Wait,
    ) -> Result<Answer, AdtError> {
        let mut pairs = vec![("method", method)];
        pairs.extend_from_slice(extra);
        self.call(
            method,
            Method::POST,
            format!("{DEBUGGER}{}", query(&pairs)),
            XML,
            None,
            wait,
        )
        .await
    }

    // ---- listener -------------------------------------------------------------------------

    /// Long-poll for a stopped session of `identity.user`. `Ok(None)` when the server's
    /// `timeout_secs` passed without a stop (poll again). Fails with
    /// [`ErrorClass::ListenerConflict`] when another debugger listens for the user.
    pub async fn listen(
        &self,
        identity: &Identity,
        timeout_secs: u32,
    ) -> Result<Option<Debuggee>, AdtError> {
        self.listen_opts(identity, timeout_secs, true).await
    }

    /// Like [`Client::listen`]; with `check_conflict` false an existing listener of another
    /// debugger for the same user is taken over (that one's poll ends with a conflict
    /// notification).
    pub async fn listen_opts(
        &self,
        identity: &Identity,
        timeout_secs: u32,
        check_conflict: bool,
    ) -> Result<Option<Debuggee>, AdtError> {
        let secs = timeout_secs.to_string();
        let mut pairs = identity_query(identity);
        pairs.extend([
            ("timeout", secs.as_str()),
            (
                "checkConflict",
                if check_conflict { "true" } else { "false" },
            ),
            ("isNotifiedOnConflict", "true"),
        ]);
        let answer = self
            .call(
                "listen",
                Method::POST,
                format!("{DEBUGGER}/listeners{}", query(&pairs)),
                "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.debugger.DebuggeesList, */*",
                None,
                Wait::Exactly(Duration::from_secs(u64::from(timeout_secs)) + LISTEN_MARGIN),
            )
            .await?;
        if answer.body.contains("Connection timed out")
            && !answer.body.trim_start().starts_with('<')
        {
            return Ok(None); // an ICM timeout page: same as the server's own timeout
        }
        decode("listen", &answer, codec::parse_debuggee(&answer.body))
    }

    /// Whether our listener is registered (`GET …/listeners?checkConflict=false`, §3.2).
    pub async fn listener_exists(&self, identity: &Identity) -> Result<bool, AdtError> {
        let mut pairs = identity_query(identity);
        pairs.push(("checkConflict", "false"));
        match self
            .call(
                "listener check",
                Method::GET,
                format!("{DEBUGGER}/listeners{}", query(&pairs)),
                "*/*",
                None,
                Wait::Normal,
            )
            .await
        {
            Ok(_) => Ok(true),
            Err(e) if e.class() == ErrorClass::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Delete our listener; a waiting poll ends shortly after (§3.3).
    pub async fn stop_listener(&self, identity: &Identity) -> Result<(), AdtError> {
        let mut pairs = identity_query(identity);
        pairs.extend([("checkConflict", "false"), ("notifyConflict", "true")]);
        self.call(
            "stop listener",
            Method::DELETE,
            format!("{DEBUGGER}/listeners{}", query(&pairs)),
            "*/*",
            None,
            Wait::Normal,
        )
        .await
        .map(|_| ())
    }

    // ---- breakpoints ----------------------------------------------------------------------

    /// Set external line breakpoints. With [`SyncScope::Partial`] only that object's
    /// breakpoints of this ide are replaced; an empty `specs` removes them.
    pub async fn set_breakpoints(
        &self,
        identity: &Identity,
        scope: &SyncScope,
        specs: &[BreakpointSpec],
    ) -> Result<Vec<BreakpointResult>, AdtError> {
        let details = self
            .set_breakpoints_detailed(identity, BreakpointScope::External, scope, specs)
            .await?;
        Ok(details.iter().map(BreakpointDetail::result).collect())
    }

    /// Set breakpoints in either scope and answer every detail of the verdicts (`errorKind`,
    /// object type/name). [`BreakpointScope::Debugger`] needs this (attached) session.
    pub async fn set_breakpoints_detailed(
        &self,
        identity: &Identity,
        where_: BreakpointScope,
        scope: &SyncScope,
        specs: &[BreakpointSpec],
    ) -> Result<Vec<BreakpointDetail>, AdtError> {
        let body = codec::breakpoints_request_in(where_, identity, scope, specs);
        let answer = self
            .call(
                "set breakpoints",
                Method::POST,
                format!("{DEBUGGER}/breakpoints"),
                XML,
                Some((XML, body)),
                Wait::Normal,
            )
            .await?;
        decode(
            "set breakpoints",
            &answer,
            codec::parse_breakpoints_detailed(&answer.body),
        )
    }

    /// Delete one breakpoint of either scope by its server id (§4.5).
    pub async fn delete_breakpoint_in(
        &self,
        identity: &Identity,
        where_: BreakpointScope,
        id: &str,
    ) -> Result<(), AdtError> {
        let mut pairs = vec![("scope", where_.wire_name())];
        pairs.extend(identity_query(identity));
        self.call(
            "delete breakpoint",
            Method::DELETE,
            format!("{DEBUGGER}/breakpoints/{}{}", encode(id), query(&pairs)),
            XML,
            None,
            Wait::Normal,
        )
        .await
        .map(|_| ())
    }

    /// Delete one external breakpoint by its server id (§4.5).
    pub async fn delete_breakpoint(&self, identity: &Identity, id: &str) -> Result<(), AdtError> {
        let mut pairs = vec![("scope", "external")];
        pairs.extend(identity_query(identity));
        self.call(
            "delete breakpoint",
            Method::DELETE,
            format!("{DEBUGGER}/breakpoints/{}{}", encode(id), query(&pairs)),
            XML,
            None,
            Wait::Normal,
        )
        .await
        .map(|_| ())
    }

    // ---- attach and steps -----------------------------------------------------------------

    /// Attach the debuggee the listener reported. Use a fresh [`SessionMode::Stateful`]
    /// client per debuggee: a session that attached once cannot attach again.
    pub async fn attach(
        &self,
        identity: &Identity,
        debuggee_id: &str,
    ) -> Result<AttachInfo, AdtError> {
        let answer = self
            .debugger(
                "attach",
                &[
                    ("debuggeeId", debuggee_id),
                    ("debuggingMode", "user"),
                    ("requestUser", identity.user.as_str()),
                    ("dynproDebugging", "false"),
                ],
                Wait::Normal,
            )
            .await?;
        decode("attach", &answer, codec::parse_attach(&answer.body))
    }

    /// Step or continue. The program's end is [`StepOutcome::Ended`], not an error.
    pub async fn step(&self, kind: StepKind) -> Result<StepOutcome, AdtError> {
        let (method, wait) = match kind {
            StepKind::Into => ("stepInto", Wait::Unbounded),
            StepKind::Over => ("stepOver", Wait::Unbounded),
            StepKind::Return => ("stepReturn", Wait::Unbounded),
            StepKind::Continue => ("stepContinue", Wait::Unbounded),
        };
        self.step_answer(method, self.debugger(method, &[], wait).await)
    }

    /// Step or continue, with the watchpoints that fired. The program's end is
    /// [`StepOutcome::Ended`], not an error.
    pub async fn step_detailed(&self, kind: StepKind) -> Result<StepDetail, AdtError> {
        let method = codec::step_method(kind);
        match self.step_info(method, self.debugger(method, &[], Wait::Unbounded).await)? {
            Some(info) => Ok(StepDetail {
                outcome: StepOutcome::Stopped {
                    reached_breakpoints: info.reached_breakpoints,
                },
                reached_watchpoints: info.reached_watchpoints,
            }),
            None => Ok(StepDetail {
                outcome: StepOutcome::Ended,
                reached_watchpoints: Vec::new(),
            }),
        }
    }

    /// Step or continue and answer the whole `dbg:step` (`None`: the program ended).
    pub async fn step_info_of(&self, kind: StepKind) -> Result<Option<StepInfo>, AdtError> {
        let method = codec::step_method(kind);
        self.step_info(method, self.debugger(method, &[], Wait::Unbounded).await)
    }

    fn step_info(
        &self,
        method: &str,
        answer: Result<Answer, AdtError>,
    ) -> Result<Option<StepInfo>, AdtError> {
        match answer {
            Ok(a) => decode(method, &a, codec::parse_step_info(&a.body)).map(Some),
            Err(e) if e.class() == ErrorClass::DebuggeeEnded => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The actions the attach or step answer advertised are in [`StepInfo::actions`]; this
    /// reads them from a raw `dbg:attach`/`dbg:step` document.
    pub fn actions_of(document: &str) -> Result<Vec<DebuggerAction>, AdtError> {
        codec::parse_actions(document)
            .map_err(|e| AdtError::unexpected("actions", None, e.0, document))
    }

    /// Run to a line (`stepRunToLine`) or move the execution point there (`stepJumpToLine`).
    /// `uri` is an object source URI without fragment.
    pub async fn step_to_line(
        &self,
        jump: bool,
        uri: &str,
        line: u32,
    ) -> Result<StepOutcome, AdtError> {
        let method = if jump {
            "stepJumpToLine"
        } else {
            "stepRunToLine"
        };
        let target = format!("{uri}#start={line}");
        let answer = self
            .debugger(method, &[("uri", target.as_str())], Wait::Unbounded)
            .await;
        self.step_answer(method, answer)
    }

    fn step_answer(
        &self,
        method: &str,
        answer: Result<Answer, AdtError>,
    ) -> Result<StepOutcome, AdtError> {
        match answer {
            Ok(a) => Ok(StepOutcome::Stopped {
                reached_breakpoints: decode(method, &a, codec::parse_step(&a.body))?,
            }),
            Err(e) if e.class() == ErrorClass::DebuggeeEnded => Ok(StepOutcome::Ended),
            Err(e) => Err(e),
        }
    }

    /// Abort the debuggee. The 500 `terminateDebuggee` answer of on-premise systems is
    /// success (§7.4).
    pub async fn terminate(&self) -> Result<(), AdtError> {
        match self.debugger("terminateDebuggee", &[], Wait::Normal).await {
            Ok(_) => Ok(()),
            Err(e) if e.class() == ErrorClass::Terminated => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Abort a stopped program by its debuggee id, from a fresh stateful client that has not
    /// attached it: how a debugger whose session was lost releases the program (systems that
    /// know the session still holds it refuse with `invalidDebuggee`).
    pub async fn terminate_debuggee(&self, debuggee_id: &str) -> Result<(), AdtError> {
        let extra = [("debuggeeId", debuggee_id)];
        match self
            .debugger("terminateDebuggee", &extra, Wait::Normal)
            .await
        {
            Ok(_) => Ok(()),
            Err(e) if e.class() == ErrorClass::Terminated => Ok(()),
            Err(e) => Err(e),
        }
    }

    // ---- stack and variables --------------------------------------------------------------

    /// The call stack, innermost first: `GET /stack?method=getStack…`, falling back to the
    /// old `POST ?method=getStack…` on systems without the resource (750); the form that
    /// works is remembered for this client.
    pub async fn stack(&self) -> Result<Stack, AdtError> {
        if self.forms.stack.load(Ordering::Relaxed) == OLD_FORM {
            return self.stack_old_form().await;
        }
        let answer = self
            .call(
                "getStack",
                Method::GET,
                format!("{DEBUGGER}/stack?method=getStack&emode=_&semanticURIs=true"),
                XML,
                None,
                Wait::Normal,
            )
            .await;
        match answer {
            Ok(answer) => {
                self.forms.stack.store(NEW_FORM, Ordering::Relaxed);
                decode("getStack", &answer, codec::parse_stack(&answer.body))
            }
            Err(e)
                if missing_resource(&e) && self.forms.stack.load(Ordering::Relaxed) == UNKNOWN =>
            {
                let stack = self.stack_old_form().await?;
                self.forms.stack.store(OLD_FORM, Ordering::Relaxed);
                Ok(stack)
            }
            Err(e) => Err(e),
        }
    }

    async fn stack_old_form(&self) -> Result<Stack, AdtError> {
        let answer = self
            .debugger(
                "getStack",
                &[("emode", "_"), ("semanticURIs", "true")],
                Wait::Normal,
            )
            .await?;
        decode("getStack", &answer, codec::parse_stack(&answer.body))
    }

    /// Select a stack frame: `PUT <stackUri>` (§8.3), falling back to the older
    /// `POST ?method=setStackPosition&position=N` when the server answers 404/405 (the form
    /// that works is remembered). Later variable reads answer in that frame's context; the
    /// next step returns to the top frame.
    pub async fn set_stack_position(
        &self,
        entry: &crate::types::StackEntry,
    ) -> Result<(), AdtError> {
        let position = entry.position.to_string();
        let old_form = || async {
            self.debugger(
                "setStackPosition",
                &[("position", position.as_str())],
                Wait::Normal,
            )
            .await
            .map(|_| ())
        };
        if self.forms.frame.load(Ordering::Relaxed) == OLD_FORM {
            return old_form().await;
        }
        let target = if entry.stack_uri.starts_with('/') && !entry.stack_uri.contains(['\r', '\n'])
        {
            entry.stack_uri.clone()
        } else {
            let ty = if entry.stack_type.is_empty() {
                "ABAP"
            } else {
                entry.stack_type.as_str()
            };
            format!(
                "{DEBUGGER}/stack/type/{}/position/{}",
                encode(ty),
                entry.position
            )
        };
        match self
            .call(
                "setStackPosition",
                Method::PUT,
                target,
                XML,
                None,
                Wait::Normal,
            )
            .await
        {
            Ok(_) => {
                self.forms.frame.store(NEW_FORM, Ordering::Relaxed);
                Ok(())
            }
            Err(e)
                if matches!(e.http_status(), Some(404 | 405))
                    && self.forms.frame.load(Ordering::Relaxed) == UNKNOWN
                    && !matches!(
                        e.class(),
                        ErrorClass::NoSessionAttached | ErrorClass::DebuggeeEnded
                    ) =>
            {
                old_form().await?;
                self.forms.frame.store(OLD_FORM, Ordering::Relaxed);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Assign a value to a variable (§9.7); answers the system's echo of the new value.
    pub async fn set_variable_value(&self, id: &str, value: &str) -> Result<String, AdtError> {
        let target = format!(
            "{DEBUGGER}{}",
            query(&[("method", "setVariableValue"), ("variableName", id)])
        );
        let answer = self
            .call(
                "setVariableValue",
                Method::POST,
                target,
                "text/plain",
                Some(("text/plain", value.to_string())),
                Wait::Normal,
            )
            .await?;
        Ok(answer.body)
    }

    /// Children of these parents (`@ROOT`, scope ids, structures, objects), with values.
    pub async fn child_variables(&self, parents: &[String]) -> Result<ChildVariables, AdtError> {
        let answer = self
            .call(
                "getChildVariables",
                Method::POST,
                format!("{DEBUGGER}?method=getChildVariables"),
                ASX_CHILD_VARIABLES,
                Some((ASX_CHILD_VARIABLES, codec::child_variables_request(parents))),
                Wait::Normal,
            )
            .await?;
        decode(
            "getChildVariables",
            &answer,
            codec::parse_child_variables(&answer.body),
        )
    }

    /// These variables by id; unknown ids are left out by the server.
    pub async fn variables(&self, ids: &[String]) -> Result<Vec<Variable>, AdtError> {
        self.read(
            "getVariables",
            Method::POST,
            format!("{DEBUGGER}?method=getVariables"),
            ASX_VARIABLES,
            Some((ASX_VARIABLES, codec::variables_request(ids))),
            Wait::Normal,
            codec::parse_variables,
        )
        .await
    }

    // ---- settings, actions, memory ------------------------------------------------------

    /// Save the debugger settings of the attached session (§6.1); answers the server's echo
    /// (or what was sent, when the echo is empty).
    pub async fn settings(
        &self,
        settings: &DebuggerSettings,
    ) -> Result<DebuggerSettings, AdtError> {
        let answer = self
            .call(
                "setDebuggerSettings",
                Method::POST,
                format!("{DEBUGGER}?method=setDebuggerSettings"),
                XML,
                Some((XML, codec::settings_request(settings))),
                Wait::Normal,
            )
            .await?;
        if answer.body.trim().is_empty() {
            return Ok(*settings);
        }
        decode(
            "setDebuggerSettings",
            &answer,
            codec::parse_settings(&answer.body),
        )
    }

    /// Run a debugger action by name (`POST /debugger/actions?action=…[&value=…]`, §6.2), e.g.
    /// `memorySnapshot`, `commitWork`, `updateDebugging` with `Some("true")`.
    pub async fn action(&self, name: &str, value: Option<&str>) -> Result<ActionResult, AdtError> {
        let mut pairs = vec![("action", name)];
        if let Some(v) = value {
            pairs.push(("value", v));
        }
        let answer = self
            .call(
                "debugger action",
                Method::POST,
                format!("{DEBUGGER}/actions{}", query(&pairs)),
                XML,
                None,
                Wait::Normal,
            )
            .await?;
        decode(
            "debugger action",
            &answer,
            codec::parse_action_result(&answer.body),
        )
    }

    /// Memory use of the debuggee (`GET /debugger/memorysizes?includeAbap=true`, §11).
    pub async fn memory_sizes(&self) -> Result<MemorySizes, AdtError> {
        self.read(
            "memory sizes",
            Method::GET,
            format!("{DEBUGGER}/memorysizes?includeAbap=true"),
            MEMORY_SIZES,
            None,
            Wait::Normal,
            codec::parse_memory_sizes,
        )
        .await
    }

    // ---- watchpoints ----------------------------------------------------------------------

    /// Watch a variable of the current frame (§10); with a condition it stops only when the
    /// condition holds. Answers the new watchpoint.
    pub async fn create_watchpoint(
        &self,
        variable: &str,
        condition: Option<&str>,
    ) -> Result<Vec<Watchpoint>, AdtError> {
        let mut pairs = vec![("variableName", variable)];
        if let Some(c) = condition {
            pairs.push(("condition", c));
        }
        self.read(
            "create watchpoint",
            Method::POST,
            format!("{DEBUGGER}/watchpoints{}", query(&pairs)),
            XML,
            None,
            Wait::Normal,
            codec::parse_watchpoints,
        )
        .await
    }

    /// Every watchpoint of the attached session.
    pub async fn watchpoints(&self) -> Result<Vec<Watchpoint>, AdtError> {
        self.read(
            "watchpoints",
            Method::GET,
            format!("{DEBUGGER}/watchpoints"),
            XML,
            None,
            Wait::Normal,
            codec::parse_watchpoints,
        )
        .await
    }

    /// Change a watchpoint's condition and/or activity. The server answers it under a new id.
    pub async fn modify_watchpoint(
        &self,
        id: &str,
        condition: Option<&str>,
        active: Option<bool>,
    ) -> Result<Vec<Watchpoint>, AdtError> {
        let mut pairs = Vec::new();
        if let Some(c) = condition {
            pairs.push(("condition", c));
        }
        if let Some(a) = active {
            pairs.push(("active", if a { "true" } else { "false" }));
        }
        self.read(
            "modify watchpoint",
            Method::PUT,
            format!("{DEBUGGER}/watchpoints/{}{}", encode(id), query(&pairs)),
            XML,
            None,
            Wait::Normal,
            codec::parse_watchpoints,
        )
        .await
    }

    /// Remove a watchpoint.
    pub async fn delete_watchpoint(&self, id: &str) -> Result<(), AdtError> {
        self.call(
            "delete watchpoint",
            Method::DELETE,
            format!("{DEBUGGER}/watchpoints/{}", encode(id)),
            XML,
            None,
            Wait::Normal,
        )
        .await
        .map(|_| ())
    }

    // ---- batch ----------------------------------------------------------------------------

    /// Send several debugger requests in one round trip (`POST /debugger/batch`, §12). The
    /// inner requests run in order in this session; each answer is its 2xx answer or its
    /// typed error. On systems without the batch endpoint (404/405) the calls are sent one by
    /// one instead, and that is remembered for this client.
    /// Whether the system serves `/debugger/batch`, once a batch was sent (`None` before).
    pub fn batch_served(&self) -> Option<bool> {
        match self.forms.batch.load(Ordering::Relaxed) {
            NEW_FORM => Some(true),
            OLD_FORM => Some(false),
            _ => None,
        }
    }

    pub async fn batch(
        &self,
        calls: Vec<BatchCall>,
    ) -> Result<Vec<Result<BatchAnswer, AdtError>>, AdtError> {
        if calls.is_empty() {
            return Ok(Vec::new());
        }
        if self.forms.batch.load(Ordering::Relaxed) == OLD_FORM {
            return self.batch_one_by_one(&calls).await;
        }
        let wait = if calls.iter().any(blocks) {
            Wait::Unbounded
        } else {
            Wait::Normal
        };
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x5eed);
        let boundary = codec::batch_boundary(&calls, seed);
        let content_type = format!("multipart/mixed; boundary={boundary}");
        let answer = self
            .call(
                "batch",
                Method::POST,
                format!("{DEBUGGER}/batch"),
                "multipart/mixed",
                Some((
                    content_type.as_str(),
                    codec::batch_request(&boundary, &calls),
                )),
                wait,
            )
            .await;
        let answer = match answer {
            Ok(a) => a,
            Err(e)
                if missing_resource(&e) && self.forms.batch.load(Ordering::Relaxed) == UNKNOWN =>
            {
                tracing::debug!("batch: not served by this system ({e}); single calls instead");
                self.forms.batch.store(OLD_FORM, Ordering::Relaxed);
                return self.batch_one_by_one(&calls).await;
            }
            Err(e) => return Err(e),
        };
        self.forms.batch.store(NEW_FORM, Ordering::Relaxed);
        // The parts' bodies are ranges of this one body.
        let whole = Arc::new(answer.body);
        let parts =
            codec::parse_batch_response(answer.content_type.as_deref().unwrap_or(""), &whole)
                .map_err(|e| AdtError::unexpected("batch", Some(answer.status), e.0, &whole))?;
        let mut parts = parts.into_iter();
        Ok(calls
            .iter()
            .enumerate()
            .map(|(i, call)| {
                let operation = format!("batch part {} ({} {})", i + 1, call.method, call.target);
                match parts.next() {
                    Some(Ok(part)) if (200..300).contains(&part.status) => Ok(part),
                    Some(Ok(part)) => Err(AdtError::from_response(
                        &operation,
                        part.status,
                        false,
                        &part.body,
                    )),
                    Some(Err(e)) => Err(AdtError::unexpected(
                        &operation,
                        Some(answer.status),
                        e.0,
                        "",
                    )),
                    None => Err(AdtError::unexpected(
                        &operation,
                        Some(answer.status),
                        "the batch answer has no part for this request",
                        "",
                    )),
                }
            })
            .collect())
    }

    async fn batch_one_by_one(
        &self,
        calls: &[BatchCall],
    ) -> Result<Vec<Result<BatchAnswer, AdtError>>, AdtError> {
        let mut out = Vec::with_capacity(calls.len());
        for call in calls {
            let method = Method::from_bytes(call.method.as_bytes()).map_err(|_| {
                AdtError::Config(format!("'{}' is not an HTTP method", call.method))
            })?;
            let wait = if blocks(call) {
                Wait::Unbounded
            } else {
                Wait::Normal
            };
            let result = self
                .session
                .send(&Call {
                    operation: &call.method,
                    method,
                    target: call.target.clone(),
                    accept: &call.accept,
                    body: call.body.as_ref().map(|(ct, b)| (ct.as_str(), b.clone())),
                    wait,
                    idempotent: false,
                })
                .await
                .map(|a| BatchAnswer {
                    status: a.status,
                    headers: a
                        .content_type
                        .iter()
                        .map(|c| ("Content-Type".to_string(), c.clone()))
                        .collect(),
                    content_type: a.content_type,
                    body: a.body.into(),
                });
            match result {
                // Nothing after a lost request can be trusted to run in order.
                Err(e @ (AdtError::Transport { .. } | AdtError::Timeout { .. })) => return Err(e),
                other => out.push(other),
            }
        }
        Ok(out)
    }

    /// Step, then read the stack and the children of `parents` (e.g. `@ROOT` or the scope
    /// ids), in one HTTP request through the batch endpoint. `stack`/`variables` are `None`
    /// when the program ended. Without a batch endpoint: three calls (remembered).
    pub async fn step_and_inspect(
        &self,
        kind: StepKind,
        parents: &[String],
    ) -> Result<StepInspection, AdtError> {
        if self.forms.batch.load(Ordering::Relaxed) != OLD_FORM {
            let calls = vec![
                BatchCall::step(kind),
                BatchCall::stack(),
                BatchCall::child_variables(parents),
            ];
            // Falls back to single calls by itself on systems without the endpoint.
            return inspection(kind, self.batch(calls).await?);
        }
        let detail = self.step_detailed(kind).await?;
        let reached_breakpoints = match &detail.outcome {
            StepOutcome::Stopped {
                reached_breakpoints,
            } => reached_breakpoints.clone(),
            StepOutcome::Ended => {
                return Ok(StepInspection {
                    outcome: StepOutcome::Ended,
                    reached_breakpoints: Vec::new(),
                    stack: None,
                    variables: None,
                });
            }
        };
        let stack = self.stack().await?;
        // As in a batch: a refused read of the variables does not undo the stop.
        let variables = match self.child_variables(parents).await {
            Ok(v) => Some(v),
            Err(e @ (AdtError::Transport { .. } | AdtError::Timeout { .. })) => return Err(e),
            Err(e) => {
                tracing::debug!("the variables read with the step were refused: {e}");
                None
            }
        };
        Ok(StepInspection {
            outcome: detail.outcome,
            reached_breakpoints,
            stack: Some(stack),
            variables,
        })
    }

    // ---- catalogues -----------------------------------------------------------------------

    /// The resources the system announces (`GET /sap/bc/adt/discovery`): collection hrefs.
    pub async fn discovery(&self) -> Result<Vec<String>, AdtError> {
        let answer = self
            .call(
                "discovery",
                Method::GET,
                "/sap/bc/adt/discovery".to_string(),
                "application/atomsvc+xml, application/xml;q=0.9, */*;q=0.8",
                None,
                Wait::Normal,
            )
            .await?;
        decode("discovery", &answer, codec::parse_discovery(&answer.body))
    }

    /// Discovery and what follows from it: the collections, the capabilities they give and
    /// the release (read from the components feed when the document lists it; a feed that
    /// cannot be read leaves the release unknown, it does not fail discovery).
    pub async fn discover(&self) -> Result<crate::discovery::SystemDiscovery, AdtError> {
        let collections = self.discovery().await?;
        let mut found = crate::discovery::SystemDiscovery::new(collections, None);
        if found.lists_components() {
            match self.release().await {
                Ok(release) => found.release = release,
                Err(e) => tracing::debug!("the release stays unknown: {e}"),
            }
        }
        Ok(found)
    }

    /// The `SAP_BASIS` release from the software components feed (`GET /system/components`).
    pub async fn release(&self) -> Result<Option<String>, AdtError> {
        let answer = self
            .call(
                "components",
                Method::GET,
                crate::discovery::COMPONENTS.to_string(),
                "application/atom+xml;type=feed, application/xml;q=0.9",
                None,
                Wait::Normal,
            )
            .await?;
        decode(
            "components",
            &answer,
            crate::discovery::parse_components_release(&answer.body),
        )
    }

    /// This system has no batch endpoint (its discovery document says so): every batch of
    /// this client is sent one request at a time from the start, never tried first.
    pub fn without_batch(&self) {
        self.forms.batch.store(OLD_FORM, Ordering::Relaxed);
    }

    /// The statement keywords statement breakpoints accept (`GET /breakpoints/statements`).
    pub async fn statements(&self) -> Result<Vec<String>, AdtError> {
        let answer = self
            .call(
                "statements",
                Method::GET,
                format!("{DEBUGGER}/breakpoints/statements"),
                XML,
                None,
                Wait::Normal,
            )
            .await?;
        decode(
            "statements",
            &answer,
            codec::parse_named_items(&answer.body),
        )
        .map(|items| items.into_iter().map(|(n, _)| n).collect())
    }

    /// The message types message breakpoints accept, with their descriptions
    /// (`GET /breakpoints/messagetypes`).
    pub async fn message_types(&self) -> Result<Vec<(String, String)>, AdtError> {
        self.read(
            "message types",
            Method::GET,
            format!("{DEBUGGER}/breakpoints/messagetypes"),
            XML,
            None,
            Wait::Normal,
            codec::parse_named_items,
        )
        .await
    }

    // ---- triggers and sources -------------------------------------------------------------

    /// Run the ABAP Unit tests of an object (`POST /sap/bc/adt/abapunit/testruns`).
    /// `object_uri` is the object URI (`/sap/bc/adt/oo/classes/zcl_x`, a `/source/main` URI
    /// works too). `method` narrows the run to one test method, written `LTCL_CLASS=>METHOD`
    /// or just `METHOD`; the request names it in the object reference's fragment and the
    /// answer is also filtered to it. Blocks while a test is stopped in the debugger.
    pub async fn run_unit_tests(
        &self,
        object_uri: &str,
        method: Option<&str>,
    ) -> Result<UnitRunResult, AdtError> {
        let base = object_uri.split('#').next().unwrap_or(object_uri);
        let base = base.strip_suffix("/source/main").unwrap_or(base);
        let (class, meth) = match method.map(str::trim).filter(|m| !m.is_empty()) {
            None => (None, None),
            Some(m) => match m.split_once("=>").or_else(|| m.split_once("->")) {
                Some((c, m)) => (Some(c.trim().to_uppercase()), Some(m.trim().to_uppercase())),
                None => (None, Some(m.to_uppercase())),
            },
        };
        let reference = match &meth {
            None => base.to_string(),
            Some(m) => {
                let include = if base.contains("/oo/classes/") {
                    format!("{base}/includes/testclasses")
                } else {
                    format!("{base}/source/main")
                };
                match &class {
                    Some(c) => format!("{include}#testclass={c};testmethod={m}"),
                    None => format!("{include}#testmethod={m}"),
                }
            }
        };
        let answer = self
            .call(
                "ABAP Unit run",
                Method::POST,
                "/sap/bc/adt/abapunit/testruns".to_string(),
                AUNIT_RESULT,
                Some((AUNIT_CONFIG, codec::unit_run_request(&reference))),
                Wait::Unbounded,
            )
            .await?;
        let mut result = decode(
            "ABAP Unit run",
            &answer,
            codec::parse_unit_run_result(&answer.body),
        )?;
        if let Some(m) = &meth {
            for p in &mut result.programs {
                p.classes.retain(|c| {
                    class
                        .as_deref()
                        .is_none_or(|want| c.name.eq_ignore_ascii_case(want))
                });
                for c in &mut p.classes {
                    c.methods.retain(|x| x.name.eq_ignore_ascii_case(m));
                }
                p.classes.retain(|c| !c.methods.is_empty());
            }
        }
        Ok(result)
    }

    /// Run a report and answer its list output (`POST /sap/bc/adt/abapdbg/reportrun/<PROG>`).
    /// This resource exists only in the abapdbg simulator; real systems answer 404. Blocks
    /// while the report is stopped in the debugger.
    pub async fn run_report(&self, program: &str) -> Result<String, AdtError> {
        let answer = self
            .call(
                "report run",
                Method::POST,
                format!(
                    "/sap/bc/adt/abapdbg/reportrun/{}",
                    encode(&program.trim().to_uppercase())
                ),
                "text/plain",
                None,
                Wait::Unbounded,
            )
            .await?;
        Ok(answer.body)
    }

    /// Run a class implementing `if_oo_adt_classrun`; answers with its output once the run
    /// ends (which includes any time it spends stopped in the debugger).
    pub async fn classrun(&self, class: &str) -> Result<String, AdtError> {
        let answer = self
            .call(
                "classrun",
                Method::POST,
                format!("/sap/bc/adt/oo/classrun/{}", encode(&class.to_uppercase())),
                "text/plain",
                None,
                Wait::Unbounded,
            )
            .await?;
        Ok(answer.body)
    }

    /// The source text behind an object source URI (fragment ignored).
    pub async fn source(&self, uri: &str) -> Result<String, AdtError> {
        let path = uri.split('#').next().unwrap_or(uri);
        let answer = self
            .call(
                "read source",
                Method::GET,
                path.to_string(),
                "text/plain",
                None,
                Wait::Normal,
            )
            .await?;
        Ok(answer.body)
    }

    /// Repository objects matching `pattern` (`ZCL_*`), at most `max`: the quick search
    /// (`GET /sap/bc/adt/repository/informationsystem/search?operation=quickSearch`).
    pub async fn quick_search(
        &self,
        pattern: &str,
        max: u32,
    ) -> Result<Vec<crate::search::ObjectReference>, AdtError> {
        let pairs = crate::search::quick_search_query(pattern, max);
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.read(
            "quick search",
            Method::GET,
            format!("{}{}", crate::search::QUICK_SEARCH, query(&pairs)),
            "application/xml",
            None,
            Wait::Normal,
            crate::search::parse_object_references,
        )
        .await
    }

    /// The short dumps the feed lists for `filter` (`GET /sap/bc/adt/runtime/dumps`), in the
    /// feed's order.
    pub async fn dumps(
        &self,
        filter: &crate::dumps::DumpsFilter,
    ) -> Result<Vec<crate::dumps::DumpEntry>, AdtError> {
        let pairs = crate::dumps::dumps_query(filter);
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.read(
            "read dumps",
            Method::GET,
            format!("{}{}", crate::dumps::DUMPS_FEED, query(&pairs)),
            crate::dumps::FEED_TYPE,
            None,
            Wait::Normal,
            crate::dumps::parse_dumps_feed,
        )
        .await
    }

    /// One dump's document (`GET /sap/bc/adt/runtime/dump/<id>`).
    pub async fn dump(&self, id: &str) -> Result<crate::dumps::DumpDocument, AdtError> {
        self.read(
            "read dump",
            Method::GET,
            crate::dumps::dump_path(id, None),
            crate::dumps::DUMP_TYPE,
            None,
            Wait::Normal,
            crate::dumps::parse_dump,
        )
        .await
    }

    /// One dump as text (`GET /sap/bc/adt/runtime/dump/<id>/formatted`).
    pub async fn dump_formatted(&self, id: &str) -> Result<String, AdtError> {
        let answer = self
            .call(
                "read dump text",
                Method::GET,
                crate::dumps::dump_path(id, Some("formatted")),
                "text/plain",
                None,
                Wait::Normal,
            )
            .await?;
        Ok(answer.body)
    }

    /// End the server-side user context (a stateless request carrying the context cookie).
    /// Does nothing for a stateless client or one that never got a context.
    pub async fn end_session(&self) -> Result<(), AdtError> {
        if self.session.mode() != SessionMode::Stateful || !self.session.has_context() {
            return Ok(());
        }
        let call = Call {
            operation: "end session",
            method: Method::GET,
            target: "/sap/bc/adt/compatibility/graph".to_string(),
            accept: "*/*",
            body: None,
            wait: Wait::Normal,
            idempotent: true,
        };
        self.session
            .send_as(&call, SessionMode::Stateless)
            .await
            .map(|_| ())
    }
}

/// Operations sent as POST/PUT/DELETE that change nothing when repeated, so a lost connection
/// may be retried (reads of the debuggee and the absolute frame switch).
fn idempotent(operation: &str) -> bool {
    matches!(
        operation,
        "getStack" | "getChildVariables" | "getVariables" | "setStackPosition" | "stop listener"
    )
}

/// Whether a batch call may block until the program stops again (steps).
fn blocks(call: &BatchCall) -> bool {
    call.target.contains("method=step")
}

/// Read the answers of step + stack + child variables.
fn inspection(
    kind: StepKind,
    answers: Vec<Result<BatchAnswer, AdtError>>,
) -> Result<StepInspection, AdtError> {
    let method = codec::step_method(kind);
    let mut answers = answers.into_iter();
    let missing = |what: &str| {
        AdtError::unexpected(
            what,
            None,
            "the batch answer has no part for this request",
            "",
        )
    };
    let step = answers.next().ok_or_else(|| missing(method))?;
    let info = match step {
        Ok(a) => codec::parse_step_info(&a.body)
            .map_err(|e| AdtError::unexpected(method, Some(a.status), e.0, &a.body))?,
        Err(e) if e.class() == ErrorClass::DebuggeeEnded => {
            return Ok(StepInspection {
                outcome: StepOutcome::Ended,
                reached_breakpoints: Vec::new(),
                stack: None,
                variables: None,
            });
        }
        Err(e) => return Err(e),
    };
    let stack = answers.next().ok_or_else(|| missing("getStack"))??;
    let stack = codec::parse_stack(&stack.body)
        .map_err(|e| AdtError::unexpected("getStack", Some(stack.status), e.0, &stack.body))?;
    // The variables ride along for free; a system may refuse the whole part (a scope the stop
    // does not have, say): the stop stands, and its variables are read on their own later.
    let variables = match answers.next() {
        Some(Ok(vars)) => match codec::parse_child_variables(&vars.body) {
            Ok(v) => Some(v),
            Err(e) => {
                tracing::debug!("the variables read with the step are unreadable: {}", e.0);
                None
            }
        },
        Some(Err(e)) => {
            tracing::debug!("the variables read with the step were refused: {e}");
            None
        }
        None => None,
    };
    Ok(StepInspection {
        outcome: StepOutcome::Stopped {
            reached_breakpoints: info.reached_breakpoints.clone(),
        },
        reached_breakpoints: info.reached_breakpoints,
        stack: Some(stack),
        variables,
    })
}

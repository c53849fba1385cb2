//! The debugger operations, one method per ADT call (adt-wire.md §2).

use std::sync::Arc;
use std::time::Duration;

use reqwest::Method;

use crate::codec::{self, CodecError};
use crate::config::{Config, SessionMode};
use crate::error::{AdtError, ErrorClass};
use crate::transport::{Answer, Call, Session, Wait, encode, query};
use crate::types::{
    AttachInfo, BreakpointResult, BreakpointSpec, ChildVariables, Debuggee, Identity, Stack,
    StepKind, StepOutcome, SyncScope, Variable,
};

const DEBUGGER: &str = "/sap/bc/adt/debugger";
const XML: &str = "application/xml";
const ASX_CHILD_VARIABLES: &str =
    "application/vnd.sap.as+xml; charset=UTF-8; dataname=com.sap.adt.debugger.ChildVariables";
const ASX_VARIABLES: &str =
    "application/vnd.sap.as+xml; charset=UTF-8; dataname=com.sap.adt.debugger.Variables";
/// Added to the listener's server-side timeout before we give up on the poll ourselves.
const LISTEN_MARGIN: Duration = Duration::from_secs(30);

/// A client for one HTTP session. Cheap to clone; clones share the session.
#[derive(Debug, Clone)]
pub struct Client {
    session: Arc<Session>,
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
        })
    }

    /// A stateful client that rejoins the user context `context_id` (recorded with
    /// [`Client::context_id`] by an earlier process), e.g. to release a debuggee it left stopped.
    pub fn resume(config: &Config, context_id: &str) -> Result<Client, AdtError> {
        let client = Client::new(config, SessionMode::Stateful)?;
        client.session.set_context_id(context_id);
        Ok(client)
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
            })
            .await
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
        let body = codec::breakpoints_request(identity, scope, specs);
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
            codec::parse_breakpoints(&answer.body),
        )
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

    // ---- stack and variables --------------------------------------------------------------

    /// The call stack, innermost first.
    pub async fn stack(&self) -> Result<Stack, AdtError> {
        let answer = self
            .call(
                "getStack",
                Method::GET,
                format!("{DEBUGGER}/stack?method=getStack&emode=_&semanticURIs=true"),
                XML,
                None,
                Wait::Normal,
            )
            .await?;
        decode("getStack", &answer, codec::parse_stack(&answer.body))
    }

    /// Select a stack frame: `PUT <stackUri>` (§8.3), falling back to the older
    /// `POST ?method=setStackPosition` when the resource is missing. Later variable reads
    /// answer in that frame's context.
    pub async fn set_stack_position(
        &self,
        entry: &crate::types::StackEntry,
    ) -> Result<(), AdtError> {
        let target = if entry.stack_uri.starts_with('/') {
            entry.stack_uri.clone()
        } else {
            format!("{DEBUGGER}/stack/type/ABAP/position/{}", entry.position)
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
            Ok(_) => Ok(()),
            Err(e) if matches!(e.http_status(), Some(404 | 405)) => {
                let position = entry.position.to_string();
                self.debugger(
                    "setStackPosition",
                    &[("position", position.as_str())],
                    Wait::Normal,
                )
                .await
                .map(|_| ())
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
        let answer = self
            .call(
                "getVariables",
                Method::POST,
                format!("{DEBUGGER}?method=getVariables"),
                ASX_VARIABLES,
                Some((ASX_VARIABLES, codec::variables_request(ids))),
                Wait::Normal,
            )
            .await?;
        decode(
            "getVariables",
            &answer,
            codec::parse_variables(&answer.body),
        )
    }

    // ---- triggers and sources -------------------------------------------------------------

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
        };
        self.session
            .send_as(&call, SessionMode::Stateless)
            .await
            .map(|_| ())
    }
}

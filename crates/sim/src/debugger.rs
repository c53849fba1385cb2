//! `POST /sap/bc/adt/debugger?method=…` (attach, stack, variables, steps, terminate,
//! settings) and the stack resource, for the stateful context that attached (§5–§9).

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tokio::sync::oneshot;

use crate::breakpoints::xml_ok;
use crate::dbgxml::{attach_xml, settings_xml, step_xml};
use crate::debuggee::{AttachError, Command, StepKind, StepOutcome};
use crate::errors::{self, AdtError};
use crate::ids;
use crate::sessions::{Attached, Context, DebugSession, EndKind};
use crate::stack::{index_of_position, stack_xml};
use crate::state::Shared;
use crate::uri::parse_source_uri;
use crate::variables::{asx_response, variables_xml};
use crate::xml::{parse_ids, parse_parent_ids, parse_tree};

fn q<'a>(query: &'a [(String, String)], name: &str) -> Option<&'a str> {
    query
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// `POST /sap/bc/adt/debugger`.
pub(crate) async fn dispatch(
    shared: &Arc<Shared>,
    context: Option<&Arc<Context>>,
    dbg: &mut DebugSession,
    query: &[(String, String)],
    body: &str,
) -> Response {
    let method = q(query, "method").unwrap_or("");
    match method {
        "attach" => attach(shared, context, dbg, query).await,
        "getStack" => get_stack(dbg).await,
        "getChildVariables" => {
            let strict = shared.faults.get().0.refuse_unknown_scopes;
            child_variables(dbg, body, strict).await
        }
        "getVariables" => variables(dbg, body).await,
        "stepInto" => step(dbg, StepKind::Into).await,
        "stepOver" => step(dbg, StepKind::Over).await,
        "stepReturn" => step(dbg, StepKind::Return).await,
        "stepContinue" => step(dbg, StepKind::Continue).await,
        "stepRunToLine" => {
            let Some(uri) = q(query, "uri") else {
                return errors::parameter_not_found("uri").into_response();
            };
            match parse_source_uri(uri).and_then(|r| Some((r.line?, r))) {
                Some((line, r)) => {
                    step(
                        dbg,
                        StepKind::RunTo {
                            object: r.object,
                            part: r.part,
                            line,
                        },
                    )
                    .await
                }
                None => step_not_possible().into_response(),
            }
        }
        "stepJumpToLine" => {
            let Some(uri) = q(query, "uri") else {
                return errors::parameter_not_found("uri").into_response();
            };
            if dbg.attached.is_none() {
                return no_debuggee_step(dbg).into_response();
            }
            match parse_source_uri(uri).and_then(|r| Some((r.line?, r))) {
                Some((line, r)) => jump(dbg, r.object, r.part, line).await,
                None => step_not_possible().into_response(),
            }
        }
        "terminateDebuggee" => match (q(query, "debuggeeId"), context) {
            // A session that attached nothing names the program (a lost session's release).
            (Some(id), Some(ctx)) if dbg.attached.is_none() => {
                crate::debuggee::terminate_unheld(shared, &ctx.user, id).await
            }
            _ => terminate(dbg).await,
        },
        "setVariableValue" => {
            if q(query, "variableName").is_none_or(|v| v.trim().is_empty()) {
                return errors::parameter_not_found("variableName").into_response();
            }
            if dbg.attached.is_none() {
                return errors::no_session_other().into_response();
            }
            let name = q(query, "variableName")
                .unwrap_or_default()
                .trim()
                .to_uppercase();
            set_value(dbg, name, body).await
        }
        "setDebuggerSettings" => set_settings(dbg, body),
        "setStackPosition" => {
            let position = q(query, "position")
                .and_then(|p| p.trim().parse::<usize>().ok())
                .unwrap_or(0);
            match select_frame(dbg, position).await {
                Ok(_) => StatusCode::OK.into_response(),
                Err(e) => e.into_response(),
            }
        }
        other => errors::unknown_method(other).into_response(),
    }
}

fn step_not_possible() -> AdtError {
    AdtError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "AdiFailed",
        "The step is not possible at this position",
    )
    .sub_type("stepNotPossible")
    .t100("SY", "530")
}

fn no_debuggee_step(dbg: &DebugSession) -> AdtError {
    match dbg.ended {
        Some(EndKind::Terminated) => errors::session_stopped(),
        _ => errors::no_session_step(),
    }
}

async fn attach(
    shared: &Arc<Shared>,
    context: Option<&Arc<Context>>,
    dbg: &mut DebugSession,
    query: &[(String, String)],
) -> Response {
    let Some(debuggee_id) = q(query, "debuggeeId").filter(|s| !s.is_empty()) else {
        return errors::parameter_not_found("debuggeeId").into_response();
    };
    let Some(context) = context else {
        return errors::invalid_debuggee("Attach requires a stateful session").into_response();
    };
    if dbg.attached_once {
        return errors::invalid_debuggee("Debuggee already attached").into_response();
    }
    let Some(entry) = shared.debuggees.find(debuggee_id.trim()) else {
        return errors::invalid_debuggee("The debuggee does not exist any more").into_response();
    };
    let pending = match entry.request_attach(&context.id, &shared.sessions) {
        Ok(rx) => rx,
        Err(AttachError::AlreadyAttached) => {
            return errors::invalid_debuggee(
                "Debuggee already attached, and it does not belong to this session",
            )
            .into_response();
        }
        Err(AttachError::NotWaiting) => {
            return errors::invalid_debuggee("The debuggee is not waiting for a debugger")
                .into_response();
        }
    };
    match pending.await {
        Ok(Ok(reached)) => {
            let debug_session_id = ids::hex32();
            let body = attach_xml(&debug_session_id, &entry.id, &reached);
            dbg.attached = Some(Attached {
                entry,
                debug_session_id,
            });
            dbg.attached_once = true;
            dbg.ended = None;
            dbg.selected_frame = 0;
            xml_ok(body)
        }
        Ok(Err(AttachError::AlreadyAttached)) => errors::invalid_debuggee(
            "Debuggee already attached, and it does not belong to this session",
        )
        .into_response(),
        Ok(Err(AttachError::NotWaiting)) | Err(_) => {
            errors::invalid_debuggee("The debuggee does not exist any more").into_response()
        }
    }
}

/// Ask the attached debuggee; `None` (and the session marked ended) when it is gone.
async fn ask<T>(
    dbg: &mut DebugSession,
    make: impl FnOnce(oneshot::Sender<T>) -> Command,
) -> Option<T> {
    let attached = dbg.attached.as_ref()?;
    let (tx, rx) = oneshot::channel();
    if !attached.entry.send(make(tx)) {
        dbg.end(EndKind::Ended);
        return None;
    }
    match rx.await {
        Ok(v) => Some(v),
        Err(_) => {
            dbg.end(EndKind::Ended);
            None
        }
    }
}

/// `GET /debugger/stack?method=getStack` and `POST /debugger?method=getStack`.
pub(crate) async fn get_stack(dbg: &mut DebugSession) -> Response {
    let Some(frames) = ask(dbg, |reply| Command::Stack { reply }).await else {
        return errors::no_session_stack().into_response();
    };
    let selected = dbg.selected_frame.min(frames.len().saturating_sub(1));
    xml_ok(stack_xml(&frames, selected))
}

/// Select the frame with 1-based `position`; returns the new stack document.
async fn select_frame(dbg: &mut DebugSession, position: usize) -> Result<String, AdtError> {
    let Some(frames) = ask(dbg, |reply| Command::Stack { reply }).await else {
        return Err(errors::no_session_stack());
    };
    let Some(index) = index_of_position(frames.len(), position) else {
        return Err(errors::not_found(format!(
            "Stack position {position} does not exist"
        )));
    };
    dbg.selected_frame = index;
    Ok(stack_xml(&frames, index))
}

/// `PUT /sap/bc/adt/debugger/stack/type/ABAP/position/{n}`.
pub(crate) async fn switch_frame(dbg: &mut DebugSession, position: &str) -> Response {
    let Ok(position) = position.trim().parse::<usize>() else {
        return errors::not_found(format!("Stack position {position} does not exist"))
            .into_response();
    };
    match select_frame(dbg, position).await {
        Ok(body) => xml_ok(body),
        Err(e) => e.into_response(),
    }
}

/// `strict`: the `refuseUnknownScopes` fault (a system that refuses the whole read when it
/// names a scope the frame does not have, instead of leaving that parent out).
async fn child_variables(dbg: &mut DebugSession, body: &str, strict: bool) -> Response {
    if dbg.attached.is_none() {
        return errors::no_session_other().into_response();
    }
    let parents = match parse_parent_ids(body) {
        Ok(p) => p,
        Err(e) => return errors::invalid_data(e.0).into_response(),
    };
    let parents: Vec<String> = parents.into_iter().map(|p| p.to_uppercase()).collect();
    let frame = dbg.selected_frame;
    if strict && let Some(unknown) = unknown_scope(dbg, frame, &parents).await {
        return AdtError::new(
            StatusCode::BAD_REQUEST,
            "ExceptionInvalidData",
            format!("Variable {unknown} does not exist at this position"),
        )
        .t100("TPDA_ADT", "010")
        .into_response();
    }
    let Some(document) = ask(dbg, |reply| Command::Children {
        frame,
        parents,
        reply,
    })
    .await
    else {
        return errors::no_session_other().into_response();
    };
    asx_response(document, "ChildVariables")
}

/// The first scope among `parents` (`@…`, other than `@ROOT`) that `@ROOT` of the frame
/// does not name.
async fn unknown_scope(dbg: &mut DebugSession, frame: usize, parents: &[String]) -> Option<String> {
    let scopes: Vec<&String> = parents
        .iter()
        .filter(|p| p.starts_with('@') && *p != "@ROOT")
        .collect();
    if scopes.is_empty() {
        return None;
    }
    let root = ask(dbg, |reply| Command::Children {
        frame,
        parents: vec!["@ROOT".to_string()],
        reply,
    })
    .await
    .flatten()?;
    scopes
        .into_iter()
        .find(|s| !root.contains(&format!("<CHILD_ID>{s}</CHILD_ID>")))
        .cloned()
}

async fn variables(dbg: &mut DebugSession, body: &str) -> Response {
    if dbg.attached.is_none() {
        return errors::no_session_other().into_response();
    }
    let ids = match parse_ids(body) {
        Ok(p) => p,
        Err(e) => return errors::invalid_data(e.0).into_response(),
    };
    let ids: Vec<String> = ids.into_iter().map(|p| p.to_uppercase()).collect();
    let frame = dbg.selected_frame;
    let Some(records) = ask(dbg, |reply| Command::Variables { frame, ids, reply }).await else {
        return errors::no_session_other().into_response();
    };
    asx_response(variables_xml(&records), "Variables")
}

async fn step(dbg: &mut DebugSession, kind: StepKind) -> Response {
    let Some(debug_session_id) = dbg.attached.as_ref().map(|a| a.debug_session_id.clone()) else {
        return no_debuggee_step(dbg).into_response();
    };
    match ask(dbg, |reply| Command::Step { kind, reply }).await {
        Some(StepOutcome::Stopped { reached, watched }) => {
            dbg.selected_frame = 0;
            xml_ok(step_xml(
                &debug_session_id,
                &dbg.settings,
                &reached,
                &watched,
            ))
        }
        Some(StepOutcome::Ended) | None => {
            dbg.end(EndKind::Ended);
            errors::debuggee_ended().into_response()
        }
    }
}

/// `stepJumpToLine` (§7.1): move the execution pointer without executing the skipped code.
/// Targets that are no stop point of the current procedure (same source part, a block being
/// executed or one enclosing it) answer `stepNotPossible`; the debuggee stays where it was.
async fn jump(
    dbg: &mut DebugSession,
    object: String,
    part: abap::SourcePart,
    line: u32,
) -> Response {
    let Some(debug_session_id) = dbg.attached.as_ref().map(|a| a.debug_session_id.clone()) else {
        return no_debuggee_step(dbg).into_response();
    };
    let outcome = match ask(dbg, |reply| Command::Jump {
        object,
        part,
        line,
        reply,
    })
    .await
    {
        Some(Ok(rx)) => rx.await.ok(),
        Some(Err(())) => return step_not_possible().into_response(),
        None => None,
    };
    match outcome {
        Some(StepOutcome::Stopped { reached, watched }) => {
            dbg.selected_frame = 0;
            xml_ok(step_xml(
                &debug_session_id,
                &dbg.settings,
                &reached,
                &watched,
            ))
        }
        Some(StepOutcome::Ended) | None => {
            dbg.end(EndKind::Ended);
            errors::debuggee_ended().into_response()
        }
    }
}

/// `setVariableValue` (§9.7): the body is the new value as typed; it is converted with ABAP
/// move semantics in the selected frame. 200 `text/plain` with the value as stored and
/// re-formatted (`99 ` for an `I`).
async fn set_value(dbg: &mut DebugSession, id: String, body: &str) -> Response {
    let frame = dbg.selected_frame;
    let value = body.to_string();
    let Some(result) = ask(dbg, |reply| Command::SetValue {
        frame,
        id,
        value,
        reply,
    })
    .await
    else {
        return errors::no_session_other().into_response();
    };
    match result {
        Ok(record) => {
            let mut r = (StatusCode::OK, record.value).into_response();
            r.headers_mut().insert(
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("text/plain; charset=utf-8"),
            );
            r
        }
        Err(message) => AdtError::new(
            StatusCode::BAD_REQUEST,
            "ExceptionInvalidData",
            format!("Value cannot be changed: {message}"),
        )
        .into_response(),
    }
}

async fn terminate(dbg: &mut DebugSession) -> Response {
    if dbg.attached.is_none() {
        return no_debuggee_step(dbg).into_response();
    }
    let _ = ask(dbg, |reply| Command::Terminate { reply: Some(reply) }).await;
    dbg.end(EndKind::Terminated);
    errors::terminate_success().into_response()
}

fn set_settings(dbg: &mut DebugSession, body: &str) -> Response {
    let root = match parse_tree(body) {
        Ok(r) if r.name == "settings" => r,
        Ok(r) => {
            return errors::invalid_data(format!("expected dbg:settings, found {}", r.name))
                .into_response();
        }
        Err(e) => return errors::invalid_data(e.0).into_response(),
    };
    for (name, value) in dbg.settings.0.iter_mut() {
        if let Some(v) = root.attr(name) {
            *value = v == "true";
        }
    }
    xml_ok(settings_xml(&dbg.settings))
}

/// `GET /sap/bc/adt/debugger/memorysizes?includeAbap=true` (§11).
pub(crate) fn memory_sizes(dbg: &DebugSession) -> Response {
    if dbg.attached.is_none() {
        return errors::no_session_other().into_response();
    }
    let body = format!(
        "{}<dbg:memorySizes xmlns:dbg=\"http://www.sap.com/adt/debugger\"><dbg:abap><dbg:staticVariables>270336</dbg:staticVariables><dbg:stackUsed>40960</dbg:stackUsed><dbg:stackAllocated>204800</dbg:stackAllocated><dbg:dynamicMemoryObjectsUsed>229376</dbg:dynamicMemoryObjectsUsed><dbg:dynamicMemoryObjectsAllocated>294912</dbg:dynamicMemoryObjectsAllocated></dbg:abap><dbg:internal><dbg:used>4194304</dbg:used><dbg:allocated>7340032</dbg:allocated><dbg:peakUsed>5242880</dbg:peakUsed></dbg:internal><dbg:external><dbg:used>4194304</dbg:used><dbg:allocated>5138022</dbg:allocated><dbg:peakUsed>5242880</dbg:peakUsed><dbg:numberOfInternalSessions>1</dbg:numberOfInternalSessions></dbg:external></dbg:memorySizes>",
        crate::xml::XML_DECL
    );
    let mut r = (StatusCode::OK, body).into_response();
    r.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static(
            "application/vnd.sap.adt.debugger.memory.sizes.v1+xml; charset=utf-8",
        ),
    );
    r
}

/// `POST /sap/bc/adt/debugger/actions?action=<name>[&value=…]` (§6.2, §11).
pub(crate) fn action(dbg: &DebugSession, query: &[(String, String)]) -> Response {
    if dbg.attached.is_none() {
        return errors::no_session_other().into_response();
    }
    let Some(name) = q(query, "action").filter(|a| !a.is_empty()) else {
        return errors::parameter_not_found("action").into_response();
    };
    let message = match name {
        "memorySnapshot" => format!(
            "Memory Snapshot created on {}. Use transaction S_MEMORY_INSPECTOR to analyze it.",
            crate::state::INSTANCE
        ),
        "updateDebugging" | "garbageCollector" | "commitWork" | "rollbackWork" => String::new(),
        other => return errors::unknown_method(other).into_response(),
    };
    let data = if name == "memorySnapshot" {
        format!("{},SIM_SNAPSHOT", crate::state::INSTANCE)
    } else {
        String::new()
    };
    xml_ok(crate::dbgxml::action_xml(name, &message, &data))
}

/// `GET …/debugger/variables/{name}/{part}` (§9.8): the real system dumps and loses both the
/// HTTP session and the debug session. The simulator answers 500 and ends the stateful
/// context; an attached debuggee is released and runs on.
pub(crate) fn variables_resource(dbg: &mut DebugSession, path: &str) -> Response {
    let part = path.rsplit('/').next().unwrap_or("");
    if part == "metadata" {
        return errors::invalid_data("Resource metadata cannot be read").into_response();
    }
    if let Some(attached) = dbg.attached.take() {
        attached.entry.send(Command::Release);
    }
    dbg.end(EndKind::Ended);
    dbg.lost = true;
    AdtError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "ExceptionResourceFailure",
        "Runtime error in the debugger session: the session was terminated",
    )
    .prop(
        "LONGTEXT",
        "Short dump in the ADT debugger service; session lost",
    )
    .into_response()
}

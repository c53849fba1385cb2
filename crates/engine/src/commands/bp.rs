//! `bp.set`, `bp.list`, `bp.delete`, `bp.enable`, `bp.disable`, `bp.export`, `bp.import`.

use std::sync::Arc;

use jsonl::args::{BpIdsArgs, BpImportArgs, BpSetArgs, decode};
use jsonl::results::{
    BpDeleteResult, BpExportResult, BpImportResult, Breakpoint, BreakpointsResult,
};
use jsonl::{ErrorBody, ErrorCode};
use serde_json::Value;

use super::Outcome;
use crate::breakpoint_sync::{bp_changed, name_missing_objects};
use crate::breakpoints::{BpStatus, MAX_BREAKPOINTS, Target};
use crate::engine::Engine;
use crate::errors::from_adt;
use crate::to_proto;

/// Longest names the system has for what a breakpoint of a kind without an object names: an
/// ABAP class name (30), a statement keyword as the system lists them, a message class (20)
/// and number (3). Such a breakpoint is removed by a URL holding its server id, which holds
/// the name: one longer than the system allows could be accepted and never deleted.
const MAX_CLASS_NAME: usize = 30;
const MAX_STATEMENT: usize = 40;
const MAX_MESSAGE_ID: usize = 20;
const MAX_MESSAGE_NUMBER: usize = 3;

/// Refuses a name no system object has, before it is sent: what we set we must be able to
/// delete.
fn undoable(what: &str, name: &str, max: usize) -> Result<(), ErrorBody> {
    if name.chars().count() <= max {
        return Ok(());
    }
    let shown: String = name.chars().take(40).collect();
    Err(ErrorBody::new(
        ErrorCode::InvalidArgs,
        format!(
            "the {what} '{shown}…' is longer than the {max} characters a system allows; \
             a breakpoint on it could not be removed again, so it is not set"
        ),
    )
    .with_hint(format!("give a {what} of at most {max} characters")))
}

/// Reads the targets of one `bp.set` argument object; validates everything before anything
/// is registered, so a typo in one location does not half-apply the request.
fn targets(args: &BpSetArgs) -> Result<Vec<(Target, String)>, ErrorBody> {
    let mut out = Vec::new();
    for text in args.all_locations() {
        let loc = adt::address::parse_location(&text).map_err(|e| {
            ErrorBody::new(ErrorCode::InvalidLocation, format!("'{text}': {e}"))
                .with_hint("write OBJECT:LINE, e.g. ZCL_ORDER:42 (line in the class's source)")
        })?;
        out.push((
            Target::Line {
                object: loc.object,
                uri: loc.uri,
                line: loc.line,
            },
            text.trim().to_string(),
        ));
    }
    let word = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_uppercase()
    };
    if let Some(s) = args
        .statement
        .as_deref()
        .map(word)
        .filter(|s| !s.is_empty())
    {
        out.push((Target::Statement(s.clone()), format!("statement {s}")));
    }
    if let Some(s) = out.iter().find_map(|(t, _)| match t {
        Target::Statement(s) => Some(s),
        _ => None,
    }) {
        undoable("statement", s, MAX_STATEMENT)?;
    }
    if let Some(c) = args
        .exception
        .as_deref()
        .map(word)
        .filter(|s| !s.is_empty())
    {
        undoable("exception class", &c, MAX_CLASS_NAME)?;
        out.push((Target::Exception(c.clone()), format!("exception {c}")));
    }
    if let Some(m) = &args.message {
        let (id, number, ty) = (
            m.id.trim().to_uppercase(),
            m.number.trim().to_string(),
            m.ty.trim().to_uppercase(),
        );
        if id.is_empty()
            || number.is_empty()
            || !matches!(ty.as_str(), "A" | "E" | "I" | "S" | "W" | "X")
        {
            return Err(ErrorBody::new(
                ErrorCode::InvalidArgs,
                "a message breakpoint needs id, number and a type of A, E, I, S, W or X",
            )
            .with_hint("e.g. {\"message\":{\"id\":\"00\",\"number\":\"001\",\"type\":\"E\"}}"));
        }
        undoable("message id", &id, MAX_MESSAGE_ID)?;
        undoable("message number", &number, MAX_MESSAGE_NUMBER)?;
        let text = format!("message {id}/{number} {ty}");
        out.push((Target::Message { id, number, ty }, text));
    }
    Ok(out)
}

pub(crate) async fn set(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: BpSetArgs = decode("bp.set", args)?;
    let (ids, warning) = add_all(engine, std::slice::from_ref(&args), None).await?;
    to_proto::ok(BreakpointsResult {
        breakpoints: describe(engine, &ids),
        warning,
    })
}

pub(crate) async fn import(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: BpImportArgs = decode("bp.import", args)?;
    let (ids, warning) = add_all(engine, &args.breakpoints, None).await?;
    to_proto::ok(BpImportResult {
        imported: ids.len(),
        breakpoints: describe(engine, &ids),
        warning,
    })
}

/// How often pending breakpoints are tried again while the system cannot be reached.
const PENDING_RETRY: std::time::Duration = std::time::Duration::from_millis(1000);

/// Keeps trying to set pending breakpoints until the system takes them; each one it settles is
/// announced as `breakpoint.changed`. One task at a time.
fn retry_pending(engine: &Arc<Engine>) {
    let start = engine.update(|inner| !std::mem::replace(&mut inner.pending_retry, true));
    if !start {
        return;
    }
    let engine = engine.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(PENDING_RETRY).await;
            let ids: Vec<u32> = {
                let inner = engine.lock();
                if inner.shutting_down {
                    Vec::new()
                } else {
                    inner
                        .breakpoints
                        .all()
                        .iter()
                        .filter(|b| b.enabled && b.status == BpStatus::Pending)
                        .map(|b| b.id)
                        .collect()
                }
            };
            if ids.is_empty() {
                engine.update(|inner| inner.pending_retry = false);
                return;
            }
            match sync(&engine, &ids).await {
                Ok(()) => {
                    let bodies: Vec<jsonl::results::Breakpoint> = {
                        let inner = engine.lock();
                        ids.iter()
                            .filter_map(|id| inner.breakpoints.get(*id))
                            .filter(|b| b.status != BpStatus::Pending)
                            .map(to_proto::breakpoint)
                            .collect()
                    };
                    for body in bodies {
                        engine.emit(bp_changed(body, None), None);
                    }
                }
                Err(e) => tracing::debug!("pending breakpoints still not set: {}", e.message),
            }
        }
    });
}

/// `bp.set` for the runs of another user (`dump.catch` of that user's dump): the breakpoints
/// are sent with that user as `requestUser`.
pub(crate) async fn set_for(engine: &Arc<Engine>, args: &Value, user: &str) -> Outcome {
    let args: BpSetArgs = decode("bp.set", args)?;
    let user = Some(user.to_uppercase());
    let (ids, warning) = add_all(engine, std::slice::from_ref(&args), user).await?;
    to_proto::ok(BreakpointsResult {
        breakpoints: describe(engine, &ids),
        warning,
    })
}

/// Registers and sets breakpoints (for `user`'s runs, `None`: ours). When the system cannot
/// be reached they stay `pending` (with a warning) and are set as soon as it answers.
async fn add_all(
    engine: &Arc<Engine>,
    requests: &[BpSetArgs],
    user: Option<String>,
) -> Result<(Vec<u32>, Option<String>), ErrorBody> {
    let mut parsed = Vec::new();
    for args in requests {
        let ts = targets(args)?;
        if ts.is_empty() {
            return Err(ErrorBody::new(
                ErrorCode::InvalidArgs,
                "bp.set needs a \"location\" (or \"statement\", \"exception\", \"message\")",
            )
            .with_hint("e.g. {\"cmd\":\"bp.set\",\"args\":{\"location\":\"ZCL_ORDER:42\"}}"));
        }
        parsed.extend(
            ts.into_iter()
                .map(|(t, text)| (t, text, args.condition.clone(), args.enabled)),
        );
    }
    // A release of what a killed session left could delete these again: wait for it.
    engine.orphans_settled().await;
    let ids: Vec<u32> =
        engine.update(|inner| register(&mut inner.breakpoints, parsed, user.as_deref()))?;
    match sync(engine, &ids).await {
        Ok(()) => Ok((ids, None)),
        Err(e) if e.code == ErrorCode::Unreachable.as_str() => {
            retry_pending(engine);
            Ok((
                ids,
                Some(format!(
                    "{}; the breakpoints are pending and will be set as soon as the system answers (breakpoint.changed)",
                    e.message
                )),
            ))
        }
        Err(e) => Err(e),
    }
}

/// Registers what a `bp.set` or `bp.import` asks for, all or nothing: a location and
/// condition already registered gives the breakpoint there (its id, its state), and more than
/// [`MAX_BREAKPOINTS`] in all is refused with `breakpoint.limit`.
fn register(
    registry: &mut crate::breakpoints::Registry,
    parsed: Vec<(Target, String, Option<String>, bool)>,
    user: Option<&str>,
) -> Result<Vec<u32>, ErrorBody> {
    let mut new: Vec<&(Target, String, Option<String>, bool)> = Vec::new();
    for p in &parsed {
        let (target, _, condition, _) = p;
        let known = registry.find(target, condition.as_deref(), user).is_some()
            || new
                .iter()
                .any(|(t, _, c, _)| t == target && c.as_deref() == condition.as_deref());
        if !known {
            new.push(p);
        }
    }
    let held = registry.all().len();
    if held + new.len() > MAX_BREAKPOINTS {
        return Err(ErrorBody::new(
            ErrorCode::TooManyBreakpoints,
            format!(
                "a session holds at most {MAX_BREAKPOINTS} breakpoints; {held} are set and \
                 this would add {}, so none is set",
                new.len()
            ),
        )
        .with_hint(
            "delete breakpoints you no longer need ('bp.list', 'bp.delete'), then set again",
        ));
    }
    Ok(parsed
        .into_iter()
        .map(|(target, text, condition, enabled)| {
            if let Some(id) = registry.find(&target, condition.as_deref(), user) {
                return id;
            }
            let id = registry.add_for(target, &text, condition, user.map(str::to_string));
            if !enabled && let Some(bp) = registry.get_mut(id) {
                bp.enabled = false;
                bp.status = BpStatus::Disabled;
            }
            id
        })
        .collect())
}

fn describe(engine: &Engine, ids: &[u32]) -> Vec<Breakpoint> {
    let inner = engine.lock();
    ids.iter()
        .filter_map(|id| inner.breakpoints.get(*id).map(to_proto::breakpoint))
        .collect()
}

/// Brings the system in line with the registry for these breakpoints: their objects are
/// re-synced (partial scope), unscoped kinds added or deleted one by one. Status changes of
/// breakpoints outside `ids` are announced as `breakpoint.changed`.
pub(crate) async fn sync(engine: &Arc<Engine>, ids: &[u32]) -> Result<(), ErrorBody> {
    let _one_at_a_time = engine.breakpoint_sync.lock().await;
    let (uris, unscoped) = {
        let inner = engine.lock();
        let mut uris: Vec<(String, Option<String>)> = Vec::new();
        let mut unscoped = Vec::new();
        for id in ids {
            let Some(b) = inner.breakpoints.get(*id) else {
                continue;
            };
            match b.target.uri() {
                Some(u) if !uris.iter().any(|(x, who)| x == u && *who == b.user) => {
                    uris.push((u.to_string(), b.user.clone()))
                }
                Some(_) => {}
                None => unscoped.push((
                    b.id,
                    b.enabled,
                    b.server_id.clone(),
                    b.spec(),
                    b.user.clone(),
                )),
            }
        }
        (uris, unscoped)
    };
    let mut changed = Vec::new();
    for (uri, user) in uris {
        let identity = engine.identity_for(user.as_deref());
        let specs = engine.lock().breakpoints.specs_for(&uri, user.as_deref());
        let results = engine
            .main
            .set_breakpoints(&identity, &adt::SyncScope::Partial(uri.clone()), &specs)
            .await
            .map_err(|e| from_adt("setting breakpoints", &e))?;
        changed.extend(engine.update(|inner| inner.breakpoints.apply(&results)));
    }
    name_missing_objects(engine, ids).await;
    for (id, enabled, server_id, spec, user) in unscoped {
        let identity = &engine.identity_for(user.as_deref());
        match (enabled, server_id) {
            (true, None) => {
                let results = engine
                    .main
                    .set_breakpoints(identity, &adt::SyncScope::Additive, &[spec])
                    .await
                    .map_err(|e| from_adt("setting breakpoints", &e))?;
                changed.extend(engine.update(|inner| inner.breakpoints.apply(&results)));
            }
            (false, Some(server_id)) => {
                engine
                    .main
                    .delete_breakpoint(identity, &server_id)
                    .await
                    .map_err(|e| from_adt("deleting a breakpoint", &e))?;
                engine.update(|inner| {
                    if let Some(b) = inner.breakpoints.get_mut(id) {
                        b.server_id = None;
                    }
                });
            }
            _ => {}
        }
    }
    // A partial sync re-sends the other breakpoints of the object; if the system judged one of
    // them differently now, say so.
    let bodies: Vec<jsonl::results::Breakpoint> = {
        let inner = engine.lock();
        changed
            .into_iter()
            .filter(|id| !ids.contains(id))
            .filter_map(|id| inner.breakpoints.get(id).map(to_proto::breakpoint))
            .collect()
    };
    for body in bodies {
        engine.emit(bp_changed(body, None), None);
    }
    Ok(())
}

pub(crate) fn list(engine: &Arc<Engine>) -> Outcome {
    let inner = engine.lock();
    to_proto::ok(BreakpointsResult {
        breakpoints: inner
            .breakpoints
            .all()
            .iter()
            .map(to_proto::breakpoint)
            .collect(),
        warning: None,
    })
}

pub(crate) fn export(engine: &Arc<Engine>) -> Outcome {
    let inner = engine.lock();
    to_proto::ok(BpExportResult {
        format: "abapdbg-breakpoints/1".into(),
        breakpoints: inner
            .breakpoints
            .all()
            .iter()
            .map(to_proto::breakpoint_args)
            .collect(),
    })
}

/// The ids an argument object names, all checked to exist.
fn selected(engine: &Engine, cmd: &str, args: &Value) -> Result<Vec<u32>, ErrorBody> {
    let args: BpIdsArgs = decode(cmd, args)?;
    let inner = engine.lock();
    if args.all {
        return Ok(inner.breakpoints.all().iter().map(|b| b.id).collect());
    }
    let ids: Vec<u32> = args.id.into_iter().chain(args.ids).collect();
    if ids.is_empty() {
        return Err(ErrorBody::new(
            ErrorCode::InvalidArgs,
            format!("{cmd} needs \"id\", \"ids\" or \"all\": true"),
        )
        .with_hint(format!("e.g. {{\"cmd\":\"{cmd}\",\"args\":{{\"id\":1}}}}")));
    }
    if let Some(missing) = ids.iter().find(|id| inner.breakpoints.get(**id).is_none()) {
        return Err(ErrorBody::new(
            ErrorCode::BreakpointNotFound,
            format!("no breakpoint {missing}"),
        )
        .with_hint("list them with 'bp.list'"));
    }
    Ok(ids)
}

pub(crate) async fn delete(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let ids = selected(engine, "bp.delete", args)?;
    // Disable first (that takes them off the system), then forget them.
    set_enabled(engine, &ids, false).await?;
    engine.update(|inner| {
        for id in &ids {
            inner.breakpoints.remove(*id);
        }
    });
    // Another user's listener is held only while one of that user's breakpoints is.
    crate::user_listeners::prune(engine).await;
    to_proto::ok(BpDeleteResult { deleted: ids })
}

pub(crate) async fn enable(engine: &Arc<Engine>, args: &Value, on: bool) -> Outcome {
    let ids = selected(engine, if on { "bp.enable" } else { "bp.disable" }, args)?;
    set_enabled(engine, &ids, on).await?;
    to_proto::ok(BreakpointsResult {
        breakpoints: describe(engine, &ids),
        warning: None,
    })
}

async fn set_enabled(engine: &Arc<Engine>, ids: &[u32], on: bool) -> Result<(), ErrorBody> {
    engine.update(|inner| {
        for id in ids {
            if let Some(b) = inner.breakpoints.get_mut(*id) {
                b.enabled = on;
                if on {
                    b.status = BpStatus::Pending;
                } else {
                    b.status = BpStatus::Disabled;
                    b.reason = None;
                    if b.target.uri().is_some() {
                        b.server_id = None;
                    }
                }
            }
        }
    });
    sync(engine, ids).await
}

/// Takes every breakpoint off the system, keeping them disabled in the registry (`detach`).
pub(crate) async fn disable_all(engine: &Arc<Engine>) -> Result<Vec<u32>, ErrorBody> {
    let ids: Vec<u32> = engine
        .lock()
        .breakpoints
        .all()
        .iter()
        .filter(|b| b.enabled)
        .map(|b| b.id)
        .collect();
    set_enabled(engine, &ids, false).await?;
    Ok(ids)
}

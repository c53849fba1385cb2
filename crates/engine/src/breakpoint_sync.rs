//! Bringing the system's breakpoints in line with the registry without a request: sending
//! them all again (`reassert`, after `listen`, before a `run`, when the listener is armed),
//! naming objects the system does not have, and the `breakpoint.changed` event. Below
//! `commands/`: the listener and the `bp.*` commands both use it.

use std::sync::Arc;

use jsonl::ErrorBody;

use crate::engine::Engine;
use crate::errors::from_adt;
use crate::to_proto;

/// Sends every enabled breakpoint again (line breakpoints per object with a partial sync,
/// the others additively, which replaces a breakpoint still there), so ones another tool of
/// the same user deleted on the system are back before a program is run or caught. Verdicts
/// that changed are announced as `breakpoint.changed`.
pub(crate) async fn reassert(engine: &Arc<Engine>) -> Result<(), ErrorBody> {
    let _one_at_a_time = engine.breakpoint_sync.lock().await;
    if engine.lock().shutting_down {
        // The release deletes them; sending them now could put them back after it.
        return Ok(());
    }
    let (uris, unscoped) = {
        let inner = engine.lock();
        let enabled = || inner.breakpoints.all().iter().filter(|b| b.enabled);
        let uris: Vec<(String, Option<String>)> = inner
            .breakpoints
            .uris()
            .into_iter()
            .filter(|(u, who)| {
                enabled().any(|b| b.target.uri() == Some(u.as_str()) && b.user == *who)
            })
            .collect();
        let unscoped: Vec<(adt::BreakpointSpec, Option<String>)> = enabled()
            .filter(|b| b.target.uri().is_none())
            .map(|b| (b.spec(), b.user.clone()))
            .collect();
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
    // A refusal's reason naming a missing object is found again, not lost to the raw text.
    let all: Vec<u32> = engine
        .lock()
        .breakpoints
        .all()
        .iter()
        .map(|b| b.id)
        .collect();
    name_missing_objects(engine, &all).await;
    // Each user's additively, with that user as `requestUser`.
    let mut users: Vec<Option<String>> = Vec::new();
    for (_, who) in &unscoped {
        if !users.contains(who) {
            users.push(who.clone());
        }
    }
    for user in users {
        let specs: Vec<adt::BreakpointSpec> = unscoped
            .iter()
            .filter(|(_, who)| *who == user)
            .map(|(spec, _)| spec.clone())
            .collect();
        let results = engine
            .main
            .set_breakpoints(
                &engine.identity_for(user.as_deref()),
                &adt::SyncScope::Additive,
                &specs,
            )
            .await
            .map_err(|e| from_adt("setting breakpoints", &e))?;
        changed.extend(engine.update(|inner| inner.breakpoints.apply(&results)));
    }
    let bodies: Vec<jsonl::results::Breakpoint> = {
        let inner = engine.lock();
        changed
            .into_iter()
            .filter_map(|id| inner.breakpoints.get(id).map(to_proto::breakpoint))
            .collect()
    };
    for body in bodies {
        engine.emit(bp_changed(body, Some("reasserted")), None);
    }
    Ok(())
}

/// A line refused "at this position" may be in an object the system does not have at all;
/// the refusal does not say so, the repository search does. The reason then names the object.
pub(crate) async fn name_missing_objects(engine: &Arc<Engine>, ids: &[u32]) {
    let objects: Vec<String> = {
        let inner = engine.lock();
        let mut objects: Vec<String> = ids
            .iter()
            .filter_map(|id| inner.breakpoints.get(*id))
            .filter(|b| b.refused_at_position())
            .filter_map(|b| b.target.object().map(str::to_string))
            .collect();
        objects.sort();
        objects.dedup();
        objects
    };
    for object in objects {
        // Only a search that answers tells; a system without it changes nothing.
        let Ok(found) = engine.main.quick_search(&object, 10).await else {
            continue;
        };
        if found.iter().any(|o| o.name.eq_ignore_ascii_case(&object)) {
            continue;
        }
        engine.update(|inner| {
            for id in ids {
                if let Some(b) = inner.breakpoints.get_mut(*id)
                    && b.refused_at_position()
                    && b.target.object() == Some(object.as_str())
                {
                    b.reason = Some(format!(
                        "{object} does not exist on the system (it answered: {})",
                        b.reason.as_deref().unwrap_or_default()
                    ));
                }
            }
        });
    }
}

/// The `breakpoint.changed` event of a breakpoint record.
pub(crate) fn bp_changed(
    breakpoint: jsonl::results::Breakpoint,
    reason: Option<&str>,
) -> jsonl::EventKind {
    jsonl::EventKind::BreakpointChanged(Box::new(jsonl::events::BreakpointChanged {
        breakpoint,
        reason: reason.map(str::to_string),
    }))
}

//! Letting go of everything we hold on the system: the one exit path every shutdown takes.

use std::sync::Arc;
use std::time::Duration;

use crate::config::ReleasePolicy;
use crate::engine::Engine;

/// What was released, for the `shutdown` response and stderr: the protocol's own type.
pub use jsonl::results::{Receipt, ReleasedDebuggee};

pub(crate) async fn release_all(engine: &Arc<Engine>) -> Receipt {
    let mut receipt = Receipt::default();
    let (task, was_wanted, uris, threads, leftover, unreleased) = engine.update(|inner| {
        inner.current = None;
        inner.shutting_down = true;
        let was = inner.listener_held();
        inner.listener_wanted = false;
        inner.listener_armed = false;
        (
            inner.listener_task.take(),
            was,
            inner.breakpoints.uris(),
            std::mem::take(&mut inner.threads),
            inner.leftover.take(),
            std::mem::take(&mut inner.unreleased),
        )
    });
    if let Some(task) = task {
        task.abort();
    }
    let identity = &engine.config.identity;
    // What we registered we delete, whatever state the poll loop was in (it may have given up).
    if was_wanted {
        match crate::listener::stop_on_server(engine, identity).await {
            Ok(()) => {
                receipt.listener_stopped = true;
                engine.update(|inner| inner.listener_registered = false);
            }
            Err(e) => receipt.errors.push(format!("stop listener: {e}")),
        }
    }
    // Breakpoints go first, so a released program does not stop again on its way out.
    for uri in uris {
        let count = engine.lock().breakpoints.specs_for(&uri).len();
        match engine
            .main
            .set_breakpoints(identity, &adt::SyncScope::Partial(uri.clone()), &[])
            .await
        {
            Ok(_) => receipt.breakpoints_deleted += count,
            Err(e) => receipt
                .errors
                .push(format!("delete breakpoints of {uri}: {e}")),
        }
    }
    let unscoped = engine.lock().breakpoints.unscoped_server_ids();
    for server_id in unscoped {
        match engine.main.delete_breakpoint(identity, &server_id).await {
            Ok(()) => receipt.breakpoints_deleted += 1,
            Err(e) => receipt
                .errors
                .push(format!("delete breakpoint {server_id}: {e}")),
        }
    }
    for d in threads.into_values() {
        let how = release_thread(engine, &d.client, &d.record).await;
        if how.starts_with("failed") {
            receipt
                .errors
                .push(format!("release thread {}: {how}", d.thread));
        }
        receipt.debuggees.push(super::release::ReleasedDebuggee {
            thread: d.thread,
            program: d.record.program.clone(),
            how,
        });
        let _ = d.client.end_session().await;
    }
    for t in unreleased {
        let how = release_held(engine, &t).await.unwrap_or_else(|e| {
            receipt
                .errors
                .push(format!("release thread {}: {e}", t.thread));
            format!("failed: {e}")
        });
        receipt.debuggees.push(ReleasedDebuggee {
            thread: t.thread,
            program: t.program.clone(),
            how,
        });
    }
    if let Some(old) = leftover {
        let done = crate::statefile::release_snapshot(engine, old).await;
        receipt.breakpoints_deleted += done.breakpoints;
        receipt.errors.extend(
            done.errors
                .into_iter()
                .map(|e| format!("left by an earlier session: {e}")),
        );
    }
    // A state-file write that started before the shutdown began is finished once this lock
    // is ours; none starts after it.
    drop(engine.recorded.lock().unwrap_or_else(|p| p.into_inner()));
    engine.update(|_| ());
    receipt
}

/// How often a released program is continued when it keeps stopping (at breakpoints that are
/// still set, ours at the thread cap or another tool's), and for how long at most, before it
/// is terminated rather than left frozen.
const MAX_CONTINUES: u32 = 200;
const CONTINUE_BOUND: Duration = Duration::from_secs(10);

/// Lets a program we attached go, by policy: `continued`, `terminated`, or `failed: …`.
pub(crate) async fn release_debuggee(engine: &Arc<Engine>, client: &adt::Client) -> String {
    release_attached(engine, client)
        .await
        .unwrap_or_else(|e| format!("failed: the session has no debuggee any more ({e})"))
}

/// Like [`release_debuggee`]; `Err` when the session answers without the debuggee (the system
/// dropped it), so the caller can release the program by its id instead.
async fn release_attached(
    engine: &Arc<Engine>,
    client: &adt::Client,
) -> Result<String, adt::AdtError> {
    if engine.config.release == ReleasePolicy::Terminate {
        return terminate(client).await;
    }
    let deadline = tokio::time::Instant::now() + CONTINUE_BOUND;
    for _ in 0..MAX_CONTINUES {
        let step = tokio::time::timeout_at(deadline, client.step(adt::StepKind::Continue)).await;
        match step {
            Ok(Ok(adt::StepOutcome::Ended)) => return Ok("continued".into()),
            // Stopped again: continue on (the policy says let it run), within the bound.
            Ok(Ok(adt::StepOutcome::Stopped { .. })) => {}
            Ok(Err(e)) if crate::recovery::is_lost(&e) => return Err(e),
            Ok(Err(e)) if is_gone(&e) => return Ok("continued".into()),
            Ok(Err(e)) => {
                let t = terminate(client).await?;
                return Ok(format!("{t} (continue failed: {e})"));
            }
            // Still running after the bound: kill it rather than leave a work process frozen.
            Err(_) => break,
        }
    }
    terminate(client).await
}

/// Releases a program we hold through its session, or by its id when the system dropped
/// that session.
pub(crate) async fn release_thread(
    engine: &Arc<Engine>,
    client: &adt::Client,
    record: &adt::Debuggee,
) -> String {
    match release_attached(engine, client).await {
        Ok(how) => how,
        Err(_) => release_by_id(engine, &record.id)
            .await
            .unwrap_or_else(|e| format!("failed: {e}")),
    }
}

/// A program whose session is gone, from a fresh session: attached again and released by
/// policy where the system allows, else terminated by its id. `ended` when the system no
/// longer has it.
pub(crate) async fn release_by_id(
    engine: &Arc<Engine>,
    debuggee_id: &str,
) -> Result<String, adt::AdtError> {
    let record = adt::Debuggee {
        id: debuggee_id.to_string(),
        ..Default::default()
    };
    if let Ok((client, _)) = crate::listener::attach_with_retry(engine, &record).await {
        let how = release_attached(engine, &client).await;
        let _ = client.end_session().await;
        if let Ok(how) = how {
            return Ok(how);
        }
    }
    let fresh = adt::Client::new(&engine.config.adt, adt::SessionMode::Stateful)?;
    let outcome = fresh.terminate_debuggee(debuggee_id).await;
    let _ = fresh.end_session().await;
    match outcome {
        Ok(()) => Ok("terminated".into()),
        Err(e) if no_such_debuggee(&e) => Ok("ended".into()),
        Err(e) => Err(e),
    }
}

/// The system says the debuggee does not exist (any more): nothing is left to release.
fn no_such_debuggee(e: &adt::AdtError) -> bool {
    e.class() == adt::ErrorClass::InvalidDebuggee
        && e.exception()
            .is_some_and(|x| x.message.to_ascii_lowercase().contains("not exist"))
}

/// Releases a program a state file records: through its recorded session, else by its id.
pub(crate) async fn release_held(
    engine: &Arc<Engine>,
    held: &crate::statefile::HeldThread,
) -> Result<String, String> {
    if let Some(ctx) = &held.context_id {
        let client = adt::Client::resume(&engine.config.adt, ctx).map_err(|e| e.to_string())?;
        let how = release_attached(engine, &client).await;
        let _ = client.end_session().await;
        match how {
            Ok(how) if how.starts_with("failed") => return Err(how),
            Ok(how) => return Ok(how),
            Err(_) if held.debuggee_id.is_some() => {}
            Err(e) => return Ok(format!("ended (its session has no debuggee: {e})")),
        }
    }
    match &held.debuggee_id {
        Some(id) => release_by_id(engine, id).await.map_err(|e| e.to_string()),
        None => Ok("ended (nothing recorded to reach it)".into()),
    }
}

async fn terminate(client: &adt::Client) -> Result<String, adt::AdtError> {
    match client.terminate().await {
        Ok(()) => Ok("terminated".into()),
        Err(e) if crate::recovery::is_lost(&e) => Err(e),
        Err(e) if is_gone(&e) => Ok("terminated".into()),
        Err(e) => Ok(format!("failed: {e}")),
    }
}

fn is_gone(e: &adt::AdtError) -> bool {
    matches!(
        e.class(),
        adt::ErrorClass::DebuggeeEnded
            | adt::ErrorClass::Terminated
            | adt::ErrorClass::NoSessionAttached
    )
}

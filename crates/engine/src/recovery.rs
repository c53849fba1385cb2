//! A stopped program whose session the system dropped (the stateful session expired, ICM
//! restarted): the program is still stopped on the system, but its session answers as if
//! nothing were attached. It is attached again on a fresh session where the system allows;
//! otherwise it is released through a fresh session by its debuggee id. Either way a
//! `debuggee.lost` event (`reason: session_lost`) says what happened, and a program that could
//! not be released stays recorded for shutdown and the state file.

use std::sync::Arc;

use jsonl::EventKind;
use jsonl::events::DebuggeeLost;
use jsonl::results::EndReason;

use crate::engine::Engine;

/// Whether an error on a program we believe stopped means its session was lost: the session
/// answers that it has no debuggee, though we never saw the program end.
pub(crate) fn is_lost(e: &adt::AdtError) -> bool {
    e.class() == adt::ErrorClass::NoSessionAttached
}

/// Recovers `thread` after its session was found lost; once at a time per thread (a second
/// call while one runs returns at once). Returns what happened: `reattached`, or how the
/// program was released.
pub(crate) async fn recover(engine: &Arc<Engine>, thread: u32) -> Option<String> {
    let record = engine.update(|inner| {
        let d = inner.thread_mut(thread)?;
        if d.recovering {
            return None;
        }
        d.recovering = true;
        Some(d.record.clone())
    })?;
    tracing::warn!(
        "the system dropped the session of thread {thread} ({}); attaching it again",
        record.program
    );
    match crate::listener::attach_with_retry(engine, &record).await {
        Ok((client, _)) => {
            let old = engine.update(|inner| {
                inner.thread_mut(thread).map(|d| {
                    d.recovering = false;
                    // The new session starts at the innermost frame.
                    d.selected = 0;
                    d.stops += 1;
                    d.position = crate::at::innermost();
                    d.reads.forget();
                    std::mem::replace(&mut d.client, client.clone())
                })
            });
            let Some(old) = old else {
                // The thread went meanwhile (a shutdown took it): what we attached we let go.
                let how = crate::release::release_debuggee(engine, &client).await;
                tracing::info!("released thread {thread} attached again after it went: {how}");
                let _ = client.end_session().await;
                return Some(how);
            };
            let settings = engine.lock().settings;
            if let Some(settings) = settings
                && let Err(e) = client.settings(&settings).await
            {
                tracing::warn!("cannot apply the debugger settings to thread {thread}: {e}");
            }
            crate::statefile::record_now(engine).await;
            engine.emit(
                EventKind::DebuggeeLost(DebuggeeLost {
                    reason: Some("session_lost".into()),
                    message: "the system dropped the debug session; the program was attached again and is still stopped where it was".into(),
                    thread: Some(thread),
                    program: Some(record.program.clone()),
                    outcome: Some("reattached".into()),
                    how: None,
                    released: None,
                    adt: None,
                }),
                None,
            );
            let _ = old.end_session().await;
            Some("reattached".into())
        }
        Err(attach_error) => {
            let released = crate::release::release_by_id(engine, &record.id).await;
            let (outcome, how) = match &released {
                // The system no longer has it (it ended, or the system aborted it).
                Ok(how) if how == "ended" => ("ended", how.clone()),
                Ok(how) => ("released", how.clone()),
                Err(e) => ("unreleased", format!("failed: {e}")),
            };
            if released.is_err() {
                // Kept for shutdown and the state file: it must not be forgotten while stopped.
                engine.update(|inner| {
                    inner.unreleased.push(crate::statefile::HeldThread {
                        thread,
                        program: record.program.clone(),
                        context_id: None,
                        debuggee_id: Some(record.id.clone()),
                    })
                });
            }
            engine.emit(
                EventKind::DebuggeeLost(DebuggeeLost {
                    reason: Some("session_lost".into()),
                    message: format!("the system dropped the debug session and the program could not be attached again ({attach_error})"),
                    thread: Some(thread),
                    program: Some(record.program.clone()),
                    outcome: Some(outcome.to_string()),
                    how: Some(how.clone()),
                    released: None,
                    adt: None,
                }),
                None,
            );
            let gone = engine.update(|inner| inner.remove_thread(thread));
            if let Some(gone) = gone {
                crate::runs::announce_end(
                    engine,
                    thread,
                    EndReason::Lost,
                    Some("session lost".into()),
                    gone.run,
                    None,
                )
                .await;
                let _ = gone.client.end_session().await;
            }
            Some(how)
        }
    }
}

/// The error a command answers when it found the session lost: what recovery did.
pub(crate) fn lost_error(
    context: &str,
    e: &adt::AdtError,
    outcome: Option<&str>,
) -> jsonl::ErrorBody {
    let mut err = crate::errors::from_adt(context, e);
    err.message = match outcome {
        Some("reattached") => format!(
            "{context}: the system dropped the debug session; the program was attached again and is still stopped (send the command again)"
        ),
        Some(how) => format!(
            "{context}: the system dropped the debug session and the program could not be attached again; it was released ({how})"
        ),
        None => format!("{context}: the system dropped the debug session; it is being recovered"),
    };
    err
}

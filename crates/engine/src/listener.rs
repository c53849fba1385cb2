//! The listener: keeps a long poll in flight while the user wants to catch stops, and attaches
//! every debuggee it catches on a fresh stateful session.

use std::sync::Arc;
use std::time::Duration;

use jsonl::EventKind;
use jsonl::events::{
    DebuggeeLost, ListenerArmed, ListenerConflict, ListenerFailed, ThreadReleased,
};

use crate::debuggee::{Attached, StopReason, describe_stop};
use crate::engine::Engine;

/// Starts the listener task if it is not running. Returns at once. With `take_over`, the
/// first poll takes the user's listener over from another debugger instead of reporting a
/// conflict.
pub(crate) fn ensure_started(engine: &Arc<Engine>, take_over: bool) {
    // The check and the start are one step: several `run`s arm at once, and two listener
    // tasks would poll with one identity, the second poll displacing the first, which the
    // system answers as a conflict (and the session stops listening).
    let again = engine.clone();
    engine.update(move |inner| {
        inner.listener_wanted = true;
        inner.listener_error = None;
        inner.listener_take_over |= take_over;
        if inner.listener_task.as_ref().is_none_or(|t| t.is_finished()) {
            inner.listener_task = Some(tokio::spawn(run(again)));
        }
    });
}

/// Waits until the listener is armed on the server, at most `timeout`. Fails at once with
/// the listener's own error when it gave up (a conflict, repeated failures).
pub(crate) async fn wait_armed(
    engine: &Arc<Engine>,
    timeout: Duration,
) -> Result<(), jsonl::ErrorBody> {
    let mut rx = engine.watch();
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        {
            let inner = engine.lock();
            if inner.listener_armed {
                return Ok(());
            }
            if let Some(e) = &inner.listener_error {
                return Err(e.clone());
            }
        }
        if tokio::time::timeout_at(deadline, rx.changed())
            .await
            .is_err()
        {
            return Err(jsonl::ErrorBody::new(
                jsonl::ErrorCode::Timeout,
                "the listener could not be armed, so a stop would not be caught; nothing was run",
            )
            .with_hint("check 'status' and the stderr log, then retry"));
        }
    }
}

/// Whether the poll loop ends: it does when no listener is wanted, and then forgets itself in
/// the same step, so that a `run` arming a moment later starts a new loop instead of counting
/// on this one.
fn ends_unless_wanted(engine: &Engine) -> bool {
    let mut inner = engine.lock();
    if inner.listener_wanted {
        return false;
    }
    forget_own_task(&mut inner);
    true
}

/// Drops the engine's handle of the running poll loop if it is this task's (never a newer
/// loop's: `unlisten` may have taken ours and a `run` started another).
fn forget_own_task(inner: &mut crate::engine::Inner) {
    let own = tokio::task::try_id();
    if own.is_some() && inner.listener_task.as_ref().map(|t| t.id()) == own {
        inner.listener_task = None;
    }
}

async fn run(engine: Arc<Engine>) {
    let identity = engine.config.identity.clone();
    let mut failures: u32 = 0;
    loop {
        if ends_unless_wanted(&engine) {
            return;
        }
        let sent = tokio::time::Instant::now();
        let poll = {
            let client = engine.listen_client.clone();
            let identity = identity.clone();
            let secs = engine.config.listener_poll_secs;
            let take_over = engine.update(|inner| {
                inner.listener_registered = true;
                std::mem::take(&mut inner.listener_take_over)
            });
            tokio::spawn(async move { client.listen_opts(&identity, secs, !take_over).await })
        };
        if !engine.lock().listener_armed {
            confirm_armed(&engine, &identity, &poll, |inner| {
                inner.listener_armed = true
            })
            .await;
        }
        let outcome = match poll.await {
            Ok(outcome) => outcome,
            Err(join) => {
                tracing::warn!("listener poll task failed: {join}");
                return;
            }
        };
        match outcome {
            Ok(None) => {
                failures = 0;
                // The server's timeout: poll again, silently. Back long before that time, the
                // listener was deleted on the system (another tool of the user): arm it again,
                // which also puts our breakpoints back.
                let full = Duration::from_secs(u64::from(engine.config.listener_poll_secs));
                if sent.elapsed() < full / 2 {
                    tracing::info!("the listener poll ended early: arming it again");
                    engine.update(|inner| inner.listener_armed = false);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
            Ok(Some(debuggee)) => {
                failures = 0;
                tracing::debug!("the listener caught debuggee {}", debuggee.id);
                // Attach before polling again: until it is attached, the system may report the
                // same stop to the next poll. What follows the attach runs in the background.
                if let Some(caught) = attach(&engine, &identity, debuggee).await {
                    let engine = engine.clone();
                    tokio::spawn(async move { settle(&engine, caught).await });
                }
            }
            Err(e) if e.class() == adt::ErrorClass::ListenerConflict => {
                let ex = e.exception();
                let displaced =
                    ex.and_then(|x| x.subtype.as_deref()) == Some("conflictNotification");
                let holder = ex.and_then(|x| x.ide_user.clone());
                let text = ex.and_then(|x| x.conflict_text.clone());
                let error = crate::errors::from_adt("listening", &e);
                engine.update(|inner| {
                    inner.listener_wanted = false;
                    inner.listener_armed = false;
                    // The listener on the system is the other debugger's (ours was refused or
                    // taken over): a DELETE for the user could remove theirs (issue 25).
                    inner.listener_registered = false;
                    inner.listener_error = Some(error);
                    forget_own_task(inner);
                });
                engine.emit(
                    EventKind::ListenerConflict(ListenerConflict {
                        message: e.to_string(),
                        displaced,
                        holder,
                        conflict_text: text,
                        hint: Some(if displaced {
                            "another debugger took the listener over; 'listen' again with take_over to take it back"
                        } else {
                            "another debugger listens for this user; stop it, or 'listen' with {\"take_over\":true}"
                        }.into()),
                        adt: Some(crate::errors::adt_detail(&e)),
                    }),
                    None,
                );
                return;
            }
            Err(e) => {
                failures += 1;
                tracing::warn!("listener poll failed ({failures}): {e}");
                if failures >= 5 {
                    let error = crate::errors::from_adt("listening", &e);
                    engine.update(|inner| {
                        inner.listener_wanted = false;
                        inner.listener_armed = false;
                        inner.listener_error = Some(error);
                    });
                    // An earlier poll registered it: giving up must not leave it there. If the
                    // system cannot be reached now, every exit path tries again.
                    if stop_on_server(&engine, &identity).await.is_ok() {
                        engine.update(|inner| inner.listener_registered = false);
                    }
                    engine.emit(
                        EventKind::ListenerFailed(ListenerFailed {
                            message: e.to_string(),
                            adt: Some(crate::errors::adt_detail(&e)),
                        }),
                        None,
                    );
                    // A `run` that armed while the listener was being deleted found this task
                    // not yet finished and started none: listen for it rather than leave
                    // nobody listening.
                    if ends_unless_wanted(&engine) {
                        return;
                    }
                    failures = 0;
                    continue;
                }
                tokio::time::sleep(Duration::from_millis(500 * u64::from(failures))).await;
            }
        }
    }
}

/// Marks a listener armed (`mark`) and announces `listener.armed` only once the server really
/// holds it, and sends the breakpoints again: another tool of the user may have deleted them
/// with the listener. Ours and the ones held for other users (`user_listeners.rs`).
pub(crate) async fn confirm_armed(
    engine: &Arc<Engine>,
    identity: &adt::Identity,
    poll: &tokio::task::JoinHandle<Result<Option<adt::Debuggee>, adt::AdtError>>,
    mark: impl FnOnce(&mut crate::engine::Inner),
) {
    for _ in 0..400 {
        if poll.is_finished() {
            break;
        }
        match engine.main.listener_exists(identity).await {
            Ok(true) => {
                engine.update(mark);
                let again = engine.clone();
                tokio::spawn(async move {
                    if let Err(e) = crate::breakpoint_sync::reassert(&again).await {
                        tracing::warn!("cannot re-assert the breakpoints: {}", e.message);
                    }
                });
                engine.emit(
                    EventKind::ListenerArmed(ListenerArmed {
                        user: identity.user.clone(),
                        terminal_id: identity.terminal_id.clone(),
                        ide_id: identity.ide_id.clone(),
                    }),
                    None,
                );
                return;
            }
            Ok(false) => tokio::time::sleep(Duration::from_millis(25)).await,
            Err(e) => {
                tracing::warn!("cannot check the listener of {}: {e}", identity.user);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// A stop we attached to.
pub(crate) struct Caught {
    debuggee: adt::Debuggee,
    client: adt::Client,
    attach: adt::AttachInfo,
}

/// Attaches a caught debuggee on a fresh stateful session. If that fails even when retried,
/// the program is released (terminated by its id from a fresh session), so the run that
/// started it is answered, and reported lost.
pub(crate) async fn attach(
    engine: &Arc<Engine>,
    identity: &adt::Identity,
    debuggee: adt::Debuggee,
) -> Option<Caught> {
    let attached = attach_as(engine, identity, &debuggee).await;
    tracing::debug!(
        "attach of debuggee {}: {:?}",
        debuggee.id,
        attached.as_ref().map(|_| ())
    );
    match attached {
        Ok((client, attach)) => Some(Caught {
            debuggee,
            client,
            attach,
        }),
        Err(e) => {
            let released = crate::release::release_by_id(engine, &debuggee.id)
                .await
                .unwrap_or_else(|e| format!("failed: {e}"));
            engine.emit(
                EventKind::DebuggeeLost(DebuggeeLost {
                    reason: Some("attach_failed".into()),
                    message: format!("could not attach: {e}"),
                    thread: None,
                    program: Some(debuggee.program.clone()),
                    outcome: None,
                    how: None,
                    released: Some(released.into()),
                    adt: Some(crate::errors::adt_detail(&e)),
                }),
                None,
            );
            None
        }
    }
}

/// Pauses between attach attempts: a passing server failure (one 5xx, a dropped connection)
/// is retried well within the time a caught program waits for its debugger.
const ATTACH_RETRY_DELAYS: [Duration; 3] = [
    Duration::from_millis(100),
    Duration::from_millis(400),
    Duration::from_millis(1200),
];

/// Whether an attach failure may pass if the attach is sent again.
fn transient(e: &adt::AdtError) -> bool {
    match e.class() {
        adt::ErrorClass::ServerUnavailable | adt::ErrorClass::Transport => true,
        adt::ErrorClass::Other | adt::ErrorClass::UnexpectedResponse => {
            e.http_status().is_some_and(|s| s >= 500)
        }
        _ => false,
    }
}

/// Attaches a debuggee (caught now, or caught before by a session that is gone) on a fresh
/// stateful session, each attempt on a new one; a transient failure is retried.
pub(crate) async fn attach_with_retry(
    engine: &Arc<Engine>,
    debuggee: &adt::Debuggee,
) -> Result<(adt::Client, adt::AttachInfo), adt::AdtError> {
    attach_as(engine, &engine.config.identity, debuggee).await
}

/// [`attach_with_retry`] with the `requestUser` of the listener that caught it (another
/// user's listener attaches that user's programs).
async fn attach_as(
    engine: &Arc<Engine>,
    identity: &adt::Identity,
    debuggee: &adt::Debuggee,
) -> Result<(adt::Client, adt::AttachInfo), adt::AdtError> {
    // Whether the system has a batch endpoint decides how the new session reads.
    crate::discovery::learn(engine).await;
    let mut delays = ATTACH_RETRY_DELAYS.iter();
    loop {
        let client = crate::discovery::debuggee_client(engine)?;
        // On a load-balanced system the debuggee can only be attached from the instance it
        // runs on: route this session there when the listener says it is elsewhere
        // (adt-wire.md §1.3).
        let elsewhere = debuggee.field("IS_SAME_SERVER") == Some("false")
            && debuggee.field("CAN_ADT_CROSS_SERVER") != Some("true");
        if elsewhere
            && !debuggee.instance_name.trim().is_empty()
            && let Err(e) = client.route_to_instance(debuggee.instance_name.trim())
        {
            tracing::warn!("cannot route the attach to {}: {e}", debuggee.instance_name);
        }
        match client.attach(identity, &debuggee.id).await {
            Ok(attach) => {
                if !client.pin_session() {
                    tracing::warn!(
                        "attached without a user context cookie; the session cannot be pinned"
                    );
                }
                return Ok((client, attach));
            }
            Err(e) if transient(&e) => match delays.next() {
                Some(delay) => {
                    tracing::warn!("attach failed ({e}); trying again");
                    let _ = client.end_session().await;
                    tokio::time::sleep(*delay).await;
                }
                None => return Err(e),
            },
            Err(e) => return Err(e),
        }
    }
}

/// Makes an attached stop a thread and reports it; beyond the thread cap, releases it.
pub(crate) async fn settle(engine: &Arc<Engine>, caught: Caught) {
    let Caught {
        debuggee,
        client,
        attach,
    } = caught;
    // The cap is checked and the thread added in one step: settles of several catches run at
    // once, and each must see the threads the others added.
    let policy = match engine.config.release {
        crate::config::ReleasePolicy::Continue => "continued",
        crate::config::ReleasePolicy::Terminate => "terminated",
    };
    let placed = engine.update(|inner| {
        if inner.threads.len() >= engine.config.max_threads {
            // The run that started it is told before the program is let go, as the policy
            // lets it go: the run may answer as soon as its program ran on.
            Err(inner.release_run(&debuggee.program, policy))
        } else {
            Ok(inner.add_thread(|t| Attached::new(t, client.clone(), debuggee.clone())))
        }
    });
    let thread = match placed {
        Ok(thread) => thread,
        Err(run) => {
            let how = crate::release::release_debuggee(engine, &client).await;
            let _ = client.end_session().await;
            engine.update(|inner| {
                if let Some(link) = run.and_then(|r| inner.runs.get_mut(&r)) {
                    link.released = Some(how.clone());
                }
            });
            engine.emit(
                EventKind::ThreadReleased(ThreadReleased {
                    program: debuggee.program.clone(),
                    how,
                    reason: Some("thread cap reached".into()),
                    max_threads: Some(engine.config.max_threads),
                }),
                None,
            );
            return;
        }
    };
    // On disk before anything is said about it: a kill right after the `stopped` event must
    // still find the program in the state file.
    crate::statefile::record_now(engine).await;
    crate::keepalive::start(engine, thread);
    let settings = engine.lock().settings;
    if let Some(settings) = settings
        && let Err(e) = client.settings(&settings).await
    {
        tracing::warn!("cannot apply the debugger settings to thread {thread}: {e}");
    }
    // A program a `run` or `test` started stops for that request: its client's wait takes
    // this stop for its own (other clients see the event without a cause).
    let cause = {
        let inner = engine.lock();
        inner
            .threads
            .get(&thread)
            .and_then(|d| d.run)
            .and_then(|r| inner.runs.get(&r))
            .and_then(|link| link.origin.clone())
    };
    match describe_stop(
        engine,
        thread,
        &client,
        StopReason::Breakpoint(attach.reached_breakpoints),
    )
    .await
    {
        Ok(stop) => engine.emit(EventKind::Stopped(Box::new(stop)), cause.as_ref()),
        Err(e) => {
            tracing::error!("attached, but cannot read the stack: {e}");
            engine.emit(
                EventKind::Stopped(Box::new(crate::to_proto::unreadable_stop(
                    thread,
                    e.to_string(),
                ))),
                cause.as_ref(),
            );
        }
    }
}

/// Deletes our listener on the server and makes sure it stays deleted: a poll that was still
/// on its way when we let go can register it again after the DELETE, so check and repeat.
pub(crate) async fn stop_on_server(
    engine: &Engine,
    identity: &adt::Identity,
) -> Result<(), adt::AdtError> {
    for attempt in 0..20u64 {
        engine.main.stop_listener(identity).await?;
        tokio::time::sleep(Duration::from_millis(20 + 10 * attempt)).await;
        if !engine.main.listener_exists(identity).await? {
            return Ok(());
        }
        tracing::debug!("listener registered again after DELETE (attempt {attempt}), repeating");
    }
    // Said as it is: the receipt must not claim a listener stopped that is still there.
    Err(adt::AdtError::Unexpected {
        operation: "stop listener".into(),
        status: None,
        message: "the listener was registered again after every DELETE".into(),
        body: String::new(),
    })
}

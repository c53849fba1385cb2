//! Listeners for other users: a `dump.catch` of another user's dump sets breakpoints with that
//! user as `requestUser`, and only a listener with the same `requestUser` (our terminal and
//! IDE ids) is told when one of that user's runs stops there (adt-wire.md, listener and
//! breakpoints). Each such listener has its own poll loop; a stop it catches is attached and
//! reported like any other. It is held only while a breakpoint for that user is.

use std::sync::Arc;
use std::time::Duration;

use jsonl::EventKind;
use jsonl::events::{ListenerConflict, ListenerFailed};

use crate::engine::Engine;

/// One other user's listener, as far as we know it.
#[derive(Default)]
pub(crate) struct UserListener {
    pub(crate) task: Option<tokio::task::JoinHandle<()>>,
    pub(crate) armed: bool,
    /// A poll was sent since it was last deleted on the system: every exit deletes it.
    pub(crate) registered: bool,
    /// Why it gave up (a conflict, repeated failures).
    pub(crate) error: Option<jsonl::ErrorBody>,
}

/// Starts listening for `user` if no poll loop runs for that user. Returns at once.
pub(crate) fn ensure_started(engine: &Arc<Engine>, user: &str) {
    let user = user.to_uppercase();
    // The check and the start are one step (as for our own listener): two catches at once
    // must not start two poll loops for one identity, the second displacing the first.
    let again = engine.clone();
    engine.update(move |inner| {
        let l = inner.other_listeners.entry(user.clone()).or_default();
        l.error = None;
        if l.task.as_ref().is_none_or(|t| t.is_finished()) {
            l.task = Some(tokio::spawn(run(again, user)));
        }
    });
}

/// Waits until `user`'s listener is armed on the server, at most `timeout`.
pub(crate) async fn wait_armed(
    engine: &Arc<Engine>,
    user: &str,
    timeout: Duration,
) -> Result<(), jsonl::ErrorBody> {
    let mut rx = engine.watch();
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        {
            let inner = engine.lock();
            match inner.other_listeners.get(user) {
                Some(l) if l.armed => return Ok(()),
                Some(l) => {
                    if let Some(e) = &l.error {
                        return Err(e.clone());
                    }
                }
                None => {
                    return Err(jsonl::ErrorBody::new(
                        jsonl::ErrorCode::Internal,
                        format!("no listener for {user} was started"),
                    ));
                }
            }
        }
        if tokio::time::timeout_at(deadline, rx.changed())
            .await
            .is_err()
        {
            return Err(jsonl::ErrorBody::new(
                jsonl::ErrorCode::Timeout,
                format!(
                    "the listener for {user} could not be armed, so their runs would not be caught"
                ),
            )
            .with_hint("check 'status' and the stderr log, then retry"));
        }
    }
}

/// Whether `user`'s listener is armed.
pub(crate) fn armed(engine: &Engine, user: &str) -> bool {
    engine
        .lock()
        .other_listeners
        .get(user)
        .is_some_and(|l| l.armed)
}

/// Stops (on the system too) the listeners of users none of our breakpoints is for any more.
pub(crate) async fn prune(engine: &Arc<Engine>) {
    let idle: Vec<String> = {
        let inner = engine.lock();
        let wanted = inner.breakpoints.other_users();
        inner
            .other_listeners
            .keys()
            .filter(|u| !wanted.contains(u))
            .cloned()
            .collect()
    };
    for user in idle {
        if let Err(e) = stop(engine, &user).await {
            tracing::warn!("cannot stop the listener for {user}: {e}");
        }
    }
}

/// Ends `user`'s poll loop and deletes the listener on the system; forgotten once deleted.
pub(crate) async fn stop(engine: &Arc<Engine>, user: &str) -> Result<(), adt::AdtError> {
    let held = engine.update(|inner| {
        inner.other_listeners.get_mut(user).map(|l| {
            if let Some(task) = l.task.take() {
                task.abort();
            }
            l.armed = false;
            l.registered
        })
    });
    let Some(registered) = held else {
        return Ok(());
    };
    if registered {
        crate::listener::stop_on_server(engine, &engine.identity_for(Some(user))).await?;
    }
    engine.update(|inner| inner.other_listeners.remove(user));
    Ok(())
}

fn set(engine: &Engine, user: &str, change: impl FnOnce(&mut UserListener)) {
    engine.update(|inner| {
        if let Some(l) = inner.other_listeners.get_mut(user) {
            change(l);
        }
    });
}

/// Whether `user`'s poll loop ends after giving up: it does unless a catch asked for that user
/// again meanwhile (which clears the error); ending, it forgets itself in the same step, so the
/// next catch starts a new loop.
fn ends_unless_asked_again(engine: &Engine, user: &str) -> bool {
    let mut inner = engine.lock();
    let Some(l) = inner.other_listeners.get_mut(user) else {
        return true;
    };
    if l.error.is_none() {
        return false;
    }
    forget_own_task(l);
    true
}

/// Drops the handle of `user`'s poll loop if it is this task's (never a newer loop's).
fn forget_own_task(l: &mut UserListener) {
    let own = tokio::task::try_id();
    if own.is_some() && l.task.as_ref().map(|t| t.id()) == own {
        l.task = None;
    }
}

async fn run(engine: Arc<Engine>, user: String) {
    let identity = engine.identity_for(Some(&user));
    let mut failures: u32 = 0;
    loop {
        if engine.lock().shutting_down {
            return;
        }
        let sent = tokio::time::Instant::now();
        let poll = {
            let client = engine.listen_client.clone();
            let identity = identity.clone();
            let secs = engine.config.listener_poll_secs;
            set(&engine, &user, |l| l.registered = true);
            tokio::spawn(async move { client.listen_opts(&identity, secs, true).await })
        };
        if !armed(&engine, &user) {
            let mark = |inner: &mut crate::engine::Inner| {
                if let Some(l) = inner.other_listeners.get_mut(&user) {
                    l.armed = true;
                }
            };
            crate::listener::confirm_armed(&engine, &identity, &poll, mark).await;
        }
        let outcome = match poll.await {
            Ok(outcome) => outcome,
            Err(join) => {
                tracing::warn!("the poll for {user} failed: {join}");
                return;
            }
        };
        match outcome {
            Ok(None) => {
                failures = 0;
                // Back long before its time: deleted on the system (another tool of that
                // user); arm it again, which also puts that user's breakpoints back.
                let full = Duration::from_secs(u64::from(engine.config.listener_poll_secs));
                if sent.elapsed() < full / 2 {
                    set(&engine, &user, |l| l.armed = false);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
            Ok(Some(debuggee)) => {
                failures = 0;
                if let Some(caught) = crate::listener::attach(&engine, &identity, debuggee).await {
                    let engine = engine.clone();
                    tokio::spawn(async move { crate::listener::settle(&engine, caught).await });
                }
            }
            Err(e) if e.class() == adt::ErrorClass::ListenerConflict => {
                let ex = e.exception();
                let displaced =
                    ex.and_then(|x| x.subtype.as_deref()) == Some("conflictNotification");
                let error = crate::errors::from_adt(&format!("listening for {user}"), &e);
                // The listener on the system is the other debugger's: ours to delete no more.
                set(&engine, &user, |l| {
                    l.armed = false;
                    l.registered = false;
                    l.error = Some(error);
                    forget_own_task(l);
                });
                engine.emit(
                    EventKind::ListenerConflict(ListenerConflict {
                        message: format!("listening for {user}: {e}"),
                        displaced,
                        holder: ex.and_then(|x| x.ide_user.clone()),
                        conflict_text: ex.and_then(|x| x.conflict_text.clone()),
                        hint: Some(format!(
                            "another debugger listens for {user}; {user}'s runs are not caught until it stops and the dump is caught again"
                        )),
                        adt: Some(crate::errors::adt_detail(&e)),
                    }),
                    None,
                );
                return;
            }
            Err(e) => {
                failures += 1;
                tracing::warn!("the poll for {user} failed ({failures}): {e}");
                if failures >= 5 {
                    let error = crate::errors::from_adt(&format!("listening for {user}"), &e);
                    set(&engine, &user, |l| {
                        l.armed = false;
                        l.error = Some(error);
                    });
                    if crate::listener::stop_on_server(&engine, &identity)
                        .await
                        .is_ok()
                    {
                        set(&engine, &user, |l| l.registered = false);
                    }
                    engine.emit(
                        EventKind::ListenerFailed(ListenerFailed {
                            message: format!("listening for {user}: {e}"),
                            adt: Some(crate::errors::adt_detail(&e)),
                        }),
                        None,
                    );
                    // A catch for this user while the listener was being deleted cleared the
                    // error and found this task not yet finished: listen on for it.
                    if ends_unless_asked_again(&engine, &user) {
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

//! Letting go of everything we hold on the system: the one exit path every shutdown takes.

use std::sync::Arc;
use std::time::Duration;

use crate::config::ReleasePolicy;
use crate::engine::Engine;

/// What was released, for the `shutdown` response and stderr: the protocol's own type.
pub use jsonl::results::{Receipt, ReleasedDebuggee};

/// One piece of the release, run as a task of its own.
enum Done {
    Listener(Result<(), String>),
    /// Another user's listener (a `dump.catch` of that user's dump).
    UserListener(String, Result<(), String>),
    Breakpoints {
        count: usize,
        result: Result<(), String>,
    },
    Debuggee {
        released: ReleasedDebuggee,
        error: Option<String>,
    },
    Leftover(Box<crate::statefile::Released>),
}

/// What a task of the release is about, to name it when it cannot finish in time.
enum Piece {
    Listener,
    UserListener(String),
    Breakpoints(String),
    Debuggee { thread: u32, program: String },
    Leftover,
}

/// The release's tasks under one deadline: each piece of what we hold is released at the same
/// time as the others, so a silent system costs the bound once, not a request timeout per
/// piece.
struct Bounded {
    tasks: tokio::task::JoinSet<Done>,
    pieces: std::collections::HashMap<tokio::task::Id, Piece>,
    deadline: tokio::time::Instant,
    bound: Duration,
}

impl Bounded {
    fn spawn(
        &mut self,
        piece: Piece,
        work: impl std::future::Future<Output = Done> + Send + 'static,
    ) {
        let handle = self.tasks.spawn(work);
        self.pieces.insert(handle.id(), piece);
    }

    /// Waits for every task until the deadline; what is not done by then is stopped and
    /// written into the receipt as not done.
    async fn finish(&mut self, receipt: &mut Receipt) {
        loop {
            match tokio::time::timeout_at(self.deadline, self.tasks.join_next_with_id()).await {
                Ok(Some(Ok((id, done)))) => {
                    self.pieces.remove(&id);
                    apply(done, receipt);
                }
                Ok(Some(Err(e))) => {
                    let piece = self.pieces.remove(&e.id());
                    not_done(piece, &format!("failed: {e}"), receipt);
                }
                Ok(None) => return,
                Err(_) => {
                    self.tasks.abort_all();
                    let why = format!(
                        "not done: the system did not answer within {} s",
                        self.bound.as_secs_f64()
                    );
                    for (_, piece) in self.pieces.drain() {
                        not_done(Some(piece), &why, receipt);
                    }
                    return;
                }
            }
        }
    }
}

fn apply(done: Done, receipt: &mut Receipt) {
    match done {
        Done::Listener(Ok(())) => receipt.listener_stopped = true,
        Done::Listener(Err(e)) => receipt.errors.push(format!("stop listener: {e}")),
        Done::UserListener(_, Ok(())) => {}
        Done::UserListener(user, Err(e)) => receipt
            .errors
            .push(format!("stop the listener for {user}: {e}")),
        Done::Breakpoints {
            count,
            result: Ok(()),
        } => receipt.breakpoints_deleted += count,
        Done::Breakpoints { result: Err(e), .. } => receipt.errors.push(e),
        Done::Debuggee { released, error } => {
            receipt.errors.extend(error);
            receipt.debuggees.push(released);
        }
        Done::Leftover(done) => {
            receipt.breakpoints_deleted += done.breakpoints;
            receipt.errors.extend(
                done.errors
                    .into_iter()
                    .map(|e| format!("left by an earlier session: {e}")),
            );
        }
    }
}

fn not_done(piece: Option<Piece>, why: &str, receipt: &mut Receipt) {
    match piece {
        Some(Piece::Listener) => receipt.errors.push(format!("stop listener: {why}")),
        Some(Piece::UserListener(user)) => receipt
            .errors
            .push(format!("stop the listener for {user}: {why}")),
        Some(Piece::Breakpoints(what)) => receipt.errors.push(format!("{what}: {why}")),
        Some(Piece::Debuggee { thread, program }) => {
            receipt
                .errors
                .push(format!("release thread {thread}: {why}"));
            receipt.debuggees.push(ReleasedDebuggee {
                thread,
                program,
                how: format!("failed: {why}"),
            });
        }
        Some(Piece::Leftover) => receipt
            .errors
            .push(format!("left by an earlier session: {why}")),
        None => receipt.errors.push(format!("release: {why}")),
    }
}

pub(crate) async fn release_all(engine: &Arc<Engine>) -> Receipt {
    let mut receipt = Receipt::default();
    // A release of what a killed session left may still be under way: it finishes first (its
    // remainder is then ours to release), bounded like the rest.
    let _ = tokio::time::timeout(engine.config.release_bound, engine.orphans_settled()).await;
    let (task, was_wanted, uris, threads, leftover, unreleased, others) = engine.update(|inner| {
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
            std::mem::take(&mut inner.other_listeners),
        )
    });
    if let Some(task) = task {
        task.abort();
    }
    let bound = engine.config.release_bound;
    let mut run = Bounded {
        tasks: tokio::task::JoinSet::new(),
        pieces: std::collections::HashMap::new(),
        deadline: tokio::time::Instant::now() + bound,
        bound,
    };
    // What we registered we delete, whatever state the poll loop was in (it may have given up).
    if was_wanted {
        let engine = engine.clone();
        run.spawn(Piece::Listener, async move {
            let identity = &engine.config.identity;
            let result = crate::listener::stop_on_server(&engine, identity).await;
            if result.is_ok() {
                engine.update(|inner| inner.listener_registered = false);
            }
            Done::Listener(result.map_err(|e| e.to_string()))
        });
    }
    // Other users' listeners (`dump.catch` of their dumps) go the same way.
    for (user, mut listener) in others {
        if let Some(task) = listener.task.take() {
            task.abort();
        }
        if !listener.registered {
            continue;
        }
        let engine = engine.clone();
        run.spawn(Piece::UserListener(user.clone()), async move {
            let identity = engine.identity_for(Some(&user));
            let result = crate::listener::stop_on_server(&engine, &identity).await;
            Done::UserListener(user, result.map_err(|e| e.to_string()))
        });
    }
    // A re-assert under way finishes first (later ones see `shutting_down` and send nothing),
    // so no breakpoint is put back after it was deleted here.
    let one_at_a_time = tokio::time::timeout_at(run.deadline, engine.breakpoint_sync.lock()).await;
    for (uri, user) in uris {
        // Only what the system holds is counted as deleted.
        let count = engine
            .lock()
            .breakpoints
            .on_system_for(&uri, user.as_deref());
        let what = match &user {
            Some(u) => format!("delete {u}'s breakpoints of {uri}"),
            None => format!("delete breakpoints of {uri}"),
        };
        let engine = engine.clone();
        run.spawn(Piece::Breakpoints(what.clone()), async move {
            let result = engine
                .main
                .set_breakpoints(
                    &engine.identity_for(user.as_deref()),
                    &adt::SyncScope::Partial(uri.clone()),
                    &[],
                )
                .await;
            Done::Breakpoints {
                count,
                result: result.map(|_| ()).map_err(|e| format!("{what}: {e}")),
            }
        });
    }
    let unscoped = engine.lock().breakpoints.unscoped_server_ids();
    for (server_id, user) in unscoped {
        let what = format!("delete breakpoint {server_id}");
        let engine = engine.clone();
        run.spawn(Piece::Breakpoints(what.clone()), async move {
            let result = engine
                .main
                .delete_breakpoint(&engine.identity_for(user.as_deref()), &server_id)
                .await;
            Done::Breakpoints {
                count: 1,
                result: result.map_err(|e| format!("{what}: {e}")),
            }
        });
    }
    // Breakpoints go first, so a released program does not stop again on its way out.
    run.finish(&mut receipt).await;
    drop(one_at_a_time);
    for d in threads.into_values() {
        let engine = engine.clone();
        let piece = Piece::Debuggee {
            thread: d.thread,
            program: d.record.program.clone(),
        };
        run.spawn(piece, async move {
            let how = release_thread(&engine, &d.client, &d.record).await;
            let error = how
                .starts_with("failed")
                .then(|| format!("release thread {}: {how}", d.thread));
            let _ = d.client.end_session().await;
            Done::Debuggee {
                released: ReleasedDebuggee {
                    thread: d.thread,
                    program: d.record.program.clone(),
                    how,
                },
                error,
            }
        });
    }
    for t in unreleased {
        let engine = engine.clone();
        let piece = Piece::Debuggee {
            thread: t.thread,
            program: t.program.clone(),
        };
        run.spawn(piece, async move {
            let (how, error) = match release_held(&engine, &t).await {
                Ok(how) => (how, None),
                Err(e) => (
                    format!("failed: {e}"),
                    Some(format!("release thread {}: {e}", t.thread)),
                ),
            };
            Done::Debuggee {
                released: ReleasedDebuggee {
                    thread: t.thread,
                    program: t.program.clone(),
                    how,
                },
                error,
            }
        });
    }
    if let Some(old) = leftover {
        let engine = engine.clone();
        run.spawn(Piece::Leftover, async move {
            Done::Leftover(Box::new(
                crate::statefile::release_snapshot(&engine, old).await,
            ))
        });
    }
    run.finish(&mut receipt).await;
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

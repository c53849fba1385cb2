//! Where a request acts: the thread and the stack frame it names, else the session's current
//! thread and that thread's selected frame. Naming them is for that request only: nothing
//! here changes `Inner::current` or `Attached::selected`, so one client's request never
//! changes what another client's next request means.
//!
//! ADT keeps one stack position per debuggee session (`setStackPosition`), and variable reads
//! answer for the frame the session is positioned at. Each thread keeps which frame that is
//! behind an async mutex ([`Position`]); a read that needs the system takes it, moves the
//! position only when it is at another frame, and holds it until its answer is in, so two
//! clients reading different frames of one thread never read each other's frame. A movement
//! holds it while the program runs (the system puts the position back on the innermost frame
//! at every stop).

use std::sync::Arc;

use jsonl::{ErrorBody, ErrorCode};
use tokio::sync::{Mutex, OwnedMutexGuard};

use crate::engine::{Engine, Inner};
use crate::errors::from_adt;

/// The frame a thread's debug session is positioned at (0 = innermost).
pub(crate) type Position = Arc<Mutex<usize>>;

/// A fresh session's position: the innermost frame.
pub(crate) fn innermost() -> Position {
    Arc::new(Mutex::new(0))
}

/// The thread and frame one request acts on, taken when the request began.
#[derive(Clone)]
pub(crate) struct At {
    pub(crate) thread: u32,
    /// The frame (0 = innermost).
    pub(crate) frame: usize,
    pub(crate) client: adt::Client,
    /// The frame's stack entry; `None` only when the stop's stack could not be read (then
    /// the frame is 0).
    pub(crate) entry: Option<adt::StackEntry>,
    /// Which stop of the thread this is (`Attached::stops`): a read that waited for the
    /// position while the program moved on is refused rather than answered for another stop.
    pub(crate) stop: u64,
    position: Position,
}

/// The current thread of the session, when there is one (`state.not_stopped` otherwise).
fn thread_of(inner: &Inner, thread: Option<u32>) -> Result<u32, ErrorBody> {
    match thread {
        Some(t) if inner.threads.contains_key(&t) => Ok(t),
        Some(t) => {
            let known: Vec<u32> = inner.threads.keys().copied().collect();
            Err(
                ErrorBody::new(ErrorCode::NoDebuggee, format!("no thread {t}")).with_hint(
                    if known.is_empty() {
                        "no program is attached; 'threads' lists them once one is caught"
                            .to_string()
                    } else {
                        format!("attached threads: {known:?} ('threads' lists them)")
                    },
                ),
            )
        }
        None => inner.current.ok_or_else(|| {
            ErrorBody::new(ErrorCode::NotStopped, "no debuggee is stopped").with_hint(
                "set a breakpoint, then 'run' a class (or 'listen') and 'wait' until stopped",
            )
        }),
    }
}

/// The stopped thread and frame a request names (`None`: the session's current thread, the
/// thread's selected frame). Refuses a thread that is not attached (`state.no_debuggee`), one
/// that is running (`state.not_stopped`) and a frame the stop does not have
/// (`protocol.invalid_args`).
pub(crate) fn resolve(
    engine: &Engine,
    thread: Option<u32>,
    frame: Option<usize>,
) -> Result<At, ErrorBody> {
    let inner = engine.lock();
    let thread = thread_of(&inner, thread)?;
    let Some(d) = inner.threads.get(&thread) else {
        return Err(ErrorBody::new(
            ErrorCode::NoDebuggee,
            format!("no thread {thread}"),
        ));
    };
    if d.running {
        return Err(ErrorBody::new(
            ErrorCode::NotStopped,
            format!("thread {thread} is running (a step or continue is in flight)"),
        )
        .with_hint(
            "wait for the 'stopped' event or send {\"cmd\":\"wait\",\"args\":{\"until\":\"stopped\"}}",
        ));
    }
    let index = frame.unwrap_or(d.selected);
    let entry = d.stack.get(index).cloned();
    // A stop whose stack could not be read still has its innermost frame.
    if entry.is_none() && !(index == 0 && d.stack.is_empty()) {
        return Err(ErrorBody::new(
            ErrorCode::InvalidArgs,
            format!(
                "no frame {index} in thread {thread} (its stack has {} frames)",
                d.stack.len()
            ),
        )
        .with_hint(format!(
            "list the frames with {{\"cmd\":\"stack\",\"args\":{{\"thread\":{thread}}}}}"
        )));
    }
    Ok(At {
        thread,
        frame: index,
        client: d.client.clone(),
        entry,
        stop: d.stops,
        position: d.position.clone(),
    })
}

impl At {
    /// Holds the thread's position for a movement: reads of the thread wait until the
    /// program stopped again (and then find their stop gone). The movement sets it to the
    /// innermost frame once the program moved: the system positions every stop there.
    pub(crate) async fn hold_for_move(&self) -> OwnedMutexGuard<usize> {
        self.position.clone().lock_owned().await
    }

    /// Holds the thread's debug session at this request's frame: waits for other reads and
    /// movements of the thread, moves the position when it is elsewhere, and keeps it there
    /// until the guard is dropped. Refuses when the program moved on (or ended) meanwhile.
    pub(crate) async fn positioned(
        &self,
        engine: &Engine,
    ) -> Result<OwnedMutexGuard<usize>, ErrorBody> {
        let mut at = self.position.clone().lock_owned().await;
        let same_stop = {
            let inner = engine.lock();
            inner
                .threads
                .get(&self.thread)
                .is_some_and(|d| !d.running && d.stops == self.stop)
        };
        if !same_stop {
            return Err(ErrorBody::new(
                ErrorCode::StaleReference,
                format!(
                    "thread {} moved on (or ended) while this request waited for it",
                    self.thread
                ),
            )
            .with_hint("send the request again: it answers for the new stop"));
        }
        if *at != self.frame {
            if let Some(entry) = &self.entry {
                self.client
                    .set_stack_position(entry)
                    .await
                    .map_err(|e| from_adt(&format!("selecting frame {}", self.frame), &e))?;
            }
            *at = self.frame;
        }
        Ok(at)
    }
}

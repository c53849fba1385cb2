//! A stopped program whose front end died is let go after a grace period.
//!
//! A front end can die at a stop (a closed terminal, a killed editor adapter): without this,
//! its program stayed frozen on the system until the session's idle exit, half an hour later.
//! Front ends that attend a stop (the REPL, DAP, MCP: `hello` with `attended: true`) make the
//! session watch for that: when a program is stopped and every client that attended is gone,
//! a socket-only session counts down `EngineConfig::release_grace` (while such a client is
//! connected again the count holds; it goes on when it is gone again); at its end
//! the stopped programs are released by the session's release policy (continued past our
//! breakpoints, or terminated), each with a `debuggee.ended` event. The listener and the
//! breakpoints stay: the session goes on. One-shot commands, whose connections end after
//! every command, never start the count. `status` shows it.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use crate::engine::Engine;

#[derive(Debug, Default)]
struct Count {
    /// What is left of the grace, while counting.
    left: Option<Duration>,
    /// When the count was last looked at.
    last: Option<Instant>,
}

/// The count, and the clients that attend stops.
#[derive(Debug, Default)]
pub(crate) struct Grace {
    count: Mutex<Count>,
    attending: Mutex<Attending>,
}

#[derive(Debug, Default)]
struct Attending {
    /// Connected clients that said they attend stops.
    now: BTreeSet<crate::engine::ClientId>,
    /// One did since the last release.
    ever: bool,
}

impl Grace {
    fn count(&self) -> std::sync::MutexGuard<'_, Count> {
        self.count.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn attending(&self) -> std::sync::MutexGuard<'_, Attending> {
        self.attending.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A client that attends stops said hello.
    pub(crate) fn attend(&self, client: crate::engine::ClientId) {
        let mut a = self.attending();
        a.now.insert(client);
        a.ever = true;
    }

    /// A client went away.
    pub(crate) fn leave(&self, client: crate::engine::ClientId) {
        self.attending().now.remove(&client);
    }

    /// Seconds left before the stopped programs are released (rounded up), while counting.
    pub(crate) fn seconds_left(&self) -> Option<u64> {
        self.count()
            .left
            .map(|left| left.as_secs() + u64::from(left.subsec_nanos() > 0))
    }
}

/// Looks at the session once (the serve loop calls it every second of a socket-only
/// session): starts, holds, goes on with or ends the count. Ending it releases the stopped
/// programs in a task of its own.
pub(crate) fn tick(engine: &Arc<Engine>) {
    let stopped = {
        let inner = engine.lock();
        !inner.shutting_down && inner.threads.values().any(|d| !d.running)
    };
    // Only the clients that attend stops count: a one-shot command's connection can outlive
    // its process for a while (its `run` is still answered), and says nothing about whether
    // a person is at the stop.
    let (watched, alone) = {
        let a = engine.grace.attending();
        (stopped && a.ever, a.now.is_empty())
    };
    tracing::trace!(stopped, watched, alone, "grace tick");
    let now = Instant::now();
    let mut count = engine.grace.count();
    let since_last = count
        .last
        .map(|t| now.duration_since(t))
        .unwrap_or_default();
    count.last = Some(now);
    if !watched {
        count.left = None;
        return;
    }
    let Some(left) = count.left else {
        if alone {
            tracing::info!(
                "the client that attended the stop is gone: releasing the stopped program in {:?} unless one connects",
                engine.config.release_grace
            );
            count.left = Some(engine.config.release_grace);
        }
        return;
    };
    if !alone {
        return; // held while someone is connected
    }
    let left = left.saturating_sub(since_last);
    if left.is_zero() {
        count.left = None;
        engine.grace.attending().ever = false;
        let engine = engine.clone();
        tokio::spawn(async move { release_unattended(&engine).await });
    } else {
        count.left = Some(left);
    }
}

/// Releases every stopped program by the session's policy and says so.
async fn release_unattended(engine: &Arc<Engine>) {
    let stopped: Vec<(u32, adt::Client, adt::Debuggee, Option<u64>)> = engine.update(|inner| {
        let threads: Vec<u32> = inner
            .threads
            .iter()
            .filter(|(_, d)| !d.running)
            .map(|(t, _)| *t)
            .collect();
        threads
            .into_iter()
            .filter_map(|t| inner.remove_thread(t))
            .map(|d| (d.thread, d.client, d.record, d.run))
            .collect()
    });
    let secs = engine.config.release_grace.as_secs();
    for (thread, client, record, run) in stopped {
        let how = crate::release::release_thread(engine, &client, &record).await;
        tracing::warn!(
            "released thread {thread} ({}) {secs} s after the client attending it went away: {how}",
            record.program
        );
        let message = format!(
            "the client attending the stop went away and none came back within {secs} s: released ({how})"
        );
        crate::runs::announce_end(
            engine,
            thread,
            jsonl::results::EndReason::Detached,
            Some(message),
            run,
            None,
        )
        .await;
        let _ = client.end_session().await;
    }
    crate::statefile::record_now(engine).await;
}

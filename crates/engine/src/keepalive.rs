//! Keeping a stopped debuggee's session alive, and noticing when it went away.
//!
//! A stateful ADT session idles out on the server; a debuggee left stopped in it would then be
//! unreachable (a frozen work process). While a thread is stopped we read its stack now and
//! then: that keeps the session in use, and an error that says the debuggee is gone becomes a
//! `debuggee.ended` event instead of a surprise on the user's next command.

use std::sync::Arc;

use crate::engine::Engine;

pub(crate) fn start(engine: &Arc<Engine>, thread: u32) {
    let engine = engine.clone();
    tokio::spawn(async move {
        let period = engine.config.keepalive;
        loop {
            // A command that found a session lost wakes every keepalive at once.
            tokio::select! {
                () = tokio::time::sleep(period) => {}
                () = engine.check_sessions.notified() => {}
            }
            // The thread's session now (a recovery may have replaced it).
            let (client, busy) = {
                let inner = engine.lock();
                if inner.shutting_down {
                    return;
                }
                match inner.threads.get(&thread) {
                    Some(d) => (d.client.clone(), d.running || d.recovering),
                    None => return,
                }
            };
            if busy {
                continue; // a step or a recovery is in flight: the session is busy anyway
            }
            match client.stack().await {
                Ok(_) => {}
                Err(e) if crate::recovery::is_lost(&e) => {
                    crate::recovery::recover(&engine, thread).await;
                }
                Err(e) if crate::errors::is_gone(&e) => {
                    let removed = engine.update(|inner| inner.remove_thread(thread));
                    if let Some(gone) = removed {
                        crate::runs::announce_end(
                            &engine,
                            thread,
                            jsonl::results::EndReason::Lost,
                            Some(e.to_string()),
                            gone.run,
                            None,
                        )
                        .await;
                    }
                    let _ = client.end_session().await;
                    return;
                }
                Err(e) => tracing::warn!("keepalive of thread {thread} failed: {e}"),
            }
        }
    });
}

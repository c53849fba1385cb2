//! Letting go of everything we hold on the system: the one exit path every shutdown takes.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::config::ReleasePolicy;
use crate::engine::Engine;

/// What was released, for the `shutdown` response and stderr.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Receipt {
    pub listener_stopped: bool,
    pub breakpoints_deleted: usize,
    /// `continued` (ran to its end), `terminated`, or `failed: …`.
    pub debuggees: Vec<ReleasedDebuggee>,
    pub errors: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReleasedDebuggee {
    pub thread: u32,
    pub program: String,
    pub how: String,
}

impl Receipt {
    pub fn summary(&self) -> String {
        format!(
            "abapdbg released: listener {}, {} breakpoint(s) deleted, {} debuggee(s) released{}",
            if self.listener_stopped {
                "stopped"
            } else {
                "was not armed"
            },
            self.breakpoints_deleted,
            self.debuggees.len(),
            if self.errors.is_empty() {
                String::new()
            } else {
                format!(
                    ", {} error(s): {}",
                    self.errors.len(),
                    self.errors.join("; ")
                )
            }
        )
    }
}

pub(crate) async fn release_all(engine: &Arc<Engine>) -> Receipt {
    let mut receipt = Receipt::default();
    let (task, was_wanted, uris, threads) = engine.update(|inner| {
        inner.current = None;
        inner.shutting_down = true;
        let was = inner.listener_wanted || inner.listener_armed;
        inner.listener_wanted = false;
        inner.listener_armed = false;
        (
            inner.listener_task.take(),
            was,
            inner.breakpoints.uris(),
            std::mem::take(&mut inner.threads),
        )
    });
    if let Some(task) = task {
        task.abort();
    }
    let identity = &engine.config.identity;
    if was_wanted {
        match crate::listener::stop_on_server(engine, identity).await {
            Ok(()) => receipt.listener_stopped = true,
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
        let how = release_debuggee(engine, &d.client).await;
        receipt.debuggees.push(super::release::ReleasedDebuggee {
            thread: d.thread,
            program: d.record.program.clone(),
            how,
        });
        let _ = d.client.end_session().await;
    }
    engine.update(|_| ());
    receipt
}

pub(crate) async fn release_debuggee(engine: &Arc<Engine>, client: &adt::Client) -> String {
    let step = match engine.config.release {
        ReleasePolicy::Continue => {
            tokio::time::timeout(
                Duration::from_secs(10),
                client.step(adt::StepKind::Continue),
            )
            .await
        }
        ReleasePolicy::Terminate => return terminate(client).await,
    };
    match step {
        Ok(Ok(adt::StepOutcome::Ended)) => "continued".into(),
        Ok(Err(e)) if is_gone(&e) => "continued".into(),
        // Still stopped (a breakpoint we do not own) or still running after the bound: kill it
        // rather than leave a work process frozen.
        Ok(Ok(adt::StepOutcome::Stopped { .. })) | Err(_) => terminate(client).await,
        Ok(Err(e)) => {
            let t = terminate(client).await;
            format!("{t} (continue failed: {e})")
        }
    }
}

async fn terminate(client: &adt::Client) -> String {
    match client.terminate().await {
        Ok(()) => "terminated".into(),
        Err(e) if is_gone(&e) => "terminated".into(),
        Err(e) => format!("failed: {e}"),
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

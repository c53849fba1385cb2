//! The serve loop: read request lines, run each in its own task, answer every one, and release
//! everything we hold on every way out (stdin EOF, `shutdown`, the caller's shutdown signal).

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

use jsonl::{ErrorBody, ErrorCode, parse_request};
use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncWrite};

use crate::commands;
use crate::config::EngineConfig;
use crate::engine::Engine;
use crate::linereader::{LineRead, read_line_bounded};
use crate::outbox::Outbox;
use crate::release::{Receipt, release_all};

/// Why `serve` could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Adt(#[from] adt::AdtError),
    #[error(transparent)]
    State(#[from] crate::statefile::StateError),
}

/// A request still waiting for its answer.
struct InFlight {
    id: Value,
    cmd: String,
    abort: Option<tokio::task::AbortHandle>,
}

/// Requests still waiting for their answer, so each gets exactly one even on shutdown or
/// `cancel`.
type Pending = Arc<Mutex<HashMap<u64, InFlight>>>;

fn lock(p: &Pending) -> std::sync::MutexGuard<'_, HashMap<u64, InFlight>> {
    p.lock().unwrap_or_else(|e| e.into_inner())
}

/// `cancel`: answers the named request with `request.cancelled` and stops waiting for it.
fn cancel(engine: &Engine, pending: &Pending, args: &Value) -> Result<Value, ErrorBody> {
    let args: jsonl::args::CancelArgs = jsonl::args::decode("cancel", args)?;
    let found: Vec<InFlight> = {
        let mut map = lock(pending);
        let keys: Vec<u64> = map
            .iter()
            .filter(|(_, f)| f.id == args.id)
            .map(|(k, _)| *k)
            .collect();
        keys.into_iter().filter_map(|k| map.remove(&k)).collect()
    };
    let cancelled = !found.is_empty();
    for f in found {
        if let Some(abort) = f.abort {
            abort.abort();
        }
        engine.respond(
            f.id,
            &f.cmd,
            Err(ErrorBody::new(
                ErrorCode::Cancelled,
                "cancelled by request; anything it started on the system reports through events",
            )),
        );
    }
    Ok(json!({ "cancelled": cancelled, "id": args.id }))
}

/// Speaks the protocol on `input`/`output` until stdin EOF, `shutdown`, or `stop` resolves;
/// then releases everything and returns the receipt. Errors only if the engine cannot start
/// (e.g. an invalid base URL).
pub async fn serve<R, W, S>(
    config: EngineConfig,
    mut input: R,
    output: W,
    stop: S,
) -> Result<Receipt, ServeError>
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
    S: Future<Output = ()>,
{
    let (outbox, writer) = Outbox::start(output);
    let orphan = match &config.state_file {
        Some(path) => crate::statefile::claim(path)?,
        None => None,
    };
    let state_file = config.state_file.clone();
    let engine = Engine::new(config, outbox)?;
    engine.emit(
        "ready",
        json!({
            "protocol": jsonl::PROTOCOL_VERSION,
            "version": env!("CARGO_PKG_VERSION"),
            "pid": std::process::id(),
            "system": engine.config.adt.base_url,
        }),
        None,
    );
    if let Some(old) = orphan {
        crate::statefile::release_orphan(&engine, old).await;
    }
    let writer_task = state_file
        .clone()
        .map(|path| crate::statefile::start_writer(&engine, path));
    let pending: Pending = Arc::default();
    let mut tasks = tokio::task::JoinSet::new();
    let mut next_key: u64 = 0;
    tokio::pin!(stop);
    let mut shutdown_request: Option<Value> = None;
    loop {
        let read = tokio::select! {
            read = read_line_bounded(&mut input, jsonl::MAX_LINE_BYTES) => read,
            () = &mut stop => break,
        };
        let line = match read {
            Ok(LineRead::Line(line)) => line,
            Ok(LineRead::Eof) => break,
            Ok(LineRead::TooLong) => {
                let err = ErrorBody::new(
                    ErrorCode::TooLarge,
                    format!("request line longer than {} bytes", jsonl::MAX_LINE_BYTES),
                );
                engine.respond(Value::Null, "", Err(err));
                continue;
            }
            Err(e) => {
                tracing::error!("cannot read requests: {e}");
                break;
            }
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let req = match parse_request(&line) {
            Ok(req) => req,
            Err(rejected) => {
                engine.respond(rejected.id, "", Err(*rejected.error));
                continue;
            }
        };
        if req.cmd == "shutdown" {
            shutdown_request = Some(req.id);
            break;
        }
        if req.cmd == "cancel" {
            let outcome = cancel(&engine, &pending, &req.args);
            engine.respond(req.id, "cancel", outcome);
            continue;
        }
        next_key += 1;
        let key = next_key;
        lock(&pending).insert(
            key,
            InFlight {
                id: req.id.clone(),
                cmd: req.cmd.clone(),
                abort: None,
            },
        );
        let (task_engine, task_pending) = (engine.clone(), pending.clone());
        let handle = tasks.spawn(async move {
            let outcome = commands::dispatch(&task_engine, &req).await;
            let still_pending = lock(&task_pending).remove(&key).is_some();
            if still_pending {
                task_engine.respond(req.id, &req.cmd, outcome);
            }
        });
        if let Some(f) = lock(&pending).get_mut(&key) {
            f.abort = Some(handle);
        }
        // Reap finished tasks so the set does not grow with the session.
        while tasks.try_join_next().is_some() {}
    }

    let receipt = release_all(&engine).await;
    if let Some(task) = writer_task {
        // Abort and wait, so no write can still be under way when the file is removed.
        task.abort();
        let _ = task.await;
    }
    if let Some(path) = &state_file {
        if receipt.errors.is_empty() {
            crate::statefile::remove(path);
        } else {
            // Something could not be released: keep the last record for the next start.
            tracing::warn!(
                "keeping the state file {}: {} item(s) could not be released",
                path.display(),
                receipt.errors.len()
            );
        }
    }
    tasks.abort_all();
    let unanswered: Vec<(Value, String)> =
        lock(&pending).drain().map(|(_, f)| (f.id, f.cmd)).collect();
    for (id, cmd) in unanswered {
        engine.respond(
            id,
            &cmd,
            Err(ErrorBody::new(
                ErrorCode::ShuttingDown,
                "the session shut down before this request completed",
            )),
        );
    }
    if let Some(id) = shutdown_request {
        let result = serde_json::to_value(&receipt).unwrap_or(Value::Null);
        engine.respond(id, "shutdown", Ok(json!({ "receipt": result })));
    }
    engine.close_outbox();
    let _ = writer.await;
    Ok(receipt)
}

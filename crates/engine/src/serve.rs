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

/// Requests still waiting for their answer, so each gets exactly one even on shutdown.
type Pending = Arc<Mutex<HashMap<u64, (Value, String)>>>;

/// Speaks the protocol on `input`/`output` until stdin EOF, `shutdown`, or `stop` resolves;
/// then releases everything and returns the receipt. Errors only if the engine cannot start
/// (e.g. an invalid base URL).
pub async fn serve<R, W, S>(
    config: EngineConfig,
    mut input: R,
    output: W,
    stop: S,
) -> Result<Receipt, adt::AdtError>
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
    S: Future<Output = ()>,
{
    let (outbox, writer) = Outbox::start(output);
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
        next_key += 1;
        let key = next_key;
        pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key, (req.id.clone(), req.cmd.clone()));
        let (engine, pending) = (engine.clone(), pending.clone());
        tasks.spawn(async move {
            let outcome = commands::dispatch(&engine, &req).await;
            let still_pending = pending
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&key)
                .is_some();
            if still_pending {
                engine.respond(req.id, &req.cmd, outcome);
            }
        });
        // Reap finished tasks so the set does not grow with the session.
        while tasks.try_join_next().is_some() {}
    }

    let receipt = release_all(&engine).await;
    tasks.abort_all();
    let unanswered: Vec<(Value, String)> = pending
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .drain()
        .map(|(_, v)| v)
        .collect();
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

//! `hello` and `status`.

use std::sync::Arc;

use serde_json::{Value, json};

use super::Outcome;
use crate::engine::Engine;

pub(crate) fn hello(engine: &Arc<Engine>, _args: &Value) -> Outcome {
    Ok(json!({
        "protocol": jsonl::PROTOCOL_VERSION,
        "server": {"name": "abapdbg", "version": env!("CARGO_PKG_VERSION")},
        "commands": jsonl::COMMANDS,
        "events": jsonl::EVENTS,
        "limits": {"max_line_bytes": jsonl::MAX_LINE_BYTES},
        "system": {
            "url": engine.config.adt.base_url,
            "user": engine.config.adt.user,
            "client": engine.config.adt.client,
        },
    }))
}

pub(crate) fn status(engine: &Arc<Engine>) -> Outcome {
    let inner = engine.lock();
    let threads: Vec<Value> = inner
        .threads
        .values()
        .map(|d| d.to_json(inner.current == Some(d.thread)))
        .collect();
    Ok(json!({
        "state": inner.state().as_str(),
        "epoch": inner.epoch,
        "listener": {"wanted": inner.listener_wanted, "armed": inner.listener_armed},
        "current_thread": inner.current,
        "debuggee": inner.current().map(|d| d.to_json(true)),
        "threads": threads,
        "breakpoints": inner.breakpoints.all().len(),
        "allow_writes": engine.config.allow_writes,
        "system": {"url": engine.config.adt.base_url, "user": engine.config.adt.user},
    }))
}

//! `hello`, `status` and `configure`.

use std::sync::Arc;
use std::time::Duration;

use jsonl::args::{ConfigureArgs, HelloArgs, decode};
use jsonl::{ErrorBody, ErrorCode};
use serde_json::{Value, json};

use super::Outcome;
use crate::engine::{Engine, Origin};

/// Protocol version, capabilities and the connected system. Logs on, so a wrong password or
/// an unreachable system shows up here rather than at the first breakpoint.
pub(crate) async fn hello(engine: &Arc<Engine>, origin: &Origin, args: &Value) -> Outcome {
    let args: HelloArgs = decode("hello", args)?;
    let unknown = args
        .events
        .iter()
        .flatten()
        .find(|e| *e != "*" && !jsonl::EVENTS.contains(&e.as_str()));
    if let Some(bad) = unknown {
        return Err(
            ErrorBody::new(ErrorCode::InvalidArgs, format!("unknown event '{bad}'"))
                .with_hint(format!("events: {}", jsonl::EVENTS.join(", "))),
        );
    }
    engine.subscribe(origin.client, args.events.clone());
    let logon = match engine.main.logon().await {
        Ok(()) => json!({"ok": true}),
        Err(e) => json!({"ok": false, "error": crate::errors::from_adt("logging on", &e)}),
    };
    Ok(json!({
        "protocol": jsonl::PROTOCOL_VERSION,
        "server": {"name": "abapdbg", "version": env!("CARGO_PKG_VERSION"), "pid": std::process::id()},
        "commands": jsonl::COMMANDS,
        "events": jsonl::EVENTS,
        "subscribed": args.events.unwrap_or_else(|| vec!["*".to_string()]),
        "limits": {"max_line_bytes": jsonl::MAX_LINE_BYTES},
        "capabilities": {
            "threads": engine.config.max_threads,
            "writes": engine.config.allow_writes,
            "breakpoint_kinds": ["line", "statement", "exception", "message"],
            "conditions": true,
            "triggers": ["classrun"],
        },
        "system": {
            "url": engine.config.adt.base_url,
            "user": engine.config.adt.user,
            "client": engine.config.adt.client,
            "logon": logon,
        },
    }))
}

pub(crate) fn configure(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: ConfigureArgs = decode("configure", args)?;
    if args.max_value_chars == Some(0) {
        return Err(ErrorBody::new(
            ErrorCode::InvalidArgs,
            "max_value_chars must be at least 1",
        ));
    }
    let limits = engine.update(|inner| {
        if let Some(n) = args.max_value_chars {
            inner.limits.max_value_chars = n;
        }
        if let Some(ms) = args.step_timeout_ms {
            inner.limits.step_timeout = Duration::from_millis(ms);
        }
        inner.limits
    });
    Ok(json!({
        "max_value_chars": limits.max_value_chars,
        "step_timeout_ms": u64::try_from(limits.step_timeout.as_millis()).unwrap_or(u64::MAX),
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

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
    let supports = if logon["ok"] == true {
        system_support(engine).await
    } else {
        Value::Null
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
            "triggers": ["classrun", "report", "abap_unit"],
            "batch_steps": true,
            "watchpoints": true,
        },
        "system": {
            "url": engine.config.adt.base_url,
            "user": engine.config.adt.user,
            "client": engine.config.adt.client,
            "logon": logon,
            "supports": supports,
        },
    }))
}

pub(crate) async fn configure(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: ConfigureArgs = decode("configure", args)?;
    let mut applied = Vec::new();
    if let Some(want) = &args.settings {
        let merged = engine.update(|inner| {
            let mut s = inner.settings.unwrap_or_default();
            let set = |field: &mut bool, v: Option<bool>| {
                if let Some(v) = v {
                    *field = v;
                }
            };
            set(&mut s.system_debugging, want.system_debugging);
            set(&mut s.create_exception_object, want.create_exception_object);
            set(&mut s.background_rfc, want.background_rfc);
            set(&mut s.shared_object_debugging, want.shared_object_debugging);
            set(&mut s.show_data_aging, want.show_data_aging);
            set(&mut s.update_debugging, want.update_debugging);
            inner.settings = Some(s);
            s
        });
        let clients: Vec<(u32, adt::Client)> = engine
            .lock()
            .threads
            .values()
            .map(|d| (d.thread, d.client.clone()))
            .collect();
        for (thread, client) in clients {
            client.settings(&merged).await.map_err(|e| {
                crate::errors::from_adt(&format!("applying settings to thread {thread}"), &e)
            })?;
            applied.push(thread);
        }
    }
    if args
        .source_context
        .is_some_and(|n| n > crate::engine::MAX_SOURCE_CONTEXT)
    {
        return Err(ErrorBody::new(
            ErrorCode::InvalidArgs,
            format!(
                "source_context must be at most {}",
                crate::engine::MAX_SOURCE_CONTEXT
            ),
        ));
    }
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
        if let Some(n) = args.source_context {
            inner.limits.source_context = n;
        }
        inner.limits
    });
    let settings = engine.lock().settings.map(|s| settings_json(&s));
    Ok(json!({
        "settings": settings,
        "settings_applied_to": applied,
        "max_value_chars": limits.max_value_chars,
        "step_timeout_ms": u64::try_from(limits.step_timeout.as_millis()).unwrap_or(u64::MAX),
        "source_context": limits.source_context,
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
        "last_end": inner.last_end,
        "system": {"url": engine.config.adt.base_url, "user": engine.config.adt.user},
    }))
}

pub(crate) fn settings_json(s: &adt::DebuggerSettings) -> Value {
    json!({
        "system_debugging": s.system_debugging,
        "create_exception_object": s.create_exception_object,
        "background_rfc": s.background_rfc,
        "shared_object_debugging": s.shared_object_debugging,
        "show_data_aging": s.show_data_aging,
        "update_debugging": s.update_debugging,
    })
}

/// What the connected system says it offers, asked once after logon: the debugger resources
/// it announces, and the statement and message-type catalogues of its breakpoints. Things
/// only a first use reveals (the batch endpoint, the stack form) are found then by the client.
async fn system_support(engine: &Engine) -> Value {
    let (collections, statements, message_types) = tokio::join!(
        engine.main.discovery(),
        engine.main.statements(),
        engine.main.message_types()
    );
    let collections: Vec<String> = collections
        .unwrap_or_default()
        .into_iter()
        .filter(|h| h.contains("/debugger") || h.contains("/abapunit"))
        .collect();
    json!({
        "debugger_resources": collections,
        "statement_breakpoints": statements.map(|s| s.len()).ok(),
        "message_types": message_types
            .map(|m| m.into_iter().map(|(t, _)| t).collect::<Vec<_>>())
            .ok(),
    })
}

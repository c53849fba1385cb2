//! `hello`, `status` and `configure`.

use std::sync::Arc;
use std::time::Duration;

use jsonl::args::{ConfigureArgs, HelloArgs, decode};
use jsonl::results::{
    Capabilities, ConfigureResult, HelloResult, Limits, ListenerStatus, Logon, ServerInfo,
    StatusResult, SystemBrief, SystemInfo, SystemSupport,
};
use jsonl::{ErrorBody, ErrorCode};
use serde_json::Value;

use crate::engine::{Engine, Origin};
use crate::to_proto;

/// Protocol version, capabilities and the connected system. Logs on, so a wrong password or
/// an unreachable system shows up here rather than at the first breakpoint.
pub(crate) async fn hello(
    engine: &Arc<Engine>,
    origin: &Origin,
    args: &Value,
) -> Result<HelloResult, ErrorBody> {
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
    if args.attended {
        engine.grace.attend(origin.client);
    }
    let logon = match engine.main.logon().await {
        Ok(()) => Logon {
            ok: true,
            error: None,
        },
        Err(e) => Logon {
            ok: false,
            error: Some(crate::errors::from_adt("logging on", &e)),
        },
    };
    let (supports, discovered) = if logon.ok {
        let discovered = crate::discovery::learn(engine).await;
        (
            Some(system_support(engine, discovered.as_ref()).await),
            discovered,
        )
    } else {
        (None, None)
    };
    let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    Ok(HelloResult {
        protocol: jsonl::PROTOCOL_VERSION.into(),
        server: ServerInfo {
            name: "abapdbg".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            pid: std::process::id(),
        },
        commands: names(jsonl::COMMANDS),
        events: names(jsonl::EVENTS),
        subscribed: args.events.unwrap_or_else(|| vec!["*".to_string()]),
        limits: Limits {
            max_line_bytes: jsonl::MAX_LINE_BYTES,
        },
        capabilities: Capabilities {
            threads: engine.config.max_threads,
            writes: engine.config.allow_writes,
            breakpoint_kinds: names(&["line", "statement", "exception", "message"]),
            conditions: true,
            triggers: names(&["classrun", "report", "abap_unit"]),
            batch_steps: true,
            watchpoints: true,
        },
        system: SystemInfo {
            url: engine.config.adt.base_url.clone(),
            user: engine.config.adt.user.clone(),
            client: engine.config.adt.client.clone(),
            logon,
            supports,
            release: discovered.as_ref().and_then(|d| d.release.clone()),
            capabilities: discovered
                .as_ref()
                .map(|d| crate::discovery::to_proto(&d.capabilities)),
        },
    })
}

pub(crate) async fn configure(
    engine: &Arc<Engine>,
    args: &Value,
) -> Result<ConfigureResult, ErrorBody> {
    let args: ConfigureArgs = decode("configure", args)?;
    if args.settings.is_some() {
        crate::discovery::require(
            engine,
            crate::discovery::Feature::Settings,
            "configure settings",
        )
        .await?;
    }
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
    let settings = engine.lock().settings.map(|s| to_proto::settings(&s));
    Ok(ConfigureResult {
        settings,
        settings_applied_to: applied,
        max_value_chars: limits.max_value_chars,
        step_timeout_ms: u64::try_from(limits.step_timeout.as_millis()).unwrap_or(u64::MAX),
        source_context: limits.source_context,
    })
}

pub(crate) fn status(engine: &Arc<Engine>) -> Result<StatusResult, ErrorBody> {
    let inner = engine.lock();
    let discovered = inner.discovery.as_ref();
    let threads = inner
        .threads
        .values()
        .map(|d| to_proto::thread_info(d, inner.current == Some(d.thread)))
        .collect();
    Ok(StatusResult {
        state: inner.state(),
        epoch: inner.epoch,
        listener: ListenerStatus {
            wanted: inner.listener_wanted,
            armed: inner.listener_armed,
            other_users: inner
                .other_listeners
                .iter()
                .map(|(user, l)| jsonl::results::UserListenerStatus {
                    user: user.clone(),
                    armed: l.armed,
                })
                .collect(),
        },
        current_thread: inner.current,
        debuggee: inner.current().map(|d| to_proto::thread_info(d, true)),
        threads,
        breakpoints: inner.breakpoints.all().len(),
        allow_writes: engine.config.allow_writes,
        last_end: inner.last_end.clone(),
        release_in_s: engine.grace.seconds_left(),
        system: SystemBrief {
            url: engine.config.adt.base_url.clone(),
            user: engine.config.adt.user.clone(),
            release: discovered.and_then(|d| d.release.clone()),
            capabilities: discovered.map(|d| crate::discovery::to_proto(&d.capabilities)),
        },
        settings: inner.settings.map(|s| to_proto::settings(&s)),
    })
}

/// What the connected system says it offers, asked once after logon: the debugger resources
/// its discovery document announces (learnt once, `discovery.rs`), and the statement and
/// message-type catalogues of its breakpoints. Things only a first use reveals (the stack
/// form) are found then by the client.
async fn system_support(
    engine: &Engine,
    discovered: Option<&adt::SystemDiscovery>,
) -> SystemSupport {
    let (statements, message_types) =
        tokio::join!(engine.main.statements(), engine.main.message_types());
    let collections: Vec<String> = discovered
        .map(|d| d.collections.clone())
        .unwrap_or_default()
        .into_iter()
        .filter(|h| h.contains("/debugger") || h.contains("/abapunit"))
        .collect();
    SystemSupport {
        debugger_resources: collections,
        statement_breakpoints: statements.map(|s| s.len()).ok(),
        message_types: message_types
            .map(|m| m.into_iter().map(|(t, _)| t).collect::<Vec<_>>())
            .ok(),
    }
}

//! Watchpoints of the current program: `watch.set`, `watch.list`, `watch.delete`. They live in
//! the attached session; a `step continue` that stops at one reports reason `watchpoint`.

use std::sync::Arc;

use jsonl::args::{WatchIdArgs, WatchSetArgs, decode};
use serde_json::{Value, json};

use super::{Outcome, stopped_client};
use crate::engine::Engine;
use crate::errors::from_adt;

fn watchpoint_json(w: &adt::Watchpoint) -> Value {
    json!({
        "id": w.id,
        "variable": w.variable_name,
        "condition": w.condition,
        "active": w.active,
        "expired": w.expired,
        "procedure": w.procedure,
        "old_value": w.old_value,
        "value": w.current_value,
    })
}

pub(crate) async fn set(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: WatchSetArgs = decode("watch.set", args)?;
    let (thread, client) = stopped_client(engine)?;
    let variable = args.variable.trim().to_uppercase();
    let list = client
        .create_watchpoint(&variable, args.condition.as_deref())
        .await
        .map_err(|e| from_adt(&format!("watching {variable}"), &e))?;
    Ok(
        json!({"thread": thread, "watchpoints": list.iter().map(watchpoint_json).collect::<Vec<_>>()}),
    )
}

pub(crate) async fn list(engine: &Arc<Engine>) -> Outcome {
    let (thread, client) = stopped_client(engine)?;
    let list = client
        .watchpoints()
        .await
        .map_err(|e| from_adt("listing watchpoints", &e))?;
    Ok(
        json!({"thread": thread, "watchpoints": list.iter().map(watchpoint_json).collect::<Vec<_>>()}),
    )
}

pub(crate) async fn delete(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: WatchIdArgs = decode("watch.delete", args)?;
    let (thread, client) = stopped_client(engine)?;
    client
        .delete_watchpoint(args.id.trim())
        .await
        .map_err(|e| from_adt("deleting the watchpoint", &e))?;
    Ok(json!({"thread": thread, "deleted": args.id.trim()}))
}

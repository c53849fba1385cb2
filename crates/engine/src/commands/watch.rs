//! Watchpoints of the current program: `watch.set`, `watch.list`, `watch.delete`. They live in
//! the attached session; a `step continue` that stops at one reports reason `watchpoint`.

use std::sync::Arc;

use jsonl::ErrorBody;
use jsonl::args::{WatchIdArgs, WatchSetArgs, decode};
use jsonl::results::{WatchDeleteResult, WatchpointsResult};
use serde_json::Value;

use super::stopped_client;
use crate::engine::Engine;
use crate::errors::from_adt;
use crate::to_proto;

pub(crate) async fn set(
    engine: &Arc<Engine>,
    args: &Value,
) -> Result<WatchpointsResult, ErrorBody> {
    let args: WatchSetArgs = decode("watch.set", args)?;
    let (thread, client) = stopped_client(engine)?;
    let variable = args.variable.trim().to_uppercase();
    let list = client
        .create_watchpoint(&variable, args.condition.as_deref())
        .await
        .map_err(|e| from_adt(&format!("watching {variable}"), &e))?;
    Ok(WatchpointsResult {
        thread,
        watchpoints: list.iter().map(to_proto::watchpoint).collect(),
    })
}

pub(crate) async fn list(engine: &Arc<Engine>) -> Result<WatchpointsResult, ErrorBody> {
    let (thread, client) = stopped_client(engine)?;
    let list = client
        .watchpoints()
        .await
        .map_err(|e| from_adt("listing watchpoints", &e))?;
    Ok(WatchpointsResult {
        thread,
        watchpoints: list.iter().map(to_proto::watchpoint).collect(),
    })
}

pub(crate) async fn delete(
    engine: &Arc<Engine>,
    args: &Value,
) -> Result<WatchDeleteResult, ErrorBody> {
    let args: WatchIdArgs = decode("watch.delete", args)?;
    let (thread, client) = stopped_client(engine)?;
    client
        .delete_watchpoint(args.id.trim())
        .await
        .map_err(|e| from_adt("deleting the watchpoint", &e))?;
    Ok(WatchDeleteResult {
        thread,
        deleted: args.id.trim().to_string(),
    })
}

//! Watchpoints of a program (the named thread, else the current one): `watch.set`,
//! `watch.list`, `watch.delete`. They live in the attached session; a `step continue` that
//! stops at one reports reason `watchpoint`. `watch.set` resolves its variable in the named
//! frame (else the selected one); the others only check that a named frame exists.

use std::sync::Arc;

use jsonl::ErrorBody;
use jsonl::args::{AtArgs, WatchIdArgs, WatchSetArgs, decode};
use jsonl::results::{WatchDeleteResult, WatchpointsResult};
use serde_json::Value;

use crate::at::resolve;
use crate::engine::Engine;
use crate::errors::from_adt;
use crate::to_proto;

pub(crate) async fn set(
    engine: &Arc<Engine>,
    args: &Value,
) -> Result<WatchpointsResult, ErrorBody> {
    let args: WatchSetArgs = decode("watch.set", args)?;
    crate::discovery::require(engine, crate::discovery::Feature::Watchpoints, "watch.set").await?;
    let at = resolve(engine, args.thread, args.frame)?;
    let thread = at.thread;
    let variable = args.variable.trim().to_uppercase();
    let positioned = at.positioned(engine).await?;
    let list = at
        .client
        .create_watchpoint(&variable, args.condition.as_deref())
        .await
        .map_err(|e| from_adt(&format!("watching {variable}"), &e))?;
    drop(positioned);
    Ok(WatchpointsResult {
        thread,
        watchpoints: list.iter().map(to_proto::watchpoint).collect(),
    })
}

pub(crate) async fn list(
    engine: &Arc<Engine>,
    args: &Value,
) -> Result<WatchpointsResult, ErrorBody> {
    let args: AtArgs = decode("watch.list", args)?;
    crate::discovery::require(engine, crate::discovery::Feature::Watchpoints, "watch.list").await?;
    let at = resolve(engine, args.thread, args.frame)?;
    let (thread, client) = (at.thread, at.client);
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
    crate::discovery::require(
        engine,
        crate::discovery::Feature::Watchpoints,
        "watch.delete",
    )
    .await?;
    let at = resolve(engine, args.thread, args.frame)?;
    let (thread, client) = (at.thread, at.client);
    client
        .delete_watchpoint(args.id.trim())
        .await
        .map_err(|e| from_adt("deleting the watchpoint", &e))?;
    Ok(WatchDeleteResult {
        thread,
        deleted: args.id.trim().to_string(),
    })
}

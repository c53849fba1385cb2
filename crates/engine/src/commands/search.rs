//! `search`: repository objects by name pattern (the system's quick search), for completing
//! object names (`abapdbg bp set ZCL_<Tab>`). Stateless: it needs no debuggee.

use std::sync::Arc;

use jsonl::args::{SearchArgs, decode};
use jsonl::{ErrorBody, ErrorCode};
use serde_json::json;

use super::Outcome;
use crate::engine::Engine;
use crate::errors::from_adt;

pub(crate) async fn search(engine: &Arc<Engine>, args: &serde_json::Value) -> Outcome {
    let args: SearchArgs = decode("search", args)?;
    let query = args.query.trim();
    if query.is_empty() {
        return Err(
            ErrorBody::new(ErrorCode::InvalidArgs, "search: the query is empty")
                .with_hint("give a name pattern such as ZCL_*"),
        );
    }
    let found = engine
        .main
        .quick_search(query, args.max.clamp(1, adt::search::MAX_RESULTS))
        .await
        .map_err(|e| from_adt("searching the repository", &e))?;
    let objects: Vec<_> = found
        .into_iter()
        .map(|o| {
            json!({
                "name": o.name,
                "type": o.object_type,
                "uri": o.uri,
                "description": o.description,
            })
        })
        .collect();
    Ok(json!({ "objects": objects }))
}

//! `search`: repository objects by name pattern (the system's quick search), for completing
//! object names (`abapdbg bp set ZCL_<Tab>`). Stateless: it needs no debuggee.

use std::sync::Arc;

use jsonl::args::{SearchArgs, decode};
use jsonl::results::SearchResult;
use jsonl::{ErrorBody, ErrorCode};

use crate::engine::Engine;
use crate::errors::from_adt;

pub(crate) async fn search(
    engine: &Arc<Engine>,
    args: &serde_json::Value,
) -> Result<SearchResult, ErrorBody> {
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
    Ok(SearchResult {
        objects: found
            .into_iter()
            .map(crate::to_proto::found_object)
            .collect(),
    })
}

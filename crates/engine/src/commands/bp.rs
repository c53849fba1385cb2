//! `bp.set` and `bp.list`.

use std::sync::Arc;

use jsonl::args::{BpSetArgs, decode};
use jsonl::{ErrorBody, ErrorCode};
use serde_json::{Value, json};

use super::Outcome;
use crate::engine::Engine;
use crate::errors::from_adt;

pub(crate) async fn set(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: BpSetArgs = decode("bp.set", args)?;
    let texts = args.all_locations();
    if texts.is_empty() {
        return Err(
            ErrorBody::new(ErrorCode::InvalidArgs, "bp.set needs a \"location\"")
                .with_hint("e.g. {\"cmd\":\"bp.set\",\"args\":{\"location\":\"ZCL_ORDER:42\"}}"),
        );
    }
    // Validate all first: a typo in one location must not half-apply the request.
    let mut parsed = Vec::new();
    for text in &texts {
        let loc = adt::address::parse_location(text).map_err(|e| {
            ErrorBody::new(ErrorCode::InvalidLocation, format!("'{text}': {e}"))
                .with_hint("write OBJECT:LINE, e.g. ZCL_ORDER:42 (line in the class's source)")
        })?;
        parsed.push((loc, text.clone()));
    }
    let (ids, uris) = engine.update(|inner| {
        let ids: Vec<u32> = parsed
            .into_iter()
            .map(|(loc, text)| inner.breakpoints.add(loc, &text, args.condition.clone()))
            .collect();
        let uris: Vec<String> = ids
            .iter()
            .filter_map(|id| inner.breakpoints.get(*id).map(|b| b.uri.clone()))
            .fold(Vec::new(), |mut acc, u| {
                if !acc.contains(&u) {
                    acc.push(u);
                }
                acc
            });
        (ids, uris)
    });
    for uri in uris {
        let specs = engine.lock().breakpoints.specs_for(&uri);
        let results = engine
            .main
            .set_breakpoints(
                &engine.config.identity,
                &adt::SyncScope::Partial(uri.clone()),
                &specs,
            )
            .await
            .map_err(|e| from_adt("setting breakpoints", &e))?;
        engine.update(|inner| inner.breakpoints.apply(&results));
    }
    let inner = engine.lock();
    let breakpoints: Vec<Value> = ids
        .iter()
        .filter_map(|id| inner.breakpoints.get(*id).map(|b| b.to_json()))
        .collect();
    Ok(json!({ "breakpoints": breakpoints }))
}

pub(crate) fn list(engine: &Arc<Engine>) -> Outcome {
    let inner = engine.lock();
    let breakpoints: Vec<Value> = inner
        .breakpoints
        .all()
        .iter()
        .map(|b| b.to_json())
        .collect();
    Ok(json!({ "breakpoints": breakpoints }))
}

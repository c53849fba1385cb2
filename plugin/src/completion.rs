//! Candidates for Tab, from the live session: never starts one, never waits long, never
//! reports an error into the command line (no session, no candidates).

use std::time::Duration;

use nu_plugin::EngineInterface;
use nu_protocol::DynamicSuggestion;
use serde_json::Value as Json;

use crate::AbapPlugin;

/// How long a completion may wait for the session: Tab must stay instant.
const COMPLETION_TIMEOUT: Duration = Duration::from_millis(300);

/// One request to the running session of the caller's target, or `None`.
pub(crate) fn ask(
    plugin: &AbapPlugin,
    engine: &EngineInterface,
    cmd: &str,
    args: Json,
) -> Option<Json> {
    let target = crate::connection::target(engine).ok()?;
    let session = plugin.session_for(&target, false).ok()?;
    session
        .request(cmd, args, COMPLETION_TIMEOUT, &|| false)
        .ok()
}

pub(crate) fn suggestion(value: String, description: Option<String>) -> DynamicSuggestion {
    DynamicSuggestion {
        value,
        description,
        ..Default::default()
    }
}

/// Variable names for a path argument: the selected frame's variables, or after `LS_X-` or
/// `LT_X[1]-` the components of that variable (`typed` is what is on the command line).
pub(crate) fn variable_candidates(
    plugin: &AbapPlugin,
    engine: &EngineInterface,
    typed: &str,
) -> Option<Vec<DynamicSuggestion>> {
    let typed = typed.trim_matches(['"', '\'', '`']).to_uppercase();
    let parent = typed.rfind(['-', '>']).map(|i| {
        let head = &typed[..i];
        head.strip_suffix('=')
            .unwrap_or(head.strip_suffix('-').unwrap_or(head))
            .to_string()
    });
    let args = match &parent {
        Some(p) => serde_json::json!({"id": p, "limit": 200}),
        None => serde_json::json!({}),
    };
    let vars = ask(plugin, engine, "vars", args)?;
    Some(
        vars["variables"]
            .as_array()?
            .iter()
            .filter_map(|v| {
                let id = v["id"].as_str()?;
                let description = v["type"].as_str().map(|t| match v["meta"].as_str() {
                    Some("table") => format!("{t}, {} rows", v["rows"]),
                    _ => t.to_string(),
                });
                Some(suggestion(id.to_string(), description))
            })
            .collect(),
    )
}

/// The last argument as typed so far, from the completion call.
pub(crate) fn typed_prefix(
    call: &nu_plugin::DynamicCompletionCall,
    engine: &EngineInterface,
) -> String {
    call.call
        .arguments
        .iter()
        .map(|a| a.span())
        .rfind(|s| s.start <= call.pos && call.pos <= s.end)
        .and_then(|s| engine.get_span_contents(s).ok())
        .map(|b: Vec<u8>| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

//! Candidates for Tab, from the live session: never starts one, never waits long, never
//! reports an error into the command line (no session, no candidates).

use client::candidates::Candidate;
use nu_plugin::EngineInterface;
use nu_protocol::DynamicSuggestion;

use crate::AbapPlugin;

/// The running session of the caller's target, never started for a completion.
fn running(
    plugin: &AbapPlugin,
    engine: &EngineInterface,
) -> Option<std::sync::Arc<client::Session>> {
    let target = crate::connection::target(engine).ok()?;
    plugin.session_for(&target, false).ok()
}

/// Candidates of the shared source (the same bash and zsh get) as Nushell suggestions.
pub(crate) fn suggest(
    plugin: &AbapPlugin,
    engine: &EngineInterface,
    source: impl FnOnce(&client::Session) -> Vec<Candidate>,
) -> Option<Vec<DynamicSuggestion>> {
    let session = running(plugin, engine)?;
    Some(
        source(&session)
            .into_iter()
            .map(|c| DynamicSuggestion {
                value: c.value,
                description: c.description,
                ..Default::default()
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

//! Source lines around a position, cached per object source for the life of the session.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

#[derive(Default)]
pub(crate) struct SourceCache {
    by_uri: Mutex<HashMap<String, Arc<Vec<String>>>>,
}

impl SourceCache {
    /// Lines `line - before ..= line + after` of the source at `uri` (fragment ignored), or
    /// nothing if the source cannot be read: context is a convenience, never a failure.
    pub(crate) async fn context(
        &self,
        client: &adt::Client,
        uri: &str,
        line: u32,
        before: u32,
        after: u32,
    ) -> Vec<jsonl::results::SourceLine> {
        let Some(lines) = self.lines(client, uri).await else {
            return Vec::new();
        };
        let first = line.saturating_sub(before).max(1);
        let last = line.saturating_add(after);
        crate::to_proto::source_lines(&lines, first, last, line)
    }

    /// All lines of the source at `uri` (fragment ignored), or `None` if it cannot be read.
    pub(crate) async fn lines(&self, client: &adt::Client, uri: &str) -> Option<Arc<Vec<String>>> {
        let base = uri.split('#').next().unwrap_or(uri).to_string();
        let cached = self
            .by_uri
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&base)
            .cloned();
        if cached.is_some() {
            return cached;
        }
        match client.source(&base).await {
            Ok(text) => {
                let lines = Arc::new(text.lines().map(str::to_string).collect::<Vec<_>>());
                self.by_uri
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(base, lines.clone());
                Some(lines)
            }
            Err(e) => {
                tracing::debug!("no source for {base}: {e}");
                None
            }
        }
    }
}

//! What the connected system offers, learnt once: its discovery document (and release),
//! kept in memory for the session and in a cache file per system (URL and client) in the
//! state directory, read again when older than a day or when asked to (`serve
//! --refresh-discovery`). Commands that need something the system does not list are refused
//! here with `adt.not_supported` before anything is sent; a system without the batch endpoint
//! has its debuggee sessions send one request at a time from the start.
//!
//! Nothing is refused while nothing is known (no document could be read): the first use then
//! tells, as it did before discovery was read.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonl::results::SystemCapabilities;
use jsonl::{ErrorBody, ErrorCode};
use serde::{Deserialize, Serialize};

use crate::engine::Engine;

/// A cached document older than this is read again.
pub(crate) const MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// What a command may need of the system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Feature {
    Watchpoints,
    Settings,
    Dumps,
    AbapUnit,
    Classrun,
}

impl Feature {
    fn available(self, c: &adt::Capabilities) -> bool {
        match self {
            Feature::Watchpoints => c.watchpoints,
            Feature::Settings => c.settings,
            Feature::Dumps => c.dumps,
            Feature::AbapUnit => c.abap_unit,
            Feature::Classrun => c.classrun,
        }
    }

    fn what(self) -> (&'static str, &'static str) {
        let name = match self {
            Feature::Watchpoints => "watchpoints",
            Feature::Settings => "debugger settings",
            Feature::Dumps => "the short dump feed",
            Feature::AbapUnit => "ABAP Unit test runs",
            Feature::Classrun => "running a class",
        };
        (name, adt_href(self))
    }
}

fn adt_href(f: Feature) -> &'static str {
    match f {
        Feature::Watchpoints => adt::discovery::WATCHPOINTS,
        Feature::Settings => adt::discovery::DEBUGGER,
        Feature::Dumps => adt::discovery::DUMPS,
        Feature::AbapUnit => adt::discovery::ABAP_UNIT,
        Feature::Classrun => adt::discovery::CLASSRUN,
    }
}

/// The cache file's content.
#[derive(Debug, Serialize, Deserialize)]
struct Cached {
    url: String,
    client: Option<String>,
    /// Seconds since the epoch when the document was read.
    read_at: u64,
    discovery: adt::SystemDiscovery,
}

/// The cache file of a system: one per URL and client.
pub(crate) fn cache_path(dir: &Path, url: &str, client: Option<&str>) -> PathBuf {
    // FNV-1a: stable across versions and platforms, so the name stays the same.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in url
        .trim_end_matches('/')
        .bytes()
        .chain([0u8])
        .chain(client.unwrap_or("").bytes())
    {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    dir.join(format!("discovery-{h:016x}.json"))
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn read_cache(engine: &Engine) -> Option<adt::SystemDiscovery> {
    let dir = engine.config.discovery_cache.as_deref()?;
    if engine.config.refresh_discovery {
        return None;
    }
    let path = cache_path(
        dir,
        &engine.config.adt.base_url,
        engine.config.adt.client.as_deref(),
    );
    let bytes = match crate::export_file::read_own(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            tracing::warn!("ignoring the discovery cache {}: {e}", path.display());
            return None;
        }
    };
    let cached: Cached = serde_json::from_slice(&bytes).ok()?;
    let age = now_secs().saturating_sub(cached.read_at);
    let same =
        cached.url == engine.config.adt.base_url && cached.client == engine.config.adt.client;
    (same && age < MAX_AGE.as_secs()).then_some(cached.discovery)
}

fn write_cache(engine: &Engine, discovery: &adt::SystemDiscovery) {
    let Some(dir) = engine.config.discovery_cache.as_deref() else {
        return;
    };
    let cached = Cached {
        url: engine.config.adt.base_url.clone(),
        client: engine.config.adt.client.clone(),
        read_at: now_secs(),
        discovery: discovery.clone(),
    };
    let path = cache_path(dir, &cached.url, cached.client.as_deref());
    let written = crate::private_dir::ensure(dir)
        .and_then(|()| serde_json::to_vec_pretty(&cached).map_err(std::io::Error::other))
        .and_then(|bytes| crate::export_file::write_own(&path, &bytes));
    if let Err(e) = written {
        tracing::warn!("cannot write the discovery cache {}: {e}", path.display());
    }
}

/// What the system offers: from memory, else the cache, else the system (then cached).
/// `None` when no discovery document could be read (tried again next time).
pub(crate) async fn learn(engine: &Engine) -> Option<adt::SystemDiscovery> {
    let _one_at_a_time = engine.discovering.lock().await;
    if let Some(known) = engine.lock().discovery.clone() {
        return Some(known);
    }
    let found = match read_cache(engine) {
        Some(cached) => cached,
        None => match engine.main.discover().await {
            Ok(found) => {
                write_cache(engine, &found);
                found
            }
            Err(e) => {
                tracing::info!("no discovery document: {e}; nothing is refused in advance");
                return None;
            }
        },
    };
    engine.update(|inner| inner.discovery = Some(found.clone()));
    Some(found)
}

/// What is known now, without asking.
pub(crate) fn known(engine: &Engine) -> Option<adt::SystemDiscovery> {
    engine.lock().discovery.clone()
}

/// The protocol's `system.capabilities`.
pub(crate) fn to_proto(c: &adt::Capabilities) -> SystemCapabilities {
    SystemCapabilities {
        batch: c.batch,
        watchpoints: c.watchpoints,
        settings: c.settings,
        dumps: c.dumps,
        abap_unit: c.abap_unit,
        classrun: c.classrun,
    }
}

/// Refuses `command` with `adt.not_supported` when the system does not list `feature`.
pub(crate) async fn require(
    engine: &Engine,
    feature: Feature,
    command: &str,
) -> Result<(), ErrorBody> {
    let Some(found) = learn(engine).await else {
        return Ok(());
    };
    if feature.available(&found.capabilities) {
        return Ok(());
    }
    let (what, href) = feature.what();
    let release = found
        .release
        .as_deref()
        .map(|r| format!(" (release {r})"))
        .unwrap_or_default();
    Err(ErrorBody::new(
        ErrorCode::NotSupported,
        format!("{command}: this system{release} does not offer {what}: its discovery document does not list {href}"),
    )
    .with_hint(
        "`abapdbg doctor` lists what the system offers; if it was added since, start the session with `serve --refresh-discovery`",
    ))
}

/// A new stateful session for a debuggee: one request at a time from the start on a system
/// that lists no batch endpoint.
pub(crate) fn debuggee_client(engine: &Engine) -> Result<adt::Client, adt::AdtError> {
    let client = adt::Client::new(&engine.config.adt, adt::SessionMode::Stateful)?;
    if known(engine).is_some_and(|d| !d.capabilities.batch) {
        client.without_batch();
    }
    Ok(client)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_cache_file_per_url_and_client() {
        let dir = Path::new("/x");
        let a = cache_path(dir, "https://h:443", Some("100"));
        assert_eq!(a, cache_path(dir, "https://h:443/", Some("100")));
        assert_ne!(a, cache_path(dir, "https://h:443", Some("200")));
        assert_ne!(a, cache_path(dir, "https://h:443", None));
        assert_ne!(a, cache_path(dir, "https://g:443", Some("100")));
    }
}

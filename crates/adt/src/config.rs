//! How to reach a system.

use std::time::Duration;

/// Connection data of one SAP system.
#[derive(Clone)]
pub struct Config {
    /// `http(s)://host:port`, no trailing slash.
    pub base_url: String,
    /// Logon user (sent upper case).
    pub user: String,
    /// Basic-auth password. Never logged.
    pub password: String,
    /// SAP client (`sap-client`), e.g. `001`.
    pub client: Option<String>,
    /// Logon language (`sap-language`), e.g. `EN`.
    pub language: Option<String>,
    /// Bound on every request that is not meant to block (everything but the listener poll,
    /// `stepContinue`-like steps and triggers).
    pub request_timeout: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            base_url: String::new(),
            user: String::new(),
            password: String::new(),
            client: None,
            language: None,
            request_timeout: Duration::from_secs(60),
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("base_url", &self.base_url)
            .field("user", &self.user)
            .field("password", &"<redacted>")
            .field("client", &self.client)
            .field("language", &self.language)
            .field("request_timeout", &self.request_timeout)
            .finish()
    }
}

/// Whether a [`crate::Client`] holds a server-side user context (`sap-contextid`).
///
/// A debuggee is attached by exactly one stateful session; everything after the attach must
/// use that session. Listener, external breakpoints and triggers run stateless.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionMode {
    Stateless,
    Stateful,
}

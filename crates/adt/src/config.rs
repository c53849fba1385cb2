//! How to reach a system.

use std::path::PathBuf;
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
    /// Bound on the requests that block while a program runs (steps that continue it,
    /// triggers): long, because a program may run or stay stopped for long, but finite, so a
    /// system that never answers (ECC may hang a step after the program ended) cannot hang us.
    pub blocking_timeout: Duration,
    /// `Authorization: Bearer <token>` instead of Basic (e.g. BTP). Never logged.
    pub bearer_token: Option<String>,
    /// Cookies from an external SSO login (`MYSAPSSO2`, `SAP_SESSIONID_<SID>_<client>`), sent
    /// from the first request on. With cookies and no password, no `Authorization` is sent.
    /// Never logged.
    pub cookies: Vec<(String, String)>,
    /// PEM file with the client certificate and its private key (X.509 logon).
    pub client_certificate: Option<PathBuf>,
    /// PEM file with additional trusted CA certificates (a company CA).
    pub ca_bundle: Option<PathBuf>,
    /// Accept any server certificate. Only when asked; a warning is logged per session.
    pub insecure: bool,
    /// Every exchange is appended to this cassette, secrets replaced (`cassette.rs`).
    pub recorder: Option<std::sync::Arc<crate::cassette::Recorder>>,
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
            blocking_timeout: Duration::from_secs(60 * 60),
            bearer_token: None,
            cookies: Vec::new(),
            client_certificate: None,
            ca_bundle: None,
            insecure: false,
            recorder: None,
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
            .field("blocking_timeout", &self.blocking_timeout)
            .field(
                "bearer_token",
                &self.bearer_token.as_ref().map(|_| "<redacted>"),
            )
            .field(
                "cookies",
                &self
                    .cookies
                    .iter()
                    .map(|(n, _)| format!("{n}=<redacted>"))
                    .collect::<Vec<_>>(),
            )
            .field("client_certificate", &self.client_certificate)
            .field("ca_bundle", &self.ca_bundle)
            .field("insecure", &self.insecure)
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

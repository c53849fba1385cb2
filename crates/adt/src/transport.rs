//! One HTTP session with an SAP system: auth, cookie jar, CSRF token, session type.
//!
//! Each [`Session`] owns its own reqwest client (own connection pool) and cookie jar, so a
//! stateful debug session never shares its `sap-contextid` or its connection with the
//! listener's long poll or with another debuggee.

use std::sync::Mutex;
use std::time::Duration;

use base64::Engine as _;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use reqwest::Method;
use reqwest::header::{HeaderMap, HeaderValue};

use crate::config::{Config, SessionMode};
use crate::error::AdtError;

/// Where the CSRF token is fetched (small, cheap, side-effect free).
const CSRF_PATH: &str = "/sap/bc/adt/compatibility/graph";
/// Largest CA bundle read: a platform's whole store is about 250 KB.
const MAX_CA_BUNDLE_BYTES: u64 = 16 << 20;
/// Largest client certificate file read: a certificate chain and its key, a few KB.
const MAX_CERTIFICATE_BYTES: u64 = 1 << 20;
/// How often one request fetches a new CSRF token and is sent again after a 403 `Required`
/// (public so error hints can say how often the token was refused).
pub const CSRF_REFETCHES: u32 = 8;
/// Bodies larger than this are refused instead of exhausting memory.
const MAX_BODY: usize = 64 * 1024 * 1024;
/// Retries of safe requests on transient failures (never on timeouts).
const SAFE_RETRIES: u32 = 3;

/// Characters left as they are in a query value or path segment.
const QUERY_VALUE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Percent-encode one query value or path segment.
pub fn encode(value: &str) -> String {
    utf8_percent_encode(value, QUERY_VALUE).to_string()
}

/// Build `?k=v&…` with encoded values.
pub fn query(pairs: &[(&str, &str)]) -> String {
    let mut s = String::new();
    for (i, (k, v)) in pairs.iter().enumerate() {
        s.push(if i == 0 { '?' } else { '&' });
        s.push_str(k);
        s.push('=');
        s.push_str(&encode(v));
    }
    s
}

/// How long a request may take.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Wait {
    /// The configured request timeout.
    Normal,
    /// This long (the listener: its server-side timeout plus a margin).
    Exactly(Duration),
    /// As long as a program may run (a trigger or `stepContinue` answers when the program
    /// stops or ends): the configured blocking timeout.
    Unbounded,
}

/// One request.
pub(crate) struct Call<'a> {
    /// What we were doing, for error messages (`attach`, `getStack`, …).
    pub operation: &'a str,
    pub method: Method,
    /// Path plus query, starting with `/`.
    pub target: String,
    pub accept: &'a str,
    /// Content type and body.
    pub body: Option<(&'a str, String)>,
    pub wait: Wait,
    /// A read without side effects sent as POST (`getStack`, `getChildVariables`, …): retried
    /// on transient failures like a GET.
    pub idempotent: bool,
}

/// A successful answer.
#[derive(Debug)]
pub(crate) struct Answer {
    pub status: u16,
    pub body: String,
    /// The `Content-Type` header, when sent.
    pub content_type: Option<String>,
}

#[derive(Default)]
struct Jar {
    /// Name and value, in arrival order. Merged by name.
    cookies: Vec<(String, String)>,
    /// Once a debuggee is attached, its user context must not change under us: later
    /// `Set-Cookie`s for `sap-contextid` are ignored (peer-lessons: rotated cookies lost the
    /// debug session).
    pinned_context: bool,
}

const CONTEXT_COOKIE: &str = "sap-contextid";

impl Jar {
    fn store(&mut self, set_cookie: &str) {
        let mut parts = set_cookie.split(';');
        let Some((name, value)) = parts.next().and_then(|nv| nv.split_once('=')) else {
            return;
        };
        let name = name.trim();
        if name.is_empty() {
            return;
        }
        if self.pinned_context && name == CONTEXT_COOKIE {
            return;
        }
        let removed = parts.any(|a| {
            let a = a.trim().to_ascii_lowercase();
            a == "max-age=0"
                || a.starts_with("max-age=-")
                || a.contains("expires=thu, 01-jan-1970")
                || a.contains("expires=thu, 01 jan 1970")
        });
        self.cookies.retain(|(n, _)| n != name);
        if !removed {
            self.cookies
                .push((name.to_string(), value.trim().to_string()));
        }
    }

    fn header(&self) -> Option<String> {
        if self.cookies.is_empty() {
            return None;
        }
        Some(
            self.cookies
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join("; "),
        )
    }

    fn has(&self, name: &str) -> bool {
        self.cookies.iter().any(|(n, _)| n == name)
    }
}

#[derive(Default)]
struct SessionState {
    jar: Jar,
    csrf: Option<String>,
    /// `saplb` routing header: the application server instance to reach (§1.3).
    instance: Option<HeaderValue>,
}

/// An HTTP session (security session plus, when stateful, a user context).
pub struct Session {
    http: reqwest::Client,
    base_url: String,
    authorization: Option<HeaderValue>,
    client: Option<String>,
    language: Option<String>,
    timeout: Duration,
    blocking_timeout: Duration,
    mode: SessionMode,
    /// Held while a CSRF token is fetched, so requests refused at the same time share one.
    csrf_fetch: tokio::sync::Mutex<()>,
    /// Names of the cookies injected from the configuration (kept on a new logon).
    injected: Vec<String>,
    /// Whether a new security session can be opened without the user (credentials, token or
    /// certificate; injected SSO cookies alone cannot log on again).
    can_logon: bool,
    state: Mutex<SessionState>,
    /// Where exchanges are recorded, with this session's label.
    recording: Option<(std::sync::Arc<crate::cassette::Recorder>, String)>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("base_url", &self.base_url)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl Session {
    pub fn new(config: &Config, mode: SessionMode) -> Result<Session, AdtError> {
        let base_url = config.base_url.trim_end_matches('/').to_string();
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(AdtError::Config(format!(
                "the system URL must start with http:// or https:// (got '{base_url}')"
            )));
        }
        let authorization = authorization(config)?;
        let mut builder = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(15))
            .pool_max_idle_per_host(2)
            // Below the keep-alive limits of servers (the simulator closes idle connections
            // after 20 s, SAP's ICM after 60 s by default): a pooled connection is dropped
            // here before the server can close it under a request being sent on it.
            .pool_idle_timeout(Duration::from_secs(15))
            // A redirect must not tell the next host where we came from: our URLs carry the
            // user and the terminal id.
            .referer(false);
        if base_url.starts_with("http://") {
            // No TLS is spoken to an http:// system, so the platform's trust store (hundreds
            // of files, read and parsed at every start) is not loaded; a redirect to https,
            // which would need it, is refused with what to configure instead.
            builder =
                builder
                    .tls_built_in_root_certs(false)
                    .redirect(reqwest::redirect::Policy::custom(|attempt| {
                        if attempt.url().scheme() == "https" {
                            let to = attempt.url().origin().ascii_serialization();
                            attempt.error(format!(
                            "the system redirected from http:// to {to}: set the system URL to {to}"
                        ))
                        } else if attempt.previous().len() >= 10 {
                            attempt.error("too many redirects")
                        } else {
                            attempt.follow()
                        }
                    }));
        }
        if let Some(path) = &config.ca_bundle {
            let pem =
                crate::regular_file::read_regular(path, MAX_CA_BUNDLE_BYTES).map_err(|e| {
                    AdtError::Config(format!("cannot read the CA bundle {}: {e}", path.display()))
                })?;
            let certs = reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| {
                AdtError::Config(format!("the CA bundle {} is not PEM: {e}", path.display()))
            })?;
            if certs.is_empty() {
                return Err(AdtError::Config(format!(
                    "the CA bundle {} holds no certificate",
                    path.display()
                )));
            }
            for c in certs {
                builder = builder.add_root_certificate(c);
            }
        }
        if let Some(path) = &config.client_certificate {
            let pem =
                crate::regular_file::read_regular(path, MAX_CERTIFICATE_BYTES).map_err(|e| {
                    AdtError::Config(format!(
                        "cannot read the client certificate {}: {e}",
                        path.display()
                    ))
                })?;
            let identity = reqwest::Identity::from_pem(&pem).map_err(|e| {
                AdtError::Config(format!(
                    "the client certificate {} needs a PEM certificate and its private key: {e}",
                    path.display()
                ))
            })?;
            builder = builder.identity(identity);
        }
        if config.insecure {
            tracing::warn!(
                "TLS certificate checks are OFF for {base_url} (insecure): anyone on the network path can read and change this session"
            );
            builder = builder.danger_accept_invalid_certs(true);
        }
        let http = builder
            .build()
            .map_err(|e| AdtError::Config(format!("cannot build the HTTP client: {e}")))?;
        let can_logon = authorization.is_some() || config.client_certificate.is_some();
        let mut jar = Jar::default();
        let mut injected = Vec::new();
        for (name, value) in &config.cookies {
            let (name, value) = (name.trim(), value.trim());
            if name.is_empty() || name.contains(['=', ';', ' ']) || value.contains(';') {
                return Err(AdtError::Config(format!(
                    "the cookie '{name}' cannot be sent as it is"
                )));
            }
            jar.store(&format!("{name}={value}"));
            injected.push(name.to_string());
        }
        Ok(Session {
            http,
            base_url,
            authorization,
            client: config.client.clone().filter(|c| !c.trim().is_empty()),
            language: config.language.clone().filter(|c| !c.trim().is_empty()),
            timeout: config.request_timeout,
            blocking_timeout: config.blocking_timeout,
            mode,
            csrf_fetch: tokio::sync::Mutex::new(()),
            injected,
            can_logon,
            state: Mutex::new(SessionState {
                jar,
                csrf: None,
                instance: None,
            }),
            recording: config.recorder.as_ref().map(|r| {
                let label = r.session_label(mode == SessionMode::Stateful);
                (r.clone(), label)
            }),
        })
    }

    pub fn mode(&self) -> SessionMode {
        self.mode
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, SessionState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the server gave us a user context.
    pub fn has_context(&self) -> bool {
        self.lock().jar.has("sap-contextid")
    }

    /// The user context's cookie value (`sap-contextid`), to find the context again after a
    /// crash. It is a handle, not a credential: every request still authenticates.
    pub fn context_id(&self) -> Option<String> {
        self.lock()
            .jar
            .cookies
            .iter()
            .find(|(n, _)| n == "sap-contextid")
            .map(|(_, v)| v.clone())
    }

    /// Route every later request to this application server instance (`saplb` header), or
    /// stop routing with `""`. Refused when the name cannot be a header value.
    pub fn set_instance(&self, instance: &str) -> Result<(), AdtError> {
        let value = match instance.trim() {
            "" => None,
            name => Some(HeaderValue::from_str(name).map_err(|_| {
                AdtError::Config(format!("'{name}' cannot be sent as an instance name"))
            })?),
        };
        self.lock().instance = value;
        Ok(())
    }

    /// Rejoin a user context whose id an earlier process recorded; it stays pinned.
    pub fn set_context_id(&self, id: &str) {
        let mut state = self.lock();
        state.jar.pinned_context = false;
        state.jar.store(&format!("{CONTEXT_COOKIE}={id}"));
        state.jar.pinned_context = true;
    }

    /// Keep the current user context (`sap-contextid`) whatever later answers set; true if
    /// there was one to pin.
    pub fn pin_context(&self) -> bool {
        let mut state = self.lock();
        let has = state.jar.has(CONTEXT_COOKIE);
        state.jar.pinned_context = has;
        has
    }

    /// Send a call; modifying calls carry the CSRF token, fetched on first need and refetched
    /// (a few times at most, see [`Session::recover_csrf`]) when the server answers 403
    /// `x-csrf-token: Required`.
    pub(crate) async fn send(&self, call: &Call<'_>) -> Result<Answer, AdtError> {
        self.send_as(call, self.mode).await
    }

    /// Like [`Session::send`] with an explicit session type (ending a context sends
    /// `stateless` on a stateful session).
    pub(crate) async fn send_as(
        &self,
        call: &Call<'_>,
        mode: SessionMode,
    ) -> Result<Answer, AdtError> {
        let modifying = !matches!(call.method, Method::GET | Method::HEAD);
        if modifying && self.lock().csrf.is_none() {
            self.refresh_csrf(None, mode).await?;
        }
        let mut answer = self.attempt(call, mode).await?;
        if answer.csrf_required && modifying {
            answer = self.recover_csrf(call, mode, answer).await?;
        }
        // The security session expired (400 `Session timed out`, §13.2). The server refused
        // before running anything, so a stateless request is sent again once on a new logon.
        // A stateful session cannot be rescued: its user context went with it.
        if answer.session_expired && mode == SessionMode::Stateless && self.can_logon {
            tracing::debug!(
                "{}: security session expired, logging on again",
                call.operation
            );
            {
                let mut state = self.lock();
                state.csrf = None;
                let injected = &self.injected;
                state.jar.cookies.retain(|(n, _)| injected.contains(n));
            }
            self.fetch_csrf(mode).await?;
            answer = self.attempt(call, mode).await?;
        }
        answer.finish(call.operation)
    }

    /// Fetches a new CSRF token unless another request did since `refused` was sent: one fetch
    /// at a time, whose token every request refused meanwhile shares.
    async fn refresh_csrf(&self, refused: Option<&str>, mode: SessionMode) -> Result<(), AdtError> {
        let _one_fetch = self.csrf_fetch.lock().await;
        let current = self.lock().csrf.clone();
        if current.is_some() && current.as_deref() != refused {
            return Ok(());
        }
        self.lock().csrf = None;
        self.fetch_csrf(mode).await
    }

    /// A token rotated under a request (the release at shutdown sends its deletes in parallel,
    /// issue 25). Requests refused at the same time recover one after another, each holding
    /// `csrf_fetch` until its retries are done: left in parallel, their fetches and retries
    /// share the requests between two rotations, and a request whose turn keeps landing on a
    /// rotation loses every round until its retries run out. One at a time, a retry that lost
    /// to a rotation is followed by a fetch and another retry at once, which a system rotating
    /// less often than every other request lets through.
    async fn recover_csrf(
        &self,
        call: &Call<'_>,
        mode: SessionMode,
        mut answer: Raw,
    ) -> Result<Raw, AdtError> {
        // A call that waits long (the listener, a step) keeps no one waiting: it takes its
        // turn for each fetch only and retries beside the others.
        let serial = matches!(call.wait, Wait::Normal);
        let mut held = if serial {
            Some(self.csrf_fetch.lock().await)
        } else {
            None
        };
        let mut refetches = 0;
        while answer.csrf_required && refetches < CSRF_REFETCHES {
            let turn = match held.take() {
                Some(guard) => guard,
                None => self.csrf_fetch.lock().await,
            };
            let current = self.lock().csrf.clone();
            // A token fetched by another request since ours was refused is tried first; the
            // next refusal is then of that token, so such retries alternate with fetches and
            // the loop stays bounded.
            if current.is_none() || current == answer.csrf_sent {
                refetches += 1;
                tracing::debug!("{}: CSRF token refused, fetching a new one", call.operation);
                self.lock().csrf = None;
                self.fetch_csrf(mode).await?;
            }
            if serial {
                held = Some(turn);
            } else {
                drop(turn);
            }
            answer = self.attempt(call, mode).await?;
        }
        Ok(answer)
    }

    /// Fetch a CSRF token (this is also the logon: wrong credentials fail here with 401).
    pub async fn fetch_csrf(&self, mode: SessionMode) -> Result<(), AdtError> {
        let call = Call {
            operation: "logon",
            method: Method::GET,
            target: CSRF_PATH.to_string(),
            accept: "*/*",
            body: None,
            wait: Wait::Normal,
            idempotent: true,
        };
        let raw = self.attempt_with_headers(&call, mode, true).await?;
        if !(200..300).contains(&raw.status) {
            let status = raw.status;
            return Err(raw.finish(call.operation).err().unwrap_or_else(|| {
                AdtError::unexpected("logon", Some(status), "no CSRF token", "")
            }));
        }
        match raw.csrf_token {
            Some(token) if !token.eq_ignore_ascii_case("required") => {
                self.lock().csrf = Some(token);
                Ok(())
            }
            _ => Err(AdtError::unexpected(
                "logon",
                Some(raw.status),
                "the system sent no CSRF token",
                &raw.body,
            )),
        }
    }

    async fn attempt(&self, call: &Call<'_>, mode: SessionMode) -> Result<Raw, AdtError> {
        let safe = call.idempotent || matches!(call.method, Method::GET | Method::HEAD);
        let mut tries = 0;
        loop {
            let outcome = self.attempt_with_headers(call, mode, false).await;
            let transient = match &outcome {
                Err(AdtError::Transport { .. }) => true,
                Ok(raw) => raw.status == 400 && raw.body.contains("Service cannot be reached"),
                Err(_) => false,
            };
            if !(safe && transient) || tries >= SAFE_RETRIES {
                return outcome;
            }
            tries += 1;
            tracing::debug!("{}: transient failure, retry {tries}", call.operation);
            tokio::time::sleep(Duration::from_millis(200 << tries)).await;
        }
    }

    async fn attempt_with_headers(
        &self,
        call: &Call<'_>,
        mode: SessionMode,
        fetch_token: bool,
    ) -> Result<Raw, AdtError> {
        let url = format!("{}{}", self.base_url, call.target);
        let mut headers = HeaderMap::new();
        // The token this request carries (another request may replace the session's meanwhile).
        let mut csrf_sent = None;
        if let Some(a) = &self.authorization {
            headers.insert(reqwest::header::AUTHORIZATION, a.clone());
        }
        headers.insert(
            "x-sap-adt-sessiontype",
            HeaderValue::from_static(match mode {
                SessionMode::Stateful => "stateful",
                SessionMode::Stateless => "stateless",
            }),
        );
        if let Ok(v) = HeaderValue::from_str(call.accept) {
            headers.insert(reqwest::header::ACCEPT, v);
        }
        for (name, value) in [
            ("sap-client", &self.client),
            ("sap-language", &self.language),
        ] {
            if let Some(v) = value.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
                headers.insert(name, v);
            }
        }
        {
            let state = self.lock();
            if let Some(c) = state
                .jar
                .header()
                .and_then(|c| HeaderValue::from_str(&c).ok())
            {
                headers.insert(reqwest::header::COOKIE, c);
            }
            let token = if fetch_token {
                Some("fetch".to_string())
            } else {
                state.csrf.clone()
            };
            if !fetch_token {
                csrf_sent.clone_from(&token);
            }
            if let Some(t) = token.and_then(|t| HeaderValue::from_str(&t).ok()) {
                headers.insert("x-csrf-token", t);
            }
            if let Some(i) = &state.instance {
                headers.insert("saplb", i.clone());
            }
        }
        // What the cassette keeps of the request (its secrets are replaced when written).
        let recorded_request = self.recording.as_ref().map(|(r, _)| {
            let mut list: Vec<(String, String)> = headers
                .iter()
                .map(|(n, v)| {
                    (
                        n.to_string(),
                        String::from_utf8_lossy(v.as_bytes()).into_owned(),
                    )
                })
                .collect();
            if let Some((content_type, _)) = &call.body {
                list.push(("content-type".into(), (*content_type).to_string()));
            }
            (r.now_ms(), list)
        });
        let mut request = self
            .http
            .request(call.method.clone(), &url)
            .headers(headers);
        if let Some((content_type, body)) = &call.body {
            request = request
                .header(reqwest::header::CONTENT_TYPE, *content_type)
                .body(body.clone());
        } else if !matches!(call.method, Method::GET | Method::HEAD) {
            request = request.header(reqwest::header::CONTENT_LENGTH, "0");
        }
        let limit = match call.wait {
            Wait::Normal => self.timeout,
            Wait::Exactly(d) => d,
            Wait::Unbounded => self.blocking_timeout,
        };
        request = request.timeout(limit);
        let transport = |e: reqwest::Error| {
            if e.is_timeout() {
                AdtError::Timeout {
                    operation: call.operation.to_string(),
                    limit,
                }
            } else {
                AdtError::Transport {
                    operation: call.operation.to_string(),
                    message: describe_reqwest(&e),
                }
            }
        };
        let mut response = request.send().await.map_err(transport)?;
        let status = response.status().as_u16();
        // reqwest shows a non-standard reason phrase only in its status error.
        let reason = response
            .error_for_status_ref()
            .err()
            .and_then(|e| reason_phrase(&e.to_string(), status));
        {
            let mut state = self.lock();
            // Error answers may come from another context or a failing work process: their
            // cookies are not ours to keep.
            if status < 400 {
                for v in response.headers().get_all(reqwest::header::SET_COOKIE) {
                    if let Ok(s) = v.to_str() {
                        state.jar.store(s);
                    }
                }
            }
        }
        let recorded_response: Option<Vec<(String, String)>> = self.recording.as_ref().map(|_| {
            response
                .headers()
                .iter()
                .map(|(n, v)| {
                    (
                        n.to_string(),
                        String::from_utf8_lossy(v.as_bytes()).into_owned(),
                    )
                })
                .collect()
        });
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let csrf_token = response
            .headers()
            .get("x-csrf-token")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        // Sized by the announced length (within the bound): a page of table rows is a
        // megabyte, copied over and over when grown chunk by chunk.
        let announced = response.content_length().unwrap_or(0).min(MAX_BODY as u64);
        let mut bytes: Vec<u8> = Vec::with_capacity(usize::try_from(announced).unwrap_or(0));
        while let Some(chunk) = response.chunk().await.map_err(transport)? {
            if bytes.len() + chunk.len() > MAX_BODY {
                return Err(AdtError::unexpected(
                    call.operation,
                    Some(status),
                    format!("answer larger than {MAX_BODY} bytes"),
                    "",
                ));
            }
            bytes.extend_from_slice(&chunk);
        }
        if let (Some((recorder, label)), Some((at_ms, request_headers)), Some(response_headers)) =
            (&self.recording, &recorded_request, &recorded_response)
        {
            let request_body = call.body.as_ref().map(|(_, b)| b.as_bytes()).unwrap_or(&[]);
            recorder.record(
                *at_ms,
                label,
                call.method.as_str(),
                &call.target,
                request_headers,
                request_body,
                status,
                response_headers,
                &bytes,
            );
        }
        // Valid UTF-8 (the usual case) becomes the body without a copy.
        let mut body = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        let session_expired = status == 400
            && (body.contains("Session timed out")
                || reason
                    .as_deref()
                    .is_some_and(|r| r.contains("Session timed out")));
        if let Some(r) = reason.filter(|_| body.trim().is_empty()) {
            body = r; // the status text is all there is to say
        }
        let csrf_required = status == 403
            && csrf_token
                .as_deref()
                .is_some_and(|t| t.eq_ignore_ascii_case("required"));
        tracing::trace!(target: "adt::wire", "{} {} -> {status} ({} bytes)", call.method, call.target, body.len());
        Ok(Raw {
            status,
            body,
            content_type,
            csrf_token,
            csrf_required,
            csrf_sent,
            session_expired,
        })
    }
}

/// The `Authorization` header: bearer token, else Basic when a user is given, else none
/// (SSO cookies or a client certificate authenticate).
fn authorization(config: &Config) -> Result<Option<HeaderValue>, AdtError> {
    let text = if let Some(token) = config.bearer_token.as_deref().map(str::trim) {
        if token.is_empty() {
            return Err(AdtError::Config("the bearer token is empty".into()));
        }
        format!("Bearer {token}")
    } else if !config.user.is_empty()
        && (!config.password.is_empty()
            || (config.cookies.is_empty() && config.client_certificate.is_none()))
    {
        let credentials = base64::engine::general_purpose::STANDARD.encode(format!(
            "{}:{}",
            config.user.to_uppercase(),
            config.password
        ));
        format!("Basic {credentials}")
    } else {
        return Ok(None);
    };
    let mut value = HeaderValue::from_str(&text).map_err(|_| {
        AdtError::Config("the user name or token contains characters HTTP cannot carry".into())
    })?;
    value.set_sensitive(true);
    Ok(Some(value))
}

/// The reason phrase out of reqwest's status error text (`… (400 Session timed out) for url
/// (…)`), when it is not the standard one for the status.
fn reason_phrase(error_text: &str, status: u16) -> Option<String> {
    let open = format!("({status} ");
    let start = error_text.find(&open)? + open.len();
    let rest = error_text.get(start..)?;
    let reason = match rest.find(") for url") {
        Some(end) => rest.get(..end)?,
        None => rest.split(')').next()?,
    };
    let reason = reason.trim();
    let standard = reqwest::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason());
    (!reason.is_empty() && Some(reason) != standard).then(|| reason.to_string())
}

fn describe_reqwest(e: &reqwest::Error) -> String {
    let mut msg = if e.is_connect() {
        "connection failed".to_string()
    } else {
        e.to_string()
    };
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        source = s.source();
    }
    msg
}

struct Raw {
    status: u16,
    body: String,
    content_type: Option<String>,
    csrf_token: Option<String>,
    csrf_required: bool,
    /// The CSRF token the request carried.
    csrf_sent: Option<String>,
    /// 400 `Session timed out`: the security session is gone.
    session_expired: bool,
}

impl Raw {
    fn finish(self, operation: &str) -> Result<Answer, AdtError> {
        if (200..300).contains(&self.status) {
            Ok(Answer {
                status: self.status,
                body: self.body,
                content_type: self.content_type,
            })
        } else {
            Err(AdtError::from_response(
                operation,
                self.status,
                self.csrf_required,
                &self.body,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jar_merges_by_name_and_honours_deletion() {
        let mut j = Jar::default();
        j.store("sap-contextid=A; path=/sap/bc/adt");
        j.store("SAP_SESSIONID=x; path=/; HttpOnly");
        j.store("sap-contextid=B; path=/sap/bc/adt");
        assert_eq!(j.header().unwrap(), "SAP_SESSIONID=x; sap-contextid=B");
        j.store("sap-contextid=; Max-Age=0");
        assert!(!j.has("sap-contextid"));
        j.store("garbage");
        j.store("=nameless");
        assert_eq!(j.header().unwrap(), "SAP_SESSIONID=x");
    }

    #[test]
    fn reason_phrases_only_when_not_standard() {
        let text = "HTTP status client error (400 Session timed out) for url (http://h/x)";
        assert_eq!(
            reason_phrase(text, 400).as_deref(),
            Some("Session timed out")
        );
        let standard = "HTTP status client error (400 Bad Request) for url (http://h/x)";
        assert_eq!(reason_phrase(standard, 400), None);
        assert_eq!(reason_phrase("(40", 400), None);
        assert_eq!(reason_phrase("(400 ü)", 400).as_deref(), Some("ü"));
    }

    #[test]
    fn a_pinned_context_survives_later_cookies() {
        let mut j = Jar::default();
        j.store("sap-contextid=CTX1; path=/sap/bc/adt");
        j.pinned_context = true;
        j.store("sap-contextid=CTX2; path=/sap/bc/adt");
        j.store("sap-contextid=; Max-Age=0");
        j.store("SAP_SESSIONID=s2; path=/");
        assert_eq!(
            j.header().unwrap_or_default(),
            "sap-contextid=CTX1; SAP_SESSIONID=s2"
        );
    }

    #[test]
    fn query_values_are_encoded() {
        assert_eq!(
            query(&[("uri", "/a/b#start=3"), ("u", "JDOE")]),
            "?uri=%2Fa%2Fb%23start%3D3&u=JDOE"
        );
        assert_eq!(encode("KIND=0.X"), "KIND%3D0.X");
    }
}

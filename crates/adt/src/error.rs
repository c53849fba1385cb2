//! One error type for everything that can go wrong talking to ADT.
//!
//! The server reports failures in several shapes: the `exc:exception` document (§13.1), a
//! plain-text CSRF refusal, ICM HTML pages, and refusals inside a 200 body. They all end up
//! here with the HTTP status, the parsed exception when there was one, and an [`ErrorClass`]
//! the engine can switch on without reading messages.

use crate::xml;

/// What kind of failure this is, as far as a debugger front end cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    /// The program ran to its end (500 `debuggeeEnded`, or a step after it ended).
    DebuggeeEnded,
    /// `terminateDebuggee` answered the way real systems answer success (500
    /// `terminateDebuggee`).
    Terminated,
    /// The session has no attached debuggee (`noSessionAttached`).
    NoSessionAttached,
    /// Another debugger listens for this user (`conflictDetected`/`conflictNotification`).
    ListenerConflict,
    /// The CSRF token was refused even after a refetch.
    Csrf,
    /// The server dropped the session (`Session timed out`).
    SessionTimedOut,
    /// The ICM or the application server is not available right now.
    ServerUnavailable,
    /// 401, or 403 without a CSRF cause.
    NotAuthorized,
    /// 404 on a resource (object, source, listener).
    NotFound,
    /// The debuggee cannot be attached (gone, attached elsewhere, session reused).
    InvalidDebuggee,
    /// The request did not reach the server or no answer came back.
    Transport,
    /// The server took longer than the request's time limit to answer.
    Timeout,
    /// The server answered in a form this client cannot read.
    UnexpectedResponse,
    /// Any other refusal; see the exception.
    Other,
}

/// The ADT exception document (`exc:exception`), field by field.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AdtException {
    /// `type/@id`, e.g. `AdiFailed`, `ExceptionResourceNotFound`.
    pub exception_type: String,
    /// The `com.sap.adt.communicationFramework.subType` property, e.g. `debuggeeEnded`.
    pub subtype: Option<String>,
    pub message: String,
    pub localized_message: Option<String>,
    pub t100_id: Option<String>,
    pub t100_no: Option<String>,
    /// `T100KEY-V1` … `V4`, in order.
    pub t100_vars: Vec<String>,
    /// Who holds the listener, on conflicts.
    pub conflict_text: Option<String>,
    pub ide_user: Option<String>,
    /// Every property as sent.
    pub properties: Vec<(String, String)>,
}

impl AdtException {
    /// The value of a property.
    pub fn property(&self, key: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

const SUBTYPE_KEY: &str = "com.sap.adt.communicationFramework.subType";

/// Parse an `exc:exception` document. `None` when the body is not one.
pub fn parse_exception(body: &str) -> Option<AdtException> {
    let root = xml::parse(body).ok()?;
    if root.name != "exception" {
        return None;
    }
    let mut ex = AdtException {
        exception_type: root
            .child("type")
            .and_then(|t| t.attr("id"))
            .unwrap_or_default()
            .to_string(),
        message: root
            .child("message")
            .map(|m| m.text.clone())
            .unwrap_or_default(),
        localized_message: root.child("localizedMessage").map(|m| m.text.clone()),
        ..AdtException::default()
    };
    if let Some(props) = root.child("properties") {
        for entry in props.children_named("entry") {
            let key = entry.attr("key").unwrap_or_default().to_string();
            ex.properties.push((key, entry.text.clone()));
        }
    }
    let prop = |k: &str| ex.property(k).map(str::to_string);
    let subtype = prop(SUBTYPE_KEY);
    let t100_id = prop("T100KEY-ID");
    let t100_no = prop("T100KEY-NO");
    let conflict_text = prop("conflictText");
    let ide_user = prop("ideUser");
    let t100_vars = (1..=4)
        .filter_map(|i| prop(&format!("T100KEY-V{i}")))
        .collect();
    Some(AdtException {
        subtype,
        t100_id,
        t100_no,
        conflict_text,
        ide_user,
        t100_vars,
        ..ex
    })
}

/// A failed ADT call.
#[derive(Debug, thiserror::Error)]
pub enum AdtError {
    /// Nothing usable came back: connection refused, reset, TLS.
    #[error("{operation}: cannot reach the system: {message}")]
    Transport { operation: String, message: String },
    /// No answer within the request's time limit. Not retried: the server is busy, and a
    /// retry would only multiply the wait.
    #[error("{operation}: no answer within {} s", .limit.as_secs_f64())]
    Timeout {
        operation: String,
        limit: std::time::Duration,
    },
    /// The server answered with an error status (or an in-band refusal).
    #[error("{operation}: {}", describe(*.status, .exception.as_deref(), .body))]
    Server {
        operation: String,
        status: u16,
        class: ErrorClass,
        exception: Option<Box<AdtException>>,
        /// The start of the raw body, for diagnosis.
        body: String,
    },
    /// The answer could not be read.
    #[error("{operation}: unexpected answer from the system: {message}")]
    Unexpected {
        operation: String,
        status: Option<u16>,
        message: String,
        /// The start of the raw body.
        body: String,
    },
    /// The configuration cannot work (bad URL, bad header value).
    #[error("invalid connection settings: {0}")]
    Config(String),
}

fn describe(status: u16, exception: Option<&AdtException>, body: &str) -> String {
    match exception {
        Some(ex) => {
            let what = ex.subtype.as_deref().unwrap_or(&ex.exception_type);
            let text = ex
                .conflict_text
                .as_deref()
                .filter(|_| ex.message.is_empty() || ex.message == "An exception was raised")
                .unwrap_or(&ex.message);
            format!("{text} ({what}, HTTP {status})")
        }
        None => {
            let first = body.lines().map(str::trim).find(|l| !l.is_empty());
            match first {
                Some(line) => format!("HTTP {status}: {}", clip(line, 200)),
                None => format!("HTTP {status}"),
            }
        }
    }
}

pub(crate) fn clip(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

impl AdtError {
    /// The classification the engine switches on.
    pub fn class(&self) -> ErrorClass {
        match self {
            AdtError::Transport { .. } => ErrorClass::Transport,
            AdtError::Timeout { .. } => ErrorClass::Timeout,
            AdtError::Server { class, .. } => *class,
            AdtError::Unexpected { .. } => ErrorClass::UnexpectedResponse,
            AdtError::Config(_) => ErrorClass::Other,
        }
    }

    /// The HTTP status, when the server answered.
    pub fn http_status(&self) -> Option<u16> {
        match self {
            AdtError::Server { status, .. } => Some(*status),
            AdtError::Unexpected { status, .. } => *status,
            _ => None,
        }
    }

    /// The parsed exception document, when there was one.
    pub fn exception(&self) -> Option<&AdtException> {
        match self {
            AdtError::Server { exception, .. } => exception.as_deref(),
            _ => None,
        }
    }

    /// Build the error for a non-success answer.
    pub(crate) fn from_response(
        operation: &str,
        status: u16,
        csrf_required: bool,
        body: &str,
    ) -> AdtError {
        let exception = parse_exception(body);
        let class = classify(status, csrf_required, exception.as_ref(), body);
        AdtError::Server {
            operation: operation.to_string(),
            status,
            class,
            exception: exception.map(Box::new),
            body: clip(body, 2000),
        }
    }

    pub(crate) fn unexpected(
        operation: &str,
        status: Option<u16>,
        message: impl Into<String>,
        body: &str,
    ) -> AdtError {
        AdtError::Unexpected {
            operation: operation.to_string(),
            status,
            message: message.into(),
            body: clip(body, 2000),
        }
    }
}

/// Map status, CSRF header, exception and body to an [`ErrorClass`].
pub fn classify(
    status: u16,
    csrf_required: bool,
    exception: Option<&AdtException>,
    body: &str,
) -> ErrorClass {
    if status == 403 && csrf_required {
        return ErrorClass::Csrf;
    }
    if let Some(ex) = exception {
        match ex.subtype.as_deref() {
            Some("debuggeeEnded") => return ErrorClass::DebuggeeEnded,
            Some("terminateDebuggee") => return ErrorClass::Terminated,
            Some("noSessionAttached") => return ErrorClass::NoSessionAttached,
            Some("conflictDetected" | "conflictNotification") => {
                return ErrorClass::ListenerConflict;
            }
            Some("invalidDebuggee") => return ErrorClass::InvalidDebuggee,
            _ => {}
        }
        // A step after terminateDebuggee: no subType, the previous exception says it (§7.4).
        let ended_class = ex.properties.iter().any(|(k, v)| {
            k.starts_with("previous")
                && k.ends_with("ExceptionClassName")
                && v == "CX_TPDAPI_DEBUGGEE_ENDED"
        });
        if ended_class {
            return ErrorClass::DebuggeeEnded;
        }
        if ex.exception_type == "ExceptionResourceNotFound" {
            return ErrorClass::NotFound;
        }
    }
    if body.contains("Session timed out") {
        return ErrorClass::SessionTimedOut;
    }
    if body.contains("Service cannot be reached") || body.contains("Connection timed out") {
        return ErrorClass::ServerUnavailable;
    }
    match status {
        401 | 403 => ErrorClass::NotAuthorized,
        404 => ErrorClass::NotFound,
        502..=504 => ErrorClass::ServerUnavailable,
        _ => ErrorClass::Other,
    }
}

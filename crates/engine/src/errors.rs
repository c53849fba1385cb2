//! Turning ADT failures into protocol errors with stable codes, keeping the raw detail.

use adt::{AdtError, ErrorClass};
use jsonl::{ErrorBody, ErrorCode};
use serde_json::{Value, json};

pub(crate) fn from_adt(context: &str, e: &AdtError) -> ErrorBody {
    // Each refusal was of a token fetched just before, so the cause is not a stale token.
    let csrf_hint = format!(
        "the system refused the CSRF token {} times, each time freshly fetched: a proxy or load balancer may drop the session cookies, or the user lacks an authorization the debugger needs (S_ADT_RES)",
        adt::transport::CSRF_REFETCHES
    );
    let (code, hint) = match e.class() {
        ErrorClass::NotAuthorized => (
            ErrorCode::Unauthenticated,
            "check ABAPDBG_USER and ABAPDBG_PASSWORD",
        ),
        ErrorClass::Csrf => (ErrorCode::CsrfFailed, &*csrf_hint),
        ErrorClass::Transport | ErrorClass::ServerUnavailable => (
            ErrorCode::Unreachable,
            "check ABAPDBG_URL and that the system is up, then retry",
        ),
        ErrorClass::Timeout => (
            ErrorCode::Timeout,
            "the system is reachable but did not answer in time (busy or overloaded); retry later",
        ),
        ErrorClass::ListenerConflict => (
            ErrorCode::ListenerConflict,
            "another debugger listens for this user; stop it or take over",
        ),
        // The session answers without a debuggee although we never saw the program end: the
        // system dropped the session (expiry); `recovery.rs` attaches again or releases it.
        ErrorClass::NoSessionAttached => (
            ErrorCode::SessionLost,
            "the system dropped the debug session; abapdbg attaches the program again or releases it (see the debuggee.lost event)",
        ),
        ErrorClass::DebuggeeEnded | ErrorClass::Terminated | ErrorClass::InvalidDebuggee => (
            ErrorCode::DebuggeeEnded,
            "the program is no longer stopped; 'run' it again to catch a new stop",
        ),
        ErrorClass::UnexpectedResponse => (
            ErrorCode::UnexpectedResponse,
            "the system answered in a form abapdbg does not know; see error.adt",
        ),
        _ => (
            ErrorCode::BackendException,
            "the system refused the request; see error.adt for its reason",
        ),
    };
    ErrorBody::new(code, format!("{context}: {e}"))
        .with_hint(hint)
        .with_adt(adt_detail(e))
}

/// The raw ADT facts of an error, for `error.adt`.
pub(crate) fn adt_detail(e: &AdtError) -> Value {
    let exception = e.exception().map(|x| {
        json!({
            "type": x.exception_type,
            "subtype": x.subtype,
            "message": x.message,
            "t100": {"id": x.t100_id, "no": x.t100_no},
        })
    });
    json!({
        "http_status": e.http_status(),
        "class": format!("{:?}", e.class()),
        "exception": exception,
    })
}

/// Errors that mean the debuggee is no longer there.
pub(crate) fn is_gone(e: &AdtError) -> bool {
    matches!(
        e.class(),
        ErrorClass::DebuggeeEnded | ErrorClass::NoSessionAttached | ErrorClass::Terminated
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csrf_refusal_says_how_often_the_token_was_fetched_again() {
        let e = AdtError::Server {
            operation: "run".into(),
            status: 403,
            class: ErrorClass::Csrf,
            exception: None,
            body: String::new(),
        };
        let body = from_adt("run", &e);
        assert_eq!(body.code, ErrorCode::CsrfFailed.as_str());
        let hint = body.hint.unwrap_or_default();
        assert!(
            hint.contains(&format!("{} times", adt::transport::CSRF_REFETCHES)),
            "{hint}"
        );
        assert!(!hint.contains("twice"), "{hint}");
    }
}

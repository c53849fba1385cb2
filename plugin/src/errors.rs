//! Session errors as Nushell errors: the protocol's code and hint, a label on the argument
//! that caused it.

use client::ClientError;
use nu_protocol::{LabeledError, Span};

/// `code: message`, labelled at `span`, with the hint as help.
pub(crate) fn to_labeled(e: &ClientError, span: Span) -> LabeledError {
    let (message, label) = match e {
        ClientError::Protocol(p) => (format!("{}: {}", p.code, p.message), p.message.clone()),
        other => (format!("{}: {other}", other.code()), other.to_string()),
    };
    let err = LabeledError::new(message)
        .with_code(format!("abap::{}", e.code()))
        .with_label(label, span);
    match hint(e) {
        Some(hint) => err.with_help(hint),
        None => err,
    }
}

/// The error's hint as Nushell says it: the session writes its hints for the protocol
/// (`'listen' with {"take_over":true}`), a Nushell user types `abap listen --take-over`.
pub(crate) fn hint(e: &ClientError) -> Option<String> {
    match e {
        ClientError::Protocol(p) => p.hint.as_deref().and_then(|h| nu_hint(&p.code, h)),
        other => other.hint(),
    }
}

/// A protocol hint of an error or event of `code`, as Nushell says it.
pub(crate) fn nu_hint(code: &str, hint: &str) -> Option<String> {
    client::hints::for_front_end(client::hints::FrontEnd::Nushell, code, hint)
}

/// An error of the plugin itself about an argument (before anything was sent).
pub(crate) fn invalid_arg(
    message: impl Into<String>,
    label: impl Into<String>,
    span: Span,
) -> LabeledError {
    LabeledError::new(message)
        .with_code("abap::protocol.invalid_args")
        .with_label(label, span)
}

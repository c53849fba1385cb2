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
    match e.hint() {
        Some(hint) => err.with_help(hint),
        None => err,
    }
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

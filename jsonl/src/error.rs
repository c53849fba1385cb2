//! Error bodies with stable string codes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Stable error codes, `family.reason`. Clients switch on these, never on messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// The line is not JSON (or not UTF-8).
    ParseError,
    /// JSON, but not a request object (`cmd` missing, wrong types).
    InvalidRequest,
    UnknownCommand,
    /// The command's `args` are missing, of the wrong type or out of range.
    InvalidArgs,
    /// The line is longer than [`crate::MAX_LINE_BYTES`].
    TooLarge,
    /// The command needs a stopped debuggee.
    NotStopped,
    /// The command needs an attached debuggee.
    NoDebuggee,
    /// The debuggee ended while the command ran.
    DebuggeeEnded,
    /// The system dropped the debuggee's session while the program was stopped; it is being
    /// attached again or released (a `debuggee.lost` event with `reason: session_lost` says which).
    SessionLost,
    /// Another command is already driving the debuggee.
    Busy,
    /// A location could not be understood (`ZCL_X:12` expected).
    InvalidLocation,
    /// Variable id unknown in the current frame.
    VariableNotFound,
    /// Wrong user or password.
    Unauthenticated,
    /// CSRF token refused even after a refetch.
    CsrfFailed,
    /// The system cannot be reached.
    Unreachable,
    /// The request to the system timed out.
    Timeout,
    /// Another IDE or terminal holds the listener.
    ListenerConflict,
    /// The system answered with an ADT error not mapped to a more specific code.
    BackendException,
    /// The system answered with something we could not understand.
    UnexpectedResponse,
    /// The system does not offer what the command needs (its discovery document does not
    /// list it); refused before anything is sent.
    NotSupported,
    /// A classrun ended with a runtime error or was terminated.
    RunFailed,
    /// The server is shutting down.
    ShuttingDown,
    /// A reference (variable id, frame) from an earlier stop was used after the program moved.
    StaleReference,
    /// No breakpoint with that id.
    BreakpointNotFound,
    /// The session holds as many breakpoints as it may (`bp.set`, `bp.import`).
    TooManyBreakpoints,
    /// No short dump with that id (never written, or deleted by the system's reorganisation).
    DumpNotFound,
    /// A write action (`set`, `jump_to_line`) while writes are not allowed.
    WriteNotAllowed,
    /// The request was cancelled by `cancel`.
    Cancelled,
    /// A defect in abapdbg.
    Internal,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::ParseError => "protocol.parse_error",
            ErrorCode::InvalidRequest => "protocol.invalid_request",
            ErrorCode::UnknownCommand => "protocol.unknown_command",
            ErrorCode::InvalidArgs => "protocol.invalid_args",
            ErrorCode::TooLarge => "protocol.too_large",
            ErrorCode::NotStopped => "state.not_stopped",
            ErrorCode::NoDebuggee => "state.no_debuggee",
            ErrorCode::DebuggeeEnded => "state.debuggee_ended",
            ErrorCode::SessionLost => "state.session_lost",
            ErrorCode::Busy => "state.busy",
            ErrorCode::InvalidLocation => "breakpoint.invalid_location",
            ErrorCode::VariableNotFound => "variable.not_found",
            ErrorCode::Unauthenticated => "auth.unauthenticated",
            ErrorCode::CsrfFailed => "auth.csrf_failed",
            ErrorCode::Unreachable => "transport.unreachable",
            ErrorCode::Timeout => "transport.timeout",
            ErrorCode::ListenerConflict => "conflict.listener",
            ErrorCode::BackendException => "adt.backend_exception",
            ErrorCode::UnexpectedResponse => "adt.unexpected_response",
            ErrorCode::NotSupported => "adt.not_supported",
            ErrorCode::RunFailed => "run.failed",
            ErrorCode::ShuttingDown => "state.shutting_down",
            ErrorCode::StaleReference => "state.stale_reference",
            ErrorCode::BreakpointNotFound => "breakpoint.not_found",
            ErrorCode::TooManyBreakpoints => "breakpoint.limit",
            ErrorCode::DumpNotFound => "dump.not_found",
            ErrorCode::WriteNotAllowed => "permission.write_not_allowed",
            ErrorCode::Cancelled => "request.cancelled",
            ErrorCode::Internal => "internal.bug",
        }
    }

    /// Whether the same request may succeed if simply sent again later.
    pub fn retryable(self) -> bool {
        matches!(
            self,
            ErrorCode::NotStopped
                | ErrorCode::Busy
                | ErrorCode::Unreachable
                | ErrorCode::Timeout
                | ErrorCode::ListenerConflict
        )
    }
}

/// The `error` member of a failed response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorBody {
    pub code: String,
    pub message: String,
    pub retryable: bool,
    /// One sentence naming the next thing to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Raw ADT detail (HTTP status, exception type, subtype, T100) so nothing is lost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adt: Option<Value>,
}

impl ErrorBody {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ErrorBody {
            code: code.as_str().to_string(),
            message: message.into(),
            retryable: code.retryable(),
            hint: None,
            adt: None,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn with_adt(mut self, adt: Value) -> Self {
        self.adt = Some(adt);
        self
    }
}

//! DAP messages: a client's request read from JSON, and the responses and events we write.
//!
//! Only requests come from a DAP client (the adapter sends no reverse requests), so anything
//! else is a typed [`RequestError`]; when the bad message still has a `seq`, the adapter can
//! answer it with `success: false`.

use serde_json::{Map, Value, json};

/// A request from the client.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub seq: i64,
    pub command: String,
    /// `{}` when the request has none.
    pub arguments: Value,
}

/// Why a message is not a request we can act on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RequestError {
    #[error("a DAP message must be a JSON object")]
    NotAnObject,
    #[error("the message has no integer 'seq'")]
    NoSeq,
    #[error("message type {0:?}: a debug adapter only takes requests")]
    NotARequest(String),
    #[error("the request has no 'command' string")]
    NoCommand { seq: i64 },
    #[error("'arguments' of '{command}' must be an object")]
    BadArguments { seq: i64, command: String },
}

impl RequestError {
    /// The `seq` and command to answer, when the message had them.
    pub fn answerable(&self) -> Option<(i64, &str)> {
        match self {
            RequestError::NoCommand { seq } => Some((*seq, "")),
            RequestError::BadArguments { seq, command } => Some((*seq, command)),
            _ => None,
        }
    }
}

/// Reads a request from a parsed message.
pub fn parse_request(message: &Value) -> Result<Request, RequestError> {
    let obj = message.as_object().ok_or(RequestError::NotAnObject)?;
    let seq = obj
        .get("seq")
        .and_then(Value::as_i64)
        .ok_or(RequestError::NoSeq)?;
    match obj.get("type").and_then(Value::as_str) {
        Some("request") => {}
        other => {
            return Err(RequestError::NotARequest(
                other.unwrap_or("(none)").to_string(),
            ));
        }
    }
    let command = obj
        .get("command")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
        .ok_or(RequestError::NoCommand { seq })?
        .to_string();
    let arguments = match obj.get("arguments") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(v @ Value::Object(_)) => v.clone(),
        Some(_) => return Err(RequestError::BadArguments { seq, command }),
    };
    Ok(Request {
        seq,
        command,
        arguments,
    })
}

/// A response without `seq` (the writer assigns it).
pub fn response(request_seq: i64, command: &str, body: Option<Value>) -> Value {
    let mut m = json!({
        "type": "response",
        "request_seq": request_seq,
        "command": command,
        "success": true,
    });
    if let Some(body) = body {
        m["body"] = body;
    }
    m
}

/// A failed response: `message` short, `format` the sentence shown to the user.
pub fn error_response(request_seq: i64, command: &str, message: &str, format: &str) -> Value {
    json!({
        "type": "response",
        "request_seq": request_seq,
        "command": command,
        "success": false,
        "message": message,
        "body": {"error": {"id": 1, "format": format, "showUser": true}},
    })
}

/// An event without `seq`.
pub fn event(name: &str, body: Option<Value>) -> Value {
    let mut m = json!({"type": "event", "event": name});
    if let Some(body) = body {
        m["body"] = body;
    }
    m
}

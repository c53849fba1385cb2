//! A tool's failure as agents see it: the protocol's stable `code`, the message and the hint
//! naming the next step, as an `isError` result whose `structuredContent` is
//! `{"error": {"code", "message", "hint"}}` (every output schema admits it).

use client::ClientError;
use serde_json::{Value, json};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ToolError {
    pub code: String,
    pub message: String,
    pub hint: Option<String>,
}

impl ToolError {
    pub fn new(code: &str, message: impl Into<String>) -> ToolError {
        ToolError {
            code: code.to_string(),
            message: message.into(),
            hint: None,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> ToolError {
        self.hint = Some(hint.into());
        self
    }

    /// The tool's arguments are wrong.
    pub fn invalid_args(message: impl Into<String>) -> ToolError {
        ToolError::new("protocol.invalid_args", message)
    }

    /// `code: message (hint: …)`: the text hosts that show text only display.
    pub fn text(&self) -> String {
        match &self.hint {
            Some(h) => format!("{}: {} (hint: {h})", self.code, self.message),
            None => format!("{}: {}", self.code, self.message),
        }
    }

    pub fn structured(&self) -> Value {
        json!({"error": {"code": self.code, "message": self.message, "hint": self.hint}})
    }
}

impl From<ClientError> for ToolError {
    fn from(e: ClientError) -> ToolError {
        let message = match &e {
            ClientError::Protocol(p) => p.message.clone(),
            other => other.to_string(),
        };
        ToolError {
            code: e.code().to_string(),
            message,
            // The session writes its hints for the protocol; an agent calls tools.
            hint: match &e {
                ClientError::Protocol(p) => p.hint.as_deref().and_then(|h| {
                    client::hints::for_front_end(client::hints::FrontEnd::Mcp, &p.code, h)
                }),
                other => other.hint(),
            },
        }
    }
}

impl From<crate::condition::ConditionError> for ToolError {
    fn from(e: crate::condition::ConditionError) -> ToolError {
        ToolError::invalid_args(format!("where: {e}")).with_hint(
            "write it as in a breakpoint condition: AMOUNT > 100 AND CUSTOMER = 'C3' \
             (=, <>, <, >, <=, >=, EQ … GE, AND, OR, NOT, parentheses, literals)",
        )
    }
}

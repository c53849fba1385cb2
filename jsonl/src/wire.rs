//! The shape of a line the server writes, written once: [`crate::Outgoing::to_line`] writes
//! these types, [`crate::parse_outgoing`] reads them, and the schema's `Response` and `Event`
//! definitions are generated from them. Members are in the order they go on the wire.

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{ErrorBody, State};

/// `"type": "response"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ResponseType {
    Response,
}

/// `"type": "event"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum EventType {
    Event,
}

/// Exactly one per request: `result` when `ok`, else `error`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "Response")]
pub(crate) struct ResponseLine<'a> {
    #[serde(rename = "type")]
    pub(crate) kind: ResponseType,
    /// The request's id; `null` when the request line had none that could be read.
    #[schemars(with = "IdOrNull")]
    pub(crate) id: Value,
    #[schemars(range(min = 1))]
    pub(crate) seq: u64,
    /// The request's command; empty when the request line had none that could be read.
    pub(crate) cmd: String,
    pub(crate) ok: bool,
    pub(crate) state: State,
    // Borrowed when written: a result can be a page of a thousand cells, not worth a copy
    // (a plain comment: a doc comment would be the schema's description).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) result: Option<Cow<'a, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "ErrorBody")]
    pub(crate) error: Option<ErrorBody>,
}

/// Something the server reports on its own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "Event")]
pub(crate) struct EventLine<'a> {
    #[serde(rename = "type")]
    pub(crate) kind: EventType,
    #[schemars(range(min = 1))]
    pub(crate) seq: u64,
    pub(crate) event: String,
    pub(crate) state: State,
    /// The id of the request that led to it, shown only to the client that sent it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Id")]
    pub(crate) cause: Option<Value>,
    // Borrowed when written, as a response's `result`.
    #[schemars(with = "Map<String, Value>")]
    pub(crate) body: Cow<'a, Value>,
}

/// A request id as clients write it: a string or a number.
pub(crate) struct Id;

impl JsonSchema for Id {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Id".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": ["string", "integer", "number"]})
    }
}

/// A response's id: the request's, or `null` when none could be read.
pub(crate) struct IdOrNull;

impl JsonSchema for IdOrNull {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "IdOrNull".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": ["string", "integer", "number", "null"]})
    }
}

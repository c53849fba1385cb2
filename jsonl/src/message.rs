//! Requests in, responses and events out.

use std::borrow::Cow;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::wire::{EventLine, EventType, ResponseLine, ResponseType};
use crate::{ErrorBody, ErrorCode, State};

/// A client request: `{"id":…,"cmd":"…","args":{…}}` (`"type":"request"` optional).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// Client-chosen, echoed in the one response (string or number; a number keeps the digits
    /// it was sent with, also beyond 64 bits).
    pub id: Value,
    pub cmd: String,
    /// Command arguments; `{}` when absent.
    #[serde(default = "empty_object")]
    pub args: Value,
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

/// A request line that could not be accepted, with the `id` when one could be read.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejected {
    pub id: Value,
    /// Boxed: rejections are rare and the happy path should stay small.
    pub error: Box<ErrorBody>,
}

/// Parses one request line (without its newline). Never panics. A key named twice in one
/// object, at any depth, is refused: JSON readers disagree on which one counts.
pub fn parse_request(line: &[u8]) -> Result<Request, Rejected> {
    let reject = |id: Value, code: ErrorCode, msg: String| Rejected {
        id,
        error: Box::new(ErrorBody::new(code, msg)),
    };
    let text = std::str::from_utf8(line).map_err(|e| {
        reject(
            Value::Null,
            ErrorCode::ParseError,
            format!("request line is not valid UTF-8: {e}"),
        )
    })?;
    let value: Value = serde_json::from_str(text).map_err(|e| {
        reject(
            Value::Null,
            ErrorCode::ParseError,
            format!("request line is not JSON: {e}"),
        )
    })?;
    let Value::Object(mut obj) = value else {
        return Err(reject(
            Value::Null,
            ErrorCode::InvalidRequest,
            "a request must be a JSON object".into(),
        ));
    };
    if let Err(duplicate) = check_unique_keys(text) {
        // The id is echoed only when it is not itself the key named twice.
        let id = match obj.get("id") {
            Some(id @ (Value::String(_) | Value::Number(_))) if duplicate.key != "id" => id.clone(),
            _ => Value::Null,
        };
        return Err(reject(
            id,
            ErrorCode::InvalidRequest,
            format!(
                "the key \"{}\" appears twice in one object; send each key once",
                duplicate.key
            ),
        ));
    }
    let id = obj.remove("id").unwrap_or(Value::Null);
    if !matches!(id, Value::String(_) | Value::Number(_)) {
        return Err(reject(
            Value::Null,
            ErrorCode::InvalidRequest,
            "a request needs an \"id\" (string or number)".into(),
        ));
    }
    if let Some(kind) = obj.get("type")
        && kind != "request"
    {
        return Err(reject(
            id,
            ErrorCode::InvalidRequest,
            format!("\"type\" must be \"request\", not {kind}"),
        ));
    }
    let cmd = match obj.remove("cmd") {
        Some(Value::String(cmd)) if !cmd.is_empty() => cmd,
        _ => {
            return Err(reject(
                id,
                ErrorCode::InvalidRequest,
                "a request needs a \"cmd\" string".into(),
            ));
        }
    };
    let args = match obj.remove("args") {
        None | Some(Value::Null) => empty_object(),
        Some(args @ Value::Object(_)) => args,
        Some(_) => {
            return Err(reject(
                id,
                ErrorCode::InvalidArgs,
                "\"args\" must be an object".into(),
            ));
        }
    };
    Ok(Request { id, cmd, args })
}

/// A key an object of the request names twice.
#[derive(Debug)]
struct DuplicateKey {
    key: String,
}

/// Walks the JSON text and stops at the first object that names a key twice.
fn check_unique_keys(text: &str) -> Result<(), DuplicateKey> {
    let found = std::cell::RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    // The text already parsed as JSON: the walk fails only where it found a duplicate.
    let _ = UniqueKeys { found: &found }.deserialize(&mut de);
    match found.into_inner() {
        Some(key) => Err(DuplicateKey { key }),
        None => Ok(()),
    }
}

/// Reads any JSON value, keeping nothing but the keys of the object it is in; the first key
/// named twice goes to `found` and ends the walk.
#[derive(Clone, Copy)]
struct UniqueKeys<'a> {
    found: &'a std::cell::RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for UniqueKeys<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UniqueKeys<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_i128<E>(self, _: i128) -> Result<(), E> {
        Ok(())
    }
    fn visit_u128<E>(self, _: u128) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            map.next_value_seed(self)?;
            if !seen.insert(key.clone()) {
                *self.found.borrow_mut() = Some(key);
                return Err(de::Error::custom("duplicate key"));
            }
        }
        Ok(())
    }
}

/// The one answer to a request.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub id: Value,
    pub cmd: String,
    pub state: State,
    pub outcome: Result<Value, ErrorBody>,
}

/// Something the server reports on its own.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub event: String,
    pub state: State,
    pub body: Value,
    /// The request id that led to this event, when there was one.
    pub cause: Option<Value>,
}

/// A successful response whose `result` is JSON text already: what the server writes for a
/// `table` page, serialised straight from its rows (a thousand cells) rather than through a
/// `Value`. Its line is exactly the line of a [`Response`] whose result is that JSON as a
/// `Value`; [`parse_outgoing`] reads it back as such a [`Response`].
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenResponse {
    pub id: Value,
    pub cmd: String,
    pub state: State,
    /// One JSON value in the compact form `serde_json` writes (objects' members in the order
    /// its `Map` keeps them); the server's writer, not this type, vouches for it.
    pub result: String,
}

/// A line the server writes.
#[derive(Debug, Clone, PartialEq)]
pub enum Outgoing {
    Response(Response),
    Event(Event),
    /// Only the server makes these; read back, the line is a [`Outgoing::Response`].
    Written(WrittenResponse),
}

impl Outgoing {
    /// Serialises with the given `seq`, as one line without the newline.
    pub fn to_line(&self, seq: u64) -> String {
        let line = match self {
            Outgoing::Response(r) => serde_json::to_string(&ResponseLine {
                kind: ResponseType::Response,
                id: r.id.clone(),
                seq,
                cmd: r.cmd.clone(),
                ok: r.outcome.is_ok(),
                state: r.state,
                result: r.outcome.as_ref().ok().map(Cow::Borrowed),
                error: r.outcome.as_ref().err().cloned(),
            }),
            Outgoing::Written(w) => serde_json::to_string(&ResponseLine {
                kind: ResponseType::Response,
                id: w.id.clone(),
                seq,
                cmd: w.cmd.clone(),
                ok: true,
                state: w.state,
                result: None,
                error: None,
            })
            .map(|mut line| {
                // `result` is the last member a successful response has: it goes where the
                // object closes.
                line.pop();
                line.push_str(",\"result\":");
                line.push_str(&w.result);
                line.push('}');
                line
            }),
            Outgoing::Event(e) => serde_json::to_string(&EventLine {
                kind: EventType::Event,
                seq,
                event: e.event.clone(),
                state: e.state,
                cause: e.cause.clone(),
                body: Cow::Borrowed(&e.body),
            }),
        };
        // Values of JSON and strings cannot fail to serialise; serde_json escapes control
        // characters, so the line never holds a raw newline.
        line.unwrap_or_default()
    }
}

/// Parses one line the server wrote (without its newline) into what it is: the reader side of
/// [`Outgoing::to_line`], for clients. Never panics; anything that is not a response or an
/// event of this protocol is an `Err` naming what is wrong.
pub fn parse_outgoing(line: &str) -> Result<Outgoing, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    if !value.is_object() {
        return Err("not a JSON object".into());
    }
    match value.get("type").and_then(Value::as_str) {
        Some("response") => {
            let r = ResponseLine::deserialize(value).map_err(|e| format!("bad response: {e}"))?;
            let outcome = match (r.ok, r.error) {
                (true, _) => Ok(r.result.map(Cow::into_owned).unwrap_or(Value::Null)),
                (false, Some(error)) => Err(error),
                (false, None) => return Err("a failed response without 'error'".into()),
            };
            Ok(Outgoing::Response(Response {
                id: r.id,
                cmd: r.cmd,
                state: r.state,
                outcome,
            }))
        }
        Some("event") => {
            let e = EventLine::deserialize(value).map_err(|e| format!("bad event: {e}"))?;
            Ok(Outgoing::Event(Event {
                event: e.event,
                state: e.state,
                body: e.body.into_owned(),
                cause: e.cause,
            }))
        }
        _ => Err("neither a response nor an event".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_written_response_is_the_line_of_the_same_response_as_a_value() {
        let state = State::default();
        for result in [
            json!({"rows": [{"columns": {"A": "x\"\n", "B": "ä"}, "id": "LT[1]", "index": 1}], "total": 1}),
            json!([]),
            json!(null),
            json!("text"),
        ] {
            for id in [json!(7), json!("a"), Value::Null] {
                let written = Outgoing::Written(WrittenResponse {
                    id: id.clone(),
                    cmd: "table".into(),
                    state,
                    result: serde_json::to_string(&result).unwrap(),
                });
                let response = Outgoing::Response(Response {
                    id,
                    cmd: "table".into(),
                    state,
                    outcome: Ok(result.clone()),
                });
                assert_eq!(written.to_line(12), response.to_line(12));
                assert_eq!(parse_outgoing(&written.to_line(12)), Ok(response));
            }
        }
    }

    #[test]
    fn parses_a_full_request() {
        let r = parse_request(br#"{"id":7,"cmd":"bp.set","args":{"location":"ZCL_X:12"}}"#)
            .expect("valid request");
        assert_eq!(r.id, json!(7));
        assert_eq!(r.cmd, "bp.set");
        assert_eq!(r.args["location"], "ZCL_X:12");
    }

    #[test]
    fn args_default_to_an_empty_object() {
        let r = parse_request(br#"{"id":"a","cmd":"status"}"#).expect("valid request");
        assert_eq!(r.args, json!({}));
    }

    #[test]
    fn rejects_with_stable_codes() {
        let code = |line: &[u8]| parse_request(line).map(|_| ()).unwrap_err().error.code;
        assert_eq!(code(b"{nope"), "protocol.parse_error");
        assert_eq!(code(b"\xff\xfe"), "protocol.parse_error");
        assert_eq!(code(b"[1,2]"), "protocol.invalid_request");
        assert_eq!(code(br#"{"cmd":"status"}"#), "protocol.invalid_request");
        assert_eq!(code(br#"{"id":1}"#), "protocol.invalid_request");
        assert_eq!(
            code(br#"{"id":1,"cmd":"x","args":3}"#),
            "protocol.invalid_args"
        );
    }

    #[test]
    fn refuses_a_key_named_twice_at_any_depth() {
        let rejected = parse_request(br#"{"id":4,"cmd":"status","cmd":"shutdown"}"#).unwrap_err();
        assert_eq!(rejected.error.code, "protocol.invalid_request");
        assert!(
            rejected.error.message.contains("\"cmd\""),
            "{:?}",
            rejected.error
        );
        assert_eq!(rejected.id, json!(4));
        let nested = br#"{"id":"n","cmd":"bp.set","args":{"location":"A:1","location":"B:2"}}"#;
        assert_eq!(parse_request(nested).unwrap_err().id, json!("n"));
        let ids = parse_request(br#"{"id":1,"id":2,"cmd":"status"}"#).unwrap_err();
        assert_eq!(ids.id, Value::Null);
        // The same key in two different objects is fine.
        parse_request(br#"{"id":1,"cmd":"x","args":{"a":{"id":1},"b":[{"id":2},{"id":3}]}}"#)
            .expect("keys repeat only across objects");
    }

    #[test]
    fn numeric_ids_keep_their_digits() {
        for id in [
            "18446744073709551616",
            "-99999999999999999999999",
            "1.50",
            "7",
        ] {
            let line = format!(r#"{{"id":{id},"cmd":"status"}}"#);
            let r = parse_request(line.as_bytes()).expect("valid request");
            let out = Outgoing::Response(Response {
                id: r.id,
                cmd: r.cmd,
                state: State::Idle,
                outcome: Ok(json!({})),
            })
            .to_line(1);
            assert!(out.contains(&format!(r#""id":{id},"#)), "{out}");
        }
    }

    #[test]
    fn keeps_the_id_when_the_rest_is_wrong() {
        let rejected = parse_request(br#"{"id":"k1","cmd":5}"#).unwrap_err();
        assert_eq!(rejected.id, json!("k1"));
    }

    #[test]
    fn response_line_has_the_fixed_members() {
        let line = Outgoing::Response(Response {
            id: json!(1),
            cmd: "status".into(),
            state: State::Idle,
            outcome: Ok(json!({"x": "a\nb"})),
        })
        .to_line(9);
        assert!(!line.contains('\n'));
        let v: Value = serde_json::from_str(&line).expect("json");
        assert_eq!(v["type"], "response");
        assert_eq!(v["seq"], 9);
        assert_eq!(v["ok"], true);
        assert_eq!(v["state"], "idle");
        assert_eq!(v["result"]["x"], "a\nb");
    }

    #[test]
    fn error_response_carries_code_and_retryable() {
        let line = Outgoing::Response(Response {
            id: json!("q"),
            cmd: "stack".into(),
            state: State::Listening,
            outcome: Err(ErrorBody::new(ErrorCode::NotStopped, "nothing is stopped")),
        })
        .to_line(3);
        let v: Value = serde_json::from_str(&line).expect("json");
        assert_eq!(v["ok"], false);
        assert_eq!(v["error"]["code"], "state.not_stopped");
        assert_eq!(v["error"]["retryable"], true);
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_any_bytes(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..256)) {
            let _ = parse_request(&bytes);
        }

        #[test]
        fn never_panics_on_json_like_text(text in r#"\{("(id|cmd|args|type)":(1|"x"|null|\[\]|\{\}|true),?){0,5}\}"#) {
            let _ = parse_request(text.as_bytes());
        }
    }

    #[test]
    fn reads_back_what_the_server_writes() {
        let ok = Outgoing::Response(Response {
            id: json!(3),
            cmd: "vars".into(),
            state: State::Stopped,
            outcome: Ok(json!({"epoch": 1})),
        });
        let failed = Outgoing::Response(Response {
            id: json!("x"),
            cmd: "stack".into(),
            state: State::Idle,
            outcome: Err(ErrorBody::new(ErrorCode::NotStopped, "no").with_hint("run")),
        });
        let event = Outgoing::Event(Event {
            event: "stopped".into(),
            state: State::Stopped,
            body: json!({"thread": 1}),
            cause: Some(json!(3)),
        });
        for out in [ok, failed, event] {
            assert_eq!(parse_outgoing(&out.to_line(9)), Ok(out));
        }
    }

    #[test]
    fn refuses_lines_that_are_not_server_lines() {
        for line in [
            "",
            "nope",
            "[]",
            r#"{"type":"request"}"#,
            r#"{"type":"response","id":1}"#,
            r#"{"type":"response","id":1,"ok":false}"#,
            r#"{"type":"event","state":"idle"}"#,
            r#"{"type":"event","event":"x","state":"sleeping"}"#,
        ] {
            assert!(parse_outgoing(line).is_err(), "{line}");
        }
    }
}

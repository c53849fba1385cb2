//! The protocol as a JSON Schema (draft 2020-12): every line the server writes, and the
//! arguments of every command. Each command's arguments and result come from the Rust types
//! the command table ([`crate::commands`]) names, the ones the server decodes and encodes; the
//! envelope and event bodies are written out here. `jsonl/schema.json` is this function's
//! output, checked in; a test keeps the two equal.

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use crate::Command;

/// Bodies of the events whose shape clients rely on (`stopped` and `debuggee.ended` from
/// their types).
fn event_bodies() -> Vec<(&'static str, Value)> {
    vec![
        (
            "ready",
            json!({"type": "object", "required": ["protocol", "version", "pid", "system"],
            "properties": {"protocol": {"type": "string"}, "version": {"type": "string"}, "pid": {"type": "integer"}, "system": {"type": "string"}}}),
        ),
        (
            "listener.armed",
            json!({"type": "object", "required": ["user", "terminal_id", "ide_id"]}),
        ),
        (
            "listener.stopped",
            json!({"type": "object", "required": ["reason"]}),
        ),
        (
            "listener.conflict",
            json!({"type": "object", "required": ["message", "displaced"],
            "properties": {"displaced": {"type": "boolean"}, "holder": {"type": ["string", "null"]}}}),
        ),
        (
            "listener.failed",
            json!({"type": "object", "required": ["message"]}),
        ),
        ("stopped", json!({"$ref": "#/$defs/Stopped"})),
        ("debuggee.ended", json!({"$ref": "#/$defs/Ended"})),
        (
            "debuggee.lost",
            json!({"type": "object", "required": ["message"],
            "properties": {
                "reason": {"enum": ["attach_failed", "session_lost"]},
                "thread": {"type": "integer", "minimum": 1},
                "outcome": {"enum": ["reattached", "released", "ended", "unreleased"]}}}),
        ),
        (
            "thread.released",
            json!({"type": "object", "required": ["program", "how"]}),
        ),
        (
            "breakpoint.changed",
            json!({"type": "object", "required": ["breakpoint"],
            "properties": {"reason": {"const": "reasserted"}}}),
        ),
        (
            "variable.changed",
            json!({"type": "object", "required": ["path", "value"]}),
        ),
        (
            "orphan.released",
            json!({"type": "object", "required": ["pid", "listener_stopped", "debuggees", "errors"]}),
        ),
    ]
}

/// The whole protocol schema. The root validates one line written by the server; requests
/// validate against `#/$defs/Request`.
pub fn protocol_schema() -> Value {
    let mut r#gen = SchemaSettings::draft2020_12().into_generator();
    let commands: Vec<(&str, Value, Value)> = Command::ALL
        .iter()
        .map(|c| {
            (
                c.name(),
                c.args_schema(&mut r#gen),
                c.result_schema(&mut r#gen),
            )
        })
        .collect();
    r#gen.subschema_for::<crate::results::Frame>();
    r#gen.subschema_for::<crate::results::Stopped>();
    r#gen.subschema_for::<crate::results::Ended>();
    r#gen.subschema_for::<crate::wire::ResponseLine>();
    r#gen.subschema_for::<crate::wire::EventLine>();
    let mut defs: Map<String, Value> = r#gen.take_definitions(true);

    let names: Vec<&str> = commands.iter().map(|(n, _, _)| *n).collect();
    let per_command: Vec<Value> = commands
        .iter()
        .map(|(name, args, _)| {
            json!({"if": {"properties": {"cmd": {"const": name}}, "required": ["cmd"]},
                   "then": {"properties": {"args": args}}})
        })
        .collect();
    let per_result: Vec<Value> = commands
        .iter()
        .map(|(name, _, result)| {
            json!({"if": {"properties": {"cmd": {"const": name}, "ok": {"const": true}}, "required": ["cmd", "ok"]},
                   "then": {"properties": {"result": result}}})
        })
        .collect();
    let id = json!({"type": ["string", "integer", "number"]});
    defs.insert(
        "Request".into(),
        json!({
            "description": "A line a client writes.",
            "type": "object",
            "required": ["id", "cmd"],
            "properties": {
                "type": {"const": "request"},
                "id": id,
                "cmd": {"enum": names},
                "args": {"type": ["object", "null"]},
            },
            "allOf": per_command,
        }),
    );
    // The line types allow members a newer server adds (clients ignore them); the schema of
    // this version does not. `result` and `error` follow `ok`; each command has its result.
    if let Some(response) = defs.get_mut("Response").and_then(Value::as_object_mut) {
        response.insert("additionalProperties".into(), false.into());
        response.insert("if".into(), json!({"properties": {"ok": {"const": true}}}));
        response.insert(
            "then".into(),
            json!({"required": ["result"], "not": {"required": ["error"]}}),
        );
        response.insert(
            "else".into(),
            json!({"required": ["error"], "not": {"required": ["result"]}}),
        );
        response.insert("allOf".into(), per_result.into());
    }
    let per_event: Vec<Value> = event_bodies()
        .into_iter()
        .map(|(name, body)| {
            json!({"if": {"properties": {"event": {"const": name}}, "required": ["event"]},
                   "then": {"properties": {"body": body}}})
        })
        .collect();
    if let Some(event) = defs.get_mut("Event").and_then(Value::as_object_mut) {
        event.insert("additionalProperties".into(), false.into());
        event["properties"]["event"]["enum"] = json!(crate::EVENTS);
        event.insert("allOf".into(), per_event.into());
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://abapdbg.invalid/protocol/abapdbg-1.schema.json",
        "title": format!("{} JSON-lines protocol", crate::PROTOCOL_VERSION),
        "description": "One line written by `abapdbg serve`: a response or an event. Requests: #/$defs/Request.",
        "oneOf": [{"$ref": "#/$defs/Response"}, {"$ref": "#/$defs/Event"}],
        "$defs": defs,
    })
}

/// Validates one line the server wrote.
pub fn validate_line(line: &Value) -> Result<(), Vec<String>> {
    crate::validate::validate(&protocol_schema(), line)
}

/// Validates one request line a client writes.
pub fn validate_request(line: &Value) -> Result<(), Vec<String>> {
    let mut schema = protocol_schema();
    schema["oneOf"] = json!([{"$ref": "#/$defs/Request"}]);
    crate::validate::validate(&schema, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_in_schema_is_current() {
        let generated = serde_json::to_string_pretty(&protocol_schema()).unwrap_or_default() + "\n";
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/schema.json");
        if std::env::var_os("ABAPDBG_UPDATE_SCHEMA").is_some() {
            std::fs::write(path, &generated).unwrap_or_else(|e| panic!("write {path}: {e}"));
        }
        let checked_in = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            checked_in == generated,
            "jsonl/schema.json is out of date: regenerate with ABAPDBG_UPDATE_SCHEMA=1 cargo test -p abapdbg-jsonl"
        );
    }

    /// The schema's `Request` names every command of the table, and `Response` types the
    /// arguments and result of each.
    #[test]
    fn the_schema_covers_every_command() {
        let schema = protocol_schema();
        let request = &schema["$defs"]["Request"];
        assert_eq!(request["properties"]["cmd"]["enum"], json!(crate::COMMANDS));
        let with_args: Vec<&Value> = request["allOf"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| &c["if"]["properties"]["cmd"]["const"])
            .collect();
        let with_result: Vec<&Value> = schema["$defs"]["Response"]["allOf"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| &c["if"]["properties"]["cmd"]["const"])
            .collect();
        for name in crate::COMMANDS {
            assert!(
                with_args.contains(&&json!(name)),
                "no argument schema for {name}"
            );
            assert!(
                with_result.contains(&&json!(name)),
                "no result schema for {name}"
            );
        }
        assert_eq!(with_args.len(), crate::COMMANDS.len());
        assert_eq!(with_result.len(), crate::COMMANDS.len());
    }

    #[test]
    fn every_event_body_names_an_event() {
        for (name, _) in event_bodies() {
            assert!(
                crate::EVENTS.contains(&name),
                "body schema for unknown event {name}"
            );
        }
    }

    /// The writer and the schema come from the same line types: what `to_line` writes fits.
    #[test]
    fn written_lines_fit_the_schema() {
        use crate::{ErrorBody, ErrorCode, Event, Outgoing, Response, State};
        let lines = [
            Outgoing::Response(Response {
                id: json!("a"),
                cmd: "bp.delete".into(),
                state: State::Idle,
                outcome: Ok(json!({"deleted": [1, 2]})),
            }),
            Outgoing::Response(Response {
                id: Value::Null,
                cmd: String::new(),
                state: State::Stopped,
                outcome: Err(ErrorBody::new(ErrorCode::ParseError, "not JSON")),
            }),
            Outgoing::Event(Event {
                event: "listener.stopped".into(),
                state: State::Idle,
                body: json!({"reason": "unlisten"}),
                cause: Some(json!(7)),
            }),
        ];
        for out in lines {
            let line: Value = serde_json::from_str(&out.to_line(4)).unwrap_or_default();
            assert_eq!(validate_line(&line), Ok(()), "{line}");
        }
    }

    #[test]
    fn lines_are_checked() {
        let ok = json!({"type":"response","id":1,"seq":2,"cmd":"bp.delete","ok":true,"state":"idle","result":{"deleted":[1]}});
        assert_eq!(validate_line(&ok), Ok(()));
        let future = json!({"type":"response","id":1,"seq":2,"cmd":"bp.delete","ok":true,"state":"idle","result":{"deleted":[],"added_later":1}});
        assert_eq!(validate_line(&future), Ok(()), "results may gain members");
        let err = json!({"type":"response","id":null,"seq":3,"cmd":"","ok":false,"state":"idle",
            "error":{"code":"protocol.parse_error","message":"x","retryable":false}});
        assert_eq!(validate_line(&err), Ok(()));
        for bad in [
            json!({"type":"response","id":1,"seq":0,"cmd":"bp.delete","ok":true,"state":"idle","result":{"deleted":[]}}),
            json!({"type":"response","id":1,"seq":2,"cmd":"bp.delete","ok":true,"state":"idle","result":{"deleted":"all"}}),
            json!({"type":"response","id":1,"seq":2,"cmd":"status","ok":true,"state":"idle","result":{}}),
            json!({"type":"response","id":1,"seq":2,"cmd":"status","ok":true,"state":"idle"}),
            json!({"type":"response","id":1,"seq":2,"cmd":"status","ok":false,"state":"idle","result":{}}),
            json!({"type":"event","seq":2,"event":"nonsense","state":"idle","body":{}}),
            json!({"type":"event","seq":2,"event":"stopped","state":"weird","body":{}}),
            json!({"type":"event","seq":2,"event":"debuggee.ended","state":"ended","body":{"thread":1,"reason":"vanished"}}),
        ] {
            assert!(validate_line(&bad).is_err(), "{bad}");
        }
        assert_eq!(
            validate_request(&json!({"id":1,"cmd":"step","args":{"type":"over"}})),
            Ok(())
        );
        assert!(
            validate_request(&json!({"id":1,"cmd":"step","args":{"type":"sideways"}})).is_err()
        );
        assert!(validate_request(&json!({"id":1,"cmd":"nope"})).is_err());
    }
}

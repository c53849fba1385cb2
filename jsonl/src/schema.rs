//! The protocol as a JSON Schema (draft 2020-12): every line the server writes, and the
//! arguments of every command. Request arguments come from the Rust types in [`crate::args`];
//! the envelope and event bodies are written out here. `jsonl/schema.json` is this function's
//! output, checked in; a test keeps the two equal.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use crate::args::*;
use crate::error::ErrorBody;

/// Argument type of each command (`None`: the command takes no arguments).
fn command_args(r#gen: &mut schemars::SchemaGenerator) -> Vec<(&'static str, Value)> {
    fn of<T: JsonSchema>(r#gen: &mut schemars::SchemaGenerator) -> Value {
        r#gen.subschema_for::<T>().to_value()
    }
    let none = || json!({"type": "object"});
    vec![
        ("hello", of::<HelloArgs>(r#gen)),
        ("status", none()),
        ("configure", of::<ConfigureArgs>(r#gen)),
        ("cancel", of::<CancelArgs>(r#gen)),
        ("bp.set", of::<BpSetArgs>(r#gen)),
        ("bp.list", none()),
        ("bp.delete", of::<BpIdsArgs>(r#gen)),
        ("bp.enable", of::<BpIdsArgs>(r#gen)),
        ("bp.disable", of::<BpIdsArgs>(r#gen)),
        ("bp.export", none()),
        ("bp.import", of::<BpImportArgs>(r#gen)),
        ("listen", of::<ListenArgs>(r#gen)),
        ("unlisten", none()),
        ("run", of::<RunArgs>(r#gen)),
        ("test", of::<TestArgs>(r#gen)),
        ("watch.set", of::<WatchSetArgs>(r#gen)),
        ("watch.list", none()),
        ("watch.delete", of::<WatchIdArgs>(r#gen)),
        ("wait", of::<WaitArgs>(r#gen)),
        ("step", of::<StepArgs>(r#gen)),
        ("run_to_line", of::<LineTargetArgs>(r#gen)),
        ("jump_to_line", of::<LineTargetArgs>(r#gen)),
        ("terminate", none()),
        ("detach", none()),
        ("threads", none()),
        ("thread", of::<ThreadArgs>(r#gen)),
        ("stack", none()),
        ("frame", of::<FrameArgs>(r#gen)),
        ("vars", of::<VarsArgs>(r#gen)),
        ("get", of::<GetArgs>(r#gen)),
        ("set", of::<SetArgs>(r#gen)),
        ("table", of::<TableArgs>(r#gen)),
        ("export", of::<ExportArgs>(r#gen)),
        ("source", of::<SourceArgs>(r#gen)),
        ("search", of::<SearchArgs>(r#gen)),
        ("schema", none()),
        ("shutdown", none()),
    ]
}

/// Bodies of the events whose shape clients rely on.
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
        (
            "stopped",
            json!({"type": "object", "required": ["reason", "thread", "frame"],
            "properties": {
                "epoch": {"type": "integer", "minimum": 1},
                "reason": {"enum": ["breakpoint", "step", "watchpoint", "exception"]},
                "thread": {"type": "integer", "minimum": 1},
                "breakpoints": {"type": "array", "items": {"type": "integer"}},
                "depth": {"type": "integer"},
                "frame": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/Frame"}]}}}),
        ),
        (
            "debuggee.ended",
            json!({"type": "object", "required": ["thread", "reason"],
            "properties": {"reason": {"enum": ["finished", "terminated", "detached", "lost"]}}}),
        ),
        (
            "debuggee.lost",
            json!({"type": "object", "required": ["message"]}),
        ),
        (
            "thread.released",
            json!({"type": "object", "required": ["program", "how"]}),
        ),
        (
            "breakpoint.changed",
            json!({"type": "object", "required": ["breakpoint"]}),
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
    let commands = command_args(&mut r#gen);
    let error_body = r#gen.subschema_for::<ErrorBody>().to_value();
    let state = r#gen.subschema_for::<crate::State>().to_value();
    let mut defs: Map<String, Value> = r#gen.take_definitions(true);

    let names: Vec<&str> = commands.iter().map(|(n, _)| *n).collect();
    let per_command: Vec<Value> = commands
        .iter()
        .map(|(name, args)| {
            json!({"if": {"properties": {"cmd": {"const": name}}, "required": ["cmd"]},
                   "then": {"properties": {"args": args}}})
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
    defs.insert(
        "Response".into(),
        json!({
            "description": "Exactly one per request.",
            "type": "object",
            "required": ["type", "id", "seq", "cmd", "ok", "state"],
            "properties": {
                "type": {"const": "response"},
                "id": {"type": ["string", "integer", "number", "null"]},
                "seq": {"type": "integer", "minimum": 1},
                "cmd": {"type": "string"},
                "ok": {"type": "boolean"},
                "state": state,
                "result": true,
                "error": error_body,
            },
            "additionalProperties": false,
            "if": {"properties": {"ok": {"const": true}}},
            "then": {"required": ["result"], "not": {"required": ["error"]}},
            "else": {"required": ["error"], "not": {"required": ["result"]}},
        }),
    );
    let events: Vec<&str> = crate::EVENTS.to_vec();
    let per_event: Vec<Value> = event_bodies()
        .into_iter()
        .map(|(name, body)| {
            json!({"if": {"properties": {"event": {"const": name}}, "required": ["event"]},
                   "then": {"properties": {"body": body}}})
        })
        .collect();
    defs.insert(
        "Event".into(),
        json!({
            "description": "Something the server reports on its own.",
            "type": "object",
            "required": ["type", "seq", "event", "state", "body"],
            "properties": {
                "type": {"const": "event"},
                "seq": {"type": "integer", "minimum": 1},
                "event": {"enum": events},
                "state": state,
                "cause": {"type": ["string", "integer", "number"]},
                "body": {"type": "object"},
            },
            "additionalProperties": false,
            "allOf": per_event,
        }),
    );
    defs.insert(
        "Frame".into(),
        json!({
            "description": "A stack frame. `line` counts in the object source `uri` points to.",
            "type": "object",
            "required": ["index", "object", "method", "program", "include", "line", "uri"],
            "properties": {
                "index": {"type": "integer", "minimum": 0},
                "object": {"type": "string"},
                "method": {"type": "string"},
                "event_type": {"type": "string"},
                "program": {"type": "string"},
                "include": {"type": "string"},
                "line": {"type": "integer", "minimum": 0},
                "uri": {"type": "string"},
                "system": {"type": "boolean"},
                "source": {"type": "array", "items": {"type": "object", "required": ["line", "text", "current"]}},
            },
        }),
    );
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
            "jsonl/schema.json is out of date: regenerate with ABAPDBG_UPDATE_SCHEMA=1 cargo test -p jsonl"
        );
    }

    #[test]
    fn every_command_has_an_argument_schema() {
        let mut r#gen = SchemaSettings::draft2020_12().into_generator();
        let names: Vec<&str> = command_args(&mut r#gen).iter().map(|(n, _)| *n).collect();
        let mut expected: Vec<&str> = crate::COMMANDS.to_vec();
        expected.retain(|c| *c != "cancel" || names.contains(c));
        for c in crate::COMMANDS {
            assert!(names.contains(c), "no argument schema for {c}");
        }
        for (name, _) in event_bodies() {
            assert!(
                crate::EVENTS.contains(&name),
                "body schema for unknown event {name}"
            );
        }
    }

    #[test]
    fn lines_are_checked() {
        let ok = json!({"type":"response","id":1,"seq":2,"cmd":"status","ok":true,"state":"idle","result":{}});
        assert_eq!(validate_line(&ok), Ok(()));
        let err = json!({"type":"response","id":null,"seq":3,"cmd":"","ok":false,"state":"idle",
            "error":{"code":"protocol.parse_error","message":"x","retryable":false}});
        assert_eq!(validate_line(&err), Ok(()));
        for bad in [
            json!({"type":"response","id":1,"seq":0,"cmd":"status","ok":true,"state":"idle","result":{}}),
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

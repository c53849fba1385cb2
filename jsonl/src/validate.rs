//! A JSON Schema validator for the subset of draft 2020-12 that the protocol schema uses.
//!
//! Clients can check lines against [`crate::schema::protocol_schema`] without another
//! dependency. A keyword it does not implement is reported as an error, never skipped, so a
//! schema can never pass an instance by being misunderstood.

use serde_json::{Map, Value};

/// Keywords that carry no constraint.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$defs",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "format",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Validates `instance`; returns every violation with its JSON pointer.
pub fn validate(schema: &Value, instance: &Value) -> Result<(), Vec<String>> {
    let mut errors = Vec::new();
    check(schema, schema, instance, "", &mut errors, 0);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn type_matches(name: &str, v: &Value) -> bool {
    match name {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.as_i64().is_some() || v.as_u64().is_some(),
        _ => false,
    }
}

fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    root.pointer(pointer)
}

fn check(
    root: &Value,
    schema: &Value,
    v: &Value,
    at: &str,
    errors: &mut Vec<String>,
    depth: usize,
) {
    if depth > 64 {
        errors.push(format!("{at}: schema nesting too deep (recursive $ref?)"));
        return;
    }
    let obj: &Map<String, Value> = match schema {
        Value::Bool(true) => return,
        Value::Bool(false) => {
            errors.push(format!("{at}: no value is allowed here"));
            return;
        }
        Value::Object(o) => o,
        _ => {
            errors.push(format!("{at}: the schema is not an object or boolean"));
            return;
        }
    };
    for (key, arg) in obj {
        if ANNOTATIONS.contains(&key.as_str()) || key.starts_with("x-") {
            continue;
        }
        match key.as_str() {
            "$ref" => match arg.as_str().and_then(|r| resolve(root, r)) {
                Some(target) => check(root, target, v, at, errors, depth + 1),
                None => errors.push(format!("{at}: unresolvable $ref {arg}")),
            },
            "type" => {
                let ok = match arg {
                    Value::String(t) => type_matches(t, v),
                    Value::Array(ts) => ts
                        .iter()
                        .filter_map(Value::as_str)
                        .any(|t| type_matches(t, v)),
                    _ => false,
                };
                if !ok {
                    errors.push(format!("{at}: expected type {arg}, got {}", short(v)));
                }
            }
            "enum" => {
                if !arg.as_array().is_some_and(|a| a.contains(v)) {
                    errors.push(format!("{at}: {} is not one of {arg}", short(v)));
                }
            }
            "const" => {
                if arg != v {
                    errors.push(format!("{at}: expected {arg}, got {}", short(v)));
                }
            }
            "minimum" => {
                if let (Some(min), Some(n)) = (arg.as_f64(), v.as_f64())
                    && n < min
                {
                    errors.push(format!("{at}: {n} is below the minimum {min}"));
                }
            }
            "minLength" => {
                if let (Some(min), Some(s)) = (arg.as_u64(), v.as_str())
                    && (s.chars().count() as u64) < min
                {
                    errors.push(format!("{at}: shorter than {min} characters"));
                }
            }
            "required" => {
                if let Some(o) = v.as_object() {
                    for name in arg
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                    {
                        if !o.contains_key(name) {
                            errors.push(format!("{at}: missing member \"{name}\""));
                        }
                    }
                }
            }
            "properties" => {
                if let (Some(props), Some(o)) = (arg.as_object(), v.as_object()) {
                    for (name, sub) in props {
                        if let Some(member) = o.get(name) {
                            check(
                                root,
                                sub,
                                member,
                                &format!("{at}/{name}"),
                                errors,
                                depth + 1,
                            );
                        }
                    }
                }
            }
            "additionalProperties" => {
                if let Some(o) = v.as_object() {
                    let known = obj.get("properties").and_then(Value::as_object);
                    for (name, member) in o {
                        if known.is_some_and(|k| k.contains_key(name)) {
                            continue;
                        }
                        check(
                            root,
                            arg,
                            member,
                            &format!("{at}/{name}"),
                            errors,
                            depth + 1,
                        );
                    }
                }
            }
            "items" => {
                if let Some(items) = v.as_array() {
                    for (i, item) in items.iter().enumerate() {
                        check(root, arg, item, &format!("{at}/{i}"), errors, depth + 1);
                    }
                }
            }
            "allOf" => {
                for sub in arg.as_array().into_iter().flatten() {
                    check(root, sub, v, at, errors, depth + 1);
                }
            }
            "anyOf" | "oneOf" => {
                let subs: Vec<&Value> = arg.as_array().into_iter().flatten().collect();
                let passing = subs
                    .iter()
                    .filter(|sub| {
                        let mut e = Vec::new();
                        check(root, sub, v, at, &mut e, depth + 1);
                        e.is_empty()
                    })
                    .count();
                let ok = if key == "oneOf" {
                    passing == 1
                } else {
                    passing >= 1
                };
                if !ok {
                    errors.push(format!(
                        "{at}: {} of the {key} alternatives match {}",
                        passing,
                        short(v)
                    ));
                }
            }
            "not" => {
                let mut e = Vec::new();
                check(root, arg, v, at, &mut e, depth + 1);
                if e.is_empty() {
                    errors.push(format!("{at}: matches a schema it must not match"));
                }
            }
            "if" => {
                let mut e = Vec::new();
                check(root, arg, v, at, &mut e, depth + 1);
                let branch = if e.is_empty() {
                    obj.get("then")
                } else {
                    obj.get("else")
                };
                if let Some(b) = branch {
                    check(root, b, v, at, errors, depth + 1);
                }
            }
            "then" | "else" => {} // handled with "if"
            other => errors.push(format!("{at}: unsupported schema keyword \"{other}\"")),
        }
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 60 {
        let mut end = 60;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", &s[..end])
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn checks_what_it_claims() {
        let schema = json!({
            "$defs": {"Kind": {"type": "string", "enum": ["a", "b"]}},
            "type": "object",
            "properties": {"k": {"$ref": "#/$defs/Kind"}, "n": {"type": ["integer", "null"], "minimum": 0}},
            "required": ["k"],
            "additionalProperties": false,
            "if": {"properties": {"k": {"const": "b"}}},
            "then": {"required": ["n"]}
        });
        assert!(validate(&schema, &json!({"k": "a"})).is_ok());
        assert!(validate(&schema, &json!({"k": "b", "n": 3})).is_ok());
        let bad = [
            json!({"k": "c"}),
            json!({}),
            json!({"k": "a", "x": 1}),
            json!({"k": "a", "n": -1}),
            json!({"k": "a", "n": "1"}),
            json!({"k": "b"}),
            json!([]),
        ];
        for b in bad {
            assert!(validate(&schema, &b).is_err(), "{b}");
        }
    }

    #[test]
    fn one_of_needs_exactly_one() {
        let schema = json!({"oneOf": [{"type": "integer"}, {"type": "number"}]});
        assert!(validate(&schema, &json!(1.5)).is_ok());
        assert!(
            validate(&schema, &json!(1)).is_err(),
            "1 is an integer and a number"
        );
    }

    #[test]
    fn unknown_keywords_fail_instead_of_passing() {
        let e = validate(&json!({"pattern": "^a"}), &json!("b")).unwrap_err();
        assert!(e[0].contains("unsupported"), "{e:?}");
        assert!(validate(&json!({"$ref": "#/nowhere"}), &json!(1)).is_err());
        assert!(
            validate(&json!({"$ref": "#"}), &json!(1)).is_err(),
            "recursion is bounded"
        );
    }
}

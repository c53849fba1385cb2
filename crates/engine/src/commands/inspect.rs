//! Looking at a stopped program: `stack` and `vars`.

use std::sync::Arc;

use jsonl::args::{VarsArgs, decode};
use jsonl::{ErrorBody, ErrorCode};
use serde_json::{Value, json};

use super::{Outcome, stopped_client};
use crate::debuggee::frame_json;
use crate::engine::Engine;
use crate::errors::from_adt;

pub(crate) async fn stack(engine: &Arc<Engine>) -> Outcome {
    let client = stopped_client(engine)?;
    let stack = client
        .stack()
        .await
        .map_err(|e| from_adt("reading the stack", &e))?;
    let frames: Vec<Value> = stack
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| frame_json(i, e))
        .collect();
    Ok(json!({"epoch": engine.lock().epoch, "current": stack.cursor_index, "frames": frames}))
}

pub(crate) async fn vars(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: VarsArgs = decode("vars", args)?;
    let client = stopped_client(engine)?;
    let epoch = engine.lock().epoch;
    match args.id {
        None => scopes(&client, epoch).await,
        Some(id) => children(&client, epoch, &id.to_uppercase()).await,
    }
}

/// The current frame's scopes (discovered from `@ROOT`, never assumed) with their variables.
async fn scopes(client: &adt::Client, epoch: u64) -> Outcome {
    let root = client
        .child_variables(&["@ROOT".to_string()])
        .await
        .map_err(|e| from_adt("reading the scopes", &e))?;
    let mut scopes = Vec::new();
    let mut variables = Vec::new();
    for h in root
        .hierarchies
        .iter()
        .filter(|h| h.parent_id == "@ROOT" && !h.child_id.is_empty())
    {
        if h.child_id.starts_with('@') {
            scopes.push((h.child_id.clone(), h.child_name.clone()));
        } else if let Some(v) = root.variables.iter().find(|v| v.id == h.child_id) {
            // A variable shown right under the root, such as ME.
            variables.push(variable_json(v, ""));
        }
    }
    let ids: Vec<String> = scopes.iter().map(|(id, _)| id.clone()).collect();
    if !ids.is_empty() {
        let inner = client
            .child_variables(&ids)
            .await
            .map_err(|e| from_adt("reading variables", &e))?;
        for h in &inner.hierarchies {
            let Some(v) = inner.variables.iter().find(|v| v.id == h.child_id) else {
                continue;
            };
            let scope = scopes
                .iter()
                .find(|(id, _)| *id == h.parent_id)
                .map(|(_, name)| name.as_str())
                .unwrap_or_default();
            variables.push(variable_json(v, scope));
        }
    }
    let scopes: Vec<Value> = scopes
        .into_iter()
        .map(|(id, name)| json!({"id": id, "name": name}))
        .collect();
    Ok(json!({"epoch": epoch, "scopes": scopes, "variables": variables}))
}

async fn children(client: &adt::Client, epoch: u64, id: &str) -> Outcome {
    let kids = client
        .child_variables(&[id.to_string()])
        .await
        .map_err(|e| from_adt("reading variables", &e))?;
    let mut variables: Vec<Value> = kids
        .hierarchies
        .iter()
        .filter(|h| h.parent_id == id)
        .filter_map(|h| kids.variables.iter().find(|v| v.id == h.child_id))
        .map(|v| variable_json(v, ""))
        .collect();
    if variables.is_empty() {
        // Not expandable (or unknown): answer the variable itself, or say it does not exist.
        let own = client
            .variables(&[id.to_string()])
            .await
            .map_err(|e| from_adt("reading variables", &e))?;
        if own.is_empty() {
            return Err(ErrorBody::new(
                ErrorCode::VariableNotFound,
                format!("no variable '{id}' in the current frame"),
            )
            .with_hint("list the frame's variables with 'vars' and no arguments"));
        }
        variables = own.iter().map(|v| variable_json(v, "")).collect();
    }
    Ok(json!({"epoch": epoch, "parent": id, "variables": variables}))
}

/// A variable as the protocol shows it. `value` is the value as a script wants it (numbers
/// with a leading sign instead of ABAP's trailing sign column); `raw` is exactly what the
/// system sent.
pub(crate) fn variable_json(v: &adt::Variable, scope: &str) -> Value {
    json!({
        "id": v.id,
        "name": v.name,
        "scope": scope,
        "value": display_value(v),
        "raw": v.value,
        "type": v.technical_type,
        "declared_type": v.declared_type_name,
        "meta": v.meta_type,
        "kind": v.kind,
        "length": v.length,
        "rows": v.table_lines,
        "readonly": v.read_only,
        "expandable": matches!(v.meta_type.as_str(), "structure" | "table" | "dataref" | "objectref" | "class" | "object" | "boxref"),
    })
}

fn display_value(v: &adt::Variable) -> String {
    let numeric = matches!(
        v.technical_type.as_str(),
        "I" | "P" | "INT8" | "8" | "b" | "s" | "F" | "DECFLOAT16" | "DECFLOAT34"
    );
    if !numeric {
        return v.value.clone();
    }
    let t = v.value.trim();
    match t.strip_suffix('-') {
        Some(digits) => format!("-{digits}"),
        None => t.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(t: &str, value: &str) -> adt::Variable {
        adt::Variable {
            technical_type: t.into(),
            value: value.into(),
            ..Default::default()
        }
    }

    #[test]
    fn numbers_lose_the_sign_column_characters_keep_their_blanks() {
        assert_eq!(display_value(&var("I", "15 ")), "15");
        assert_eq!(display_value(&var("I", "42-")), "-42");
        assert_eq!(display_value(&var("P", "123.45-")), "-123.45");
        assert_eq!(display_value(&var("C", "A001      ")), "A001      ");
        assert_eq!(display_value(&var("CString", " x ")), " x ");
    }

    #[test]
    fn raw_is_kept() {
        let v = variable_json(&var("I", "7 "), "Locals");
        assert_eq!(v["raw"], "7 ");
        assert_eq!(v["value"], "7");
        assert_eq!(v["scope"], "Locals");
    }
}

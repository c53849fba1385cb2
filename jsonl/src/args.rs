//! Typed arguments of each command. Unknown members are ignored (clients may be newer).

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use serde_json::Value;

use crate::{ErrorBody, ErrorCode};

/// Decodes a request's `args` into the command's argument type.
pub fn decode<T: DeserializeOwned>(cmd: &str, args: &Value) -> Result<T, ErrorBody> {
    serde_json::from_value(args.clone()).map_err(|e| {
        ErrorBody::new(ErrorCode::InvalidArgs, format!("{cmd}: {e}"))
            .with_hint(format!("see PROTOCOL.md for the arguments of '{cmd}'"))
    })
}

/// `bp.set`: one `location` or many `locations`, each `OBJECT:LINE` (line in `/source/main`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BpSetArgs {
    #[serde(default)]
    pub location: Option<String>,
    #[serde(default)]
    pub locations: Vec<String>,
    /// ABAP condition evaluated when the line is reached.
    #[serde(default)]
    pub condition: Option<String>,
}

impl BpSetArgs {
    /// All locations asked for, in order.
    pub fn all_locations(&self) -> Vec<String> {
        self.location
            .iter()
            .chain(self.locations.iter())
            .cloned()
            .collect()
    }
}

/// `run`: run a class as a console application (`IF_OO_ADT_CLASSRUN`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunArgs {
    pub class: String,
}

/// What `wait` waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WaitUntil {
    /// A debuggee is stopped.
    Stopped,
    /// The last debuggee ended (ran to its end or was terminated).
    Ended,
}

/// `wait`: block until a condition holds, at most `timeout_ms`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WaitArgs {
    pub until: WaitUntil,
    #[serde(default = "default_wait_ms")]
    pub timeout_ms: u64,
}

fn default_wait_ms() -> u64 {
    30_000
}

/// Step kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StepType {
    Into,
    Over,
    Out,
    Continue,
}

/// `step`: move the stopped debuggee. Answers when it stops again or ends, or after
/// `timeout_ms` with `pending: true` (the stop then arrives as an event).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepArgs {
    #[serde(rename = "type")]
    pub step_type: StepType,
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// `vars`: without `id` the variables of the current frame's scopes; with `id` the children
/// of that variable (`LS_ORDER`, `ME`, `LT_ITEMS[2]`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct VarsArgs {
    #[serde(default)]
    pub id: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn decodes_each_command() {
        let bp: BpSetArgs = decode("bp.set", &json!({"location": "ZCL_X:3"})).expect("bp");
        assert_eq!(bp.all_locations(), vec!["ZCL_X:3".to_string()]);
        let w: WaitArgs = decode("wait", &json!({"until": "stopped"})).expect("wait");
        assert_eq!(w.until, WaitUntil::Stopped);
        assert_eq!(w.timeout_ms, 30_000);
        let s: StepArgs = decode("step", &json!({"type": "over"})).expect("step");
        assert_eq!(s.step_type, StepType::Over);
        let v: VarsArgs = decode("vars", &json!({})).expect("vars");
        assert_eq!(v.id, None);
    }

    #[test]
    fn wrong_args_are_invalid_args() {
        let e = decode::<StepArgs>("step", &json!({"type": "sideways"})).unwrap_err();
        assert_eq!(e.code, "protocol.invalid_args");
        let e = decode::<RunArgs>("run", &json!({})).unwrap_err();
        assert!(e.message.contains("class"), "{}", e.message);
        let e =
            decode::<WaitArgs>("wait", &json!({"until": "stopped", "timeout_ms": -1})).unwrap_err();
        assert_eq!(e.code, "protocol.invalid_args");
    }
}

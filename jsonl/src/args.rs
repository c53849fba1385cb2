//! Typed arguments of each command. Unknown members are ignored (clients may be newer).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use serde_json::Value;

use crate::{ErrorBody, ErrorCode};

/// The arguments as a request without them means them, so a typed client's
/// `..Default::default()` sends what `{}` would.
fn defaults_of<T: DeserializeOwned>() -> T {
    // Every member of these types has a serde default: `{}` always decodes.
    match serde_json::from_value(Value::Object(serde_json::Map::new())) {
        Ok(t) => t,
        Err(e) => unreachable!("arguments without a default: {e}"),
    }
}

impl Default for BpSetArgs {
    fn default() -> Self {
        defaults_of()
    }
}

impl Default for VarsArgs {
    fn default() -> Self {
        defaults_of()
    }
}

impl Default for SourceArgs {
    fn default() -> Self {
        defaults_of()
    }
}

/// Decodes a request's `args` into the command's argument type.
pub fn decode<T: DeserializeOwned>(cmd: &str, args: &Value) -> Result<T, ErrorBody> {
    serde_json::from_value(args.clone()).map_err(|e| {
        ErrorBody::new(ErrorCode::InvalidArgs, format!("{cmd}: {e}"))
            .with_hint(format!("see PROTOCOL.md for the arguments of '{cmd}'"))
    })
}

/// `bp.set`: line breakpoints by `location` or `locations` (`OBJECT:LINE`, line in
/// `/source/main`, or any address form of PROTOCOL.md), and/or one breakpoint of another
/// kind: `statement` (`CATCH`), `exception` (`CX_SY_ZERODIVIDE`), `message`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BpSetArgs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub locations: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exception: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<MessageArgs>,
    /// ABAP condition evaluated when the breakpoint is reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// `false` registers the breakpoint without sending it (as `bp.disable` would).
    #[serde(default = "yes")]
    pub enabled: bool,
}

fn yes() -> bool {
    true
}

/// A message breakpoint: all three parts are required by the system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MessageArgs {
    pub id: String,
    pub number: String,
    #[serde(rename = "type")]
    pub ty: String,
}

/// `bp.delete`, `bp.enable`, `bp.disable`: one `id`, several `ids`, or `all`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BpIdsArgs {
    #[serde(default)]
    pub id: Option<u32>,
    #[serde(default)]
    pub ids: Vec<u32>,
    #[serde(default)]
    pub all: bool,
}

/// `bp.import`: breakpoints in the form `bp.export` wrote them (each a `bp.set` argument
/// object).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BpImportArgs {
    pub breakpoints: Vec<BpSetArgs>,
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

/// `hello`: `events` limits which events this client receives (`ready` always comes).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HelloArgs {
    #[serde(default)]
    pub events: Option<Vec<String>>,
    /// This client attends the stop for a person or an agent (a REPL, an editor, an agent's
    /// server): when every client is gone while a program is stopped and one that attended
    /// was among them, the program is released after the session's grace period. One-shot
    /// commands leave it out: their connections end after every command.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attended: bool,
}

/// `configure`: limits of this session; each member optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfigureArgs {
    /// Values longer than this many characters are cut (marked `truncated`) in `vars` and
    /// `table`; `get` with `full` always returns them whole.
    #[serde(default)]
    pub max_value_chars: Option<usize>,
    /// How long `step` and friends wait before answering `pending` (the outcome then comes as
    /// an event).
    #[serde(default)]
    pub step_timeout_ms: Option<u64>,
    /// Source lines before and after the current line in `stopped` events and `frame`
    /// (default 5: eleven lines), 0 to 50.
    #[serde(default)]
    pub source_context: Option<u32>,
    /// Debugger settings, applied to every attached program now and to those caught later.
    #[serde(default)]
    pub settings: Option<SettingsArgs>,
}

/// `cancel`: stop waiting for the request with this `id`. It answers `request.cancelled`;
/// what it started on the system (a step, a run) goes on and reports through events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CancelArgs {
    pub id: Value,
}

/// `listen`: arm the listener. `take_over` takes it from another debugger listening for the
/// same user (that one is told, as a conflict notification).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListenArgs {
    #[serde(default)]
    pub take_over: bool,
}

/// `run`: run a `class` as a console application (`IF_OO_ADT_CLASSRUN`), or a report
/// `program` (where the system offers a way to).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RunArgs {
    #[serde(default)]
    pub class: Option<String>,
    #[serde(default)]
    pub program: Option<String>,
}

/// `test`: run the ABAP Unit tests of a `class` or `program`; `method` narrows the run to one
/// test method (`LTCL_X=>TEST_A` or `TEST_A`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestArgs {
    #[serde(default)]
    pub class: Option<String>,
    #[serde(default)]
    pub program: Option<String>,
    #[serde(default)]
    pub method: Option<String>,
}

/// `watch.set`: stop when `variable` changes (and `condition` holds).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WatchSetArgs {
    pub variable: String,
    #[serde(default)]
    pub condition: Option<String>,
    /// The thread this request is for (`threads` lists them); the session's current one when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// The stack frame this request is for (0 = innermost); the thread's selected frame when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<usize>,
}

/// `watch.delete`: a watchpoint by its id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WatchIdArgs {
    pub id: String,
    /// The thread this request is for (`threads` lists them); the session's current one when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// The stack frame this request is for (0 = innermost); the thread's selected frame when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<usize>,
}

/// Debugger settings of the attached sessions; members left out keep their value.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsArgs {
    #[serde(default)]
    pub system_debugging: Option<bool>,
    #[serde(default)]
    pub create_exception_object: Option<bool>,
    #[serde(default)]
    pub background_rfc: Option<bool>,
    #[serde(default)]
    pub shared_object_debugging: Option<bool>,
    #[serde(default)]
    pub show_data_aging: Option<bool>,
    #[serde(default)]
    pub update_debugging: Option<bool>,
}

/// What `wait` waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum WaitUntil {
    /// A debuggee is stopped.
    Stopped,
    /// The last debuggee ended (ran to its end or was terminated).
    Ended,
    /// A new debuggee was caught after the `wait` began.
    Caught,
}

/// `wait`: block until a condition holds, at most `timeout_ms`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WaitArgs {
    pub until: WaitUntil,
    #[serde(default = "default_wait_ms")]
    pub timeout_ms: u64,
}

fn default_wait_ms() -> u64 {
    30_000
}

/// `terminate`, `detach`, `stack`, `watch.list`: which thread (and frame) the request is for;
/// both optional. Unknown members are ignored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AtArgs {
    /// The thread this request is for (`threads` lists them); the session's current one when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// The stack frame this request is for (0 = innermost); the thread's selected frame when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<usize>,
}

/// Step kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StepType {
    Into,
    Over,
    Out,
    Continue,
}

/// `step`: move the stopped debuggee. Answers when it stops again or ends, or after
/// `timeout_ms` with `pending: true` (the stop then arrives as an event).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StepArgs {
    #[serde(rename = "type")]
    pub step_type: StepType,
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// The thread this request is for (`threads` lists them); the session's current one when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// The stack frame this request is for (0 = innermost); the thread's selected frame when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<usize>,
}

/// `vars`: without `id` the variables of the current frame's scopes; with `id` the children
/// of that variable (`LS_ORDER`, `ME`, `LT_ITEMS[2]`). `epoch`, when given, must be the
/// current one (ids are only valid for the stop they came from).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VarsArgs {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub epoch: Option<u64>,
    /// For a table `id`: the first row to list (0-based) …
    #[serde(default)]
    pub offset: u32,
    /// … and how many rows at most.
    #[serde(default = "default_table_limit")]
    pub limit: u32,
    /// The thread this request is for (`threads` lists them); the session's current one when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// The stack frame this request is for (0 = innermost); the thread's selected frame when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<usize>,
}

/// `run_to_line` / `jump_to_line`: a `location` (`ZCL_X:42`) or a `line` in the source of
/// the named frame (else the thread's selected one).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LineTargetArgs {
    #[serde(default)]
    pub location: Option<String>,
    #[serde(default)]
    pub line: Option<u32>,
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// The thread this request is for (`threads` lists them); the session's current one when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// The stack frame this request is for (0 = innermost); the thread's selected frame when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<usize>,
}

/// `thread`: make this thread current.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ThreadArgs {
    pub id: u32,
}

/// `frame`: select the stack frame (0 = innermost) of the current thread that requests naming
/// no frame act on (`vars`, `get`, `source`, …), for every client.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FrameArgs {
    pub index: usize,
    #[serde(default)]
    pub epoch: Option<u64>,
}

/// `get`: one variable by path (`LT_ITEMS[3]-PRICE`, `ME->MV_NAME`, `<FS>`, `LR_REF->*`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GetArgs {
    pub path: String,
    /// Return the value whole even beyond the size limit.
    #[serde(default)]
    pub full: bool,
    #[serde(default)]
    pub epoch: Option<u64>,
    /// The thread this request is for (`threads` lists them); the session's current one when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// The stack frame this request is for (0 = innermost); the thread's selected frame when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<usize>,
}

/// `set`: assign a value to a variable (a write action; the server must allow writes).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SetArgs {
    pub path: String,
    pub value: String,
    #[serde(default)]
    pub epoch: Option<u64>,
    /// The thread this request is for (`threads` lists them); the session's current one when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// The stack frame this request is for (0 = innermost); the thread's selected frame when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<usize>,
}

/// `table`: rows of an internal table as records, paged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TableArgs {
    pub id: String,
    #[serde(default)]
    pub offset: u32,
    #[serde(default = "default_table_limit")]
    pub limit: u32,
    #[serde(default)]
    pub epoch: Option<u64>,
    /// The thread this request is for (`threads` lists them); the session's current one when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// The stack frame this request is for (0 = innermost); the thread's selected frame when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<usize>,
}

fn default_table_limit() -> u32 {
    100
}

/// Formats of `export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Json,
    Csv,
    /// An ABAP constructor expression: `VALUE #( ( COL = … ) … )`.
    Abap,
}

/// `export`: a whole internal table in a format, returned inline or written to `file`
/// (always to a file when larger than the inline limit).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportArgs {
    pub id: String,
    pub format: ExportFormat,
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub epoch: Option<u64>,
    /// The thread this request is for (`threads` lists them); the session's current one when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// The stack frame this request is for (0 = innermost); the thread's selected frame when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<usize>,
}

/// `source`: lines around a `location`, or around the selected frame's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SourceArgs {
    #[serde(default)]
    pub location: Option<String>,
    #[serde(default = "default_context")]
    pub before: u32,
    #[serde(default = "default_context")]
    pub after: u32,
    /// The thread this request is for (`threads` lists them); the session's current one when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// The stack frame this request is for (0 = innermost); the thread's selected frame when
    /// left out. Never changes what other requests use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<usize>,
}

fn default_context() -> u32 {
    5
}

/// `search`: repository objects whose names match `query` (`*` wildcards, e.g. `ZCL_*`), at
/// most `max` (1..=200): the system's quick search, for completing object names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    pub query: String,
    #[serde(default = "default_search_max")]
    #[schemars(range(min = 1, max = 200))]
    pub max: u32,
}

fn default_search_max() -> u32 {
    50
}

/// `dumps`: the short dumps of `user` (default: the session's user; `*` every user's),
/// newest first, at most `limit`. `since`/`until` are ISO 8601 times in UTC
/// (`2026-11-28T10:00:00Z`, or a date) or an age (`30m`, `1h`, `2d`); `program` names the
/// terminated program or the object it belongs to (`ZCL_ORDER`); `error` a runtime error
/// (`COMPUTE_INT_ZERODIVIDE`) or an exception class (`CX_SY_ZERODIVIDE`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DumpsArgs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default = "default_dumps_limit")]
    #[schemars(range(min = 1, max = 200))]
    pub limit: u32,
}

impl Default for DumpsArgs {
    fn default() -> Self {
        DumpsArgs {
            since: None,
            until: None,
            user: None,
            program: None,
            error: None,
            limit: default_dumps_limit(),
        }
    }
}

fn default_dumps_limit() -> u32 {
    20
}

/// `dump`: one short dump by the `id` `dumps` answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DumpArgs {
    pub id: String,
}

/// `dump.catch`: stop the next occurrence of dump `id` before it dies. The breakpoints are
/// set for the runs of `user` (default: the dump's user), in any session or client of that
/// user. For another user than the session's they are sent with that user as `requestUser`
/// and the session also listens for that user; with `user` naming ours, our runs are caught
/// and none of the other user's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DumpCatchArgs {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
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

    /// `T::default()` is what a request without arguments means, for every type that has
    /// one and takes `{}`.
    #[test]
    fn defaults_are_what_an_empty_request_means() {
        fn same<T: Default + DeserializeOwned + PartialEq + std::fmt::Debug>() {
            let empty: T = serde_json::from_value(json!({})).expect("{} decodes");
            assert_eq!(T::default(), empty, "{}", std::any::type_name::<T>());
        }
        same::<BpSetArgs>();
        same::<BpIdsArgs>();
        same::<HelloArgs>();
        same::<ConfigureArgs>();
        same::<ListenArgs>();
        same::<RunArgs>();
        same::<TestArgs>();
        same::<VarsArgs>();
        same::<LineTargetArgs>();
        same::<SourceArgs>();
        same::<AtArgs>();
        same::<SettingsArgs>();
        assert!(BpSetArgs::default().enabled);
        assert_eq!(VarsArgs::default().limit, 100);
        assert_eq!(SourceArgs::default().before, 5);
    }

    #[test]
    fn wrong_args_are_invalid_args() {
        let e = decode::<StepArgs>("step", &json!({"type": "sideways"})).unwrap_err();
        assert_eq!(e.code, "protocol.invalid_args");
        let e = decode::<RunArgs>("run", &json!({"class": 5})).unwrap_err();
        assert!(e.message.contains("string"), "{}", e.message);
        let e =
            decode::<WaitArgs>("wait", &json!({"until": "stopped", "timeout_ms": -1})).unwrap_err();
        assert_eq!(e.code, "protocol.invalid_args");
    }
}

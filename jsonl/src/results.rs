//! Typed results of the commands: the engine builds these values and serialises them, and the
//! schema's `Response` definition is generated from the same types (through the command table
//! in [`crate::commands`]), so `schema` describes what clients receive. Members a newer server
//! may add are allowed; clients ignore members they do not know.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::ErrorBody;
use crate::args::{BpSetArgs, MessageArgs};

/// A stack frame. `line` counts in the object source `uri` points to, which is the abapGit
/// file `file` names.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Frame {
    /// 0 = innermost.
    pub index: usize,
    pub object: String,
    /// The repository type of `object`: `CLAS`, `INTF`, `PROG`, `FUGR`; empty when the
    /// frame's source is of another kind.
    #[serde(default)]
    pub object_type: String,
    /// The abapGit file holding the frame's source (`zcl_order.clas.testclasses.abap`,
    /// `#ns#cl_x.clas.abap`, `zfg.fugr.lzfgu01.abap`, `zrep.prog.abap`), derived from the
    /// object and include alone; `line` counts in it. Absent when the source is of a kind
    /// abapGit does not serialise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub method: String,
    pub event_type: String,
    pub program: String,
    pub include: String,
    pub line: u32,
    pub uri: String,
    pub system: bool,
    /// Lines around `line` (in `stopped` events and `frame`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Vec<SourceLine>>,
}

/// One line of source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SourceLine {
    pub line: u32,
    pub text: String,
    /// The line the frame is at.
    pub current: bool,
}

/// Why a program stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StopReason {
    Breakpoint,
    Step,
    Watchpoint,
    /// At the `CATCH` of an exception breakpoint's class (`exception` names it).
    Exception,
}

/// The body of a `stopped` event; also the `stop` of movement results, of `wait` and of a
/// thread in `threads` and `status`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Stopped {
    /// The stop's epoch: ids and frames of `vars`, `get`, … belong to it. Absent when the
    /// stop could not be read (`error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub epoch: Option<u64>,
    pub reason: StopReason,
    /// Our ids of the breakpoints reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breakpoints: Option<Vec<u32>>,
    /// The system's ids of the breakpoints reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_ids: Option<Vec<String>>,
    #[schemars(range(min = 1))]
    pub thread: u32,
    /// The innermost frame with its source lines; `null` when the stack could not be read.
    pub frame: Option<Frame>,
    /// Frames on the stack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<usize>,
    /// The exception class of an exception breakpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exception: Option<String>,
    /// The watchpoints that fired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watchpoints: Option<Vec<WatchpointHit>>,
    /// Why the stop could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The short dump whose `dump.catch` set a breakpoint reached here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caught_for_dump: Option<String>,
}

/// A watchpoint that fired (its old value is not sent: list the watchpoints).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WatchpointHit {
    pub id: String,
    pub variable: String,
    pub value: Option<String>,
    pub expired: bool,
}

/// How a program's thread ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EndReason {
    /// It ran to its end.
    Finished,
    Terminated,
    /// We let it run on without us.
    Detached,
    /// Its session on the system is gone (`message` says why).
    Lost,
}

/// The body of a `debuggee.ended` event; also the `ended` of movement results, `terminate`
/// and `detach`, and `status`'s `last_end`. When a `run` or `test` in flight caught the
/// program: its `run` summary and `output` (or `test`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Ended {
    pub thread: u32,
    pub reason: EndReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The output of the `run` that caught it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// The result of the `test` that caught it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<TestResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<RunSummary>,
}

/// How the `run` or `test` that caught a program answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RunSummary {
    /// `run` or `test`.
    pub cmd: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    /// Absent while `pending`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    /// The error the request got.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<RunError>,
    /// The run had not answered within 10 s after the program ended; its answer goes only
    /// to its request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RunError {
    pub code: String,
    pub message: String,
}

/// The request that answers a value whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Fetch {
    pub cmd: String,
    pub args: Value,
}

/// A variable as the protocol shows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Variable {
    /// Stable for this stop (`epoch`): `LS_ORDER-ITEMS[2]`, `ME`.
    pub id: String,
    pub name: String,
    /// The scope's name (`Locals`); empty for variables right under the root and below.
    pub scope: String,
    /// Script-friendly: numbers with a leading minus; cut at `max_value_chars`.
    pub value: String,
    /// Exactly what the system showed; `null` when `value` was cut.
    pub raw: Option<String>,
    /// Technical type as the system gives it (`I`, `P`, `C`, `CString`, …).
    #[serde(rename = "type")]
    pub technical_type: String,
    pub declared_type: String,
    /// `simple`, `string`, `structure`, `table`, `objectref`, `dataref`, …
    pub meta: String,
    pub kind: String,
    pub length: u32,
    /// Rows of a table.
    pub rows: u32,
    pub readonly: bool,
    /// Has children (`vars` with its `id`).
    pub expandable: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// Characters of the whole value, when `value` was cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_length: Option<usize>,
    /// The request that answers the whole value, when `value` was cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetch: Option<Fetch>,
}

/// A scope of a frame (`@LOCALS`, `Locals`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Scope {
    pub id: String,
    pub name: String,
}

/// `stack`: innermost frame first (frames without `source`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StackResult {
    pub epoch: u64,
    pub thread: u32,
    /// The selected frame.
    pub current: usize,
    pub frames: Vec<Frame>,
}

/// `frame`: the selected frame with its source lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FrameResult {
    pub epoch: u64,
    pub thread: u32,
    pub frame: Frame,
}

/// `vars`: without `id` the scopes and their variables; with `id` the children of `parent`
/// (for a table one page of rows, with `total`, `offset` and `more`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VarsResult {
    pub epoch: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scopes: Option<Vec<Scope>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    pub variables: Vec<Variable>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more: Option<bool>,
}

/// `get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GetResult {
    pub epoch: u64,
    pub variable: Variable,
}

/// `set`: the system's echo and the variable read back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SetResult {
    pub epoch: u64,
    pub path: String,
    pub echo: String,
    pub variable: Option<Variable>,
}

/// `source`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SourceResult {
    /// The source's URI without fragment.
    pub uri: String,
    pub line: u32,
    pub lines: Vec<SourceLine>,
}

/// A repository object `search` found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FoundObject {
    pub name: String,
    /// `CLAS/OC`, `INTF/OI`, `PROG/P`, …
    #[serde(rename = "type")]
    pub object_type: String,
    pub uri: String,
    pub description: String,
}

/// `search`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SearchResult {
    pub objects: Vec<FoundObject>,
}

/// A watchpoint of the current program's session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Watchpoint {
    pub id: String,
    pub variable: String,
    pub condition: Option<String>,
    pub active: bool,
    pub expired: bool,
    pub procedure: String,
    pub old_value: Option<String>,
    pub value: Option<String>,
}

/// `watch.set`, `watch.list`: the session's watchpoints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WatchpointsResult {
    pub thread: u32,
    pub watchpoints: Vec<Watchpoint>,
}

/// `watch.delete`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WatchDeleteResult {
    pub thread: u32,
    pub deleted: String,
}

/// Debugger settings of the attached sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Settings {
    pub system_debugging: bool,
    pub create_exception_object: bool,
    pub background_rfc: bool,
    pub shared_object_debugging: bool,
    pub show_data_aging: bool,
    pub update_debugging: bool,
}

/// `configure`: the limits now in force.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ConfigureResult {
    pub settings: Option<Settings>,
    /// Threads the settings were applied to now.
    pub settings_applied_to: Vec<u32>,
    pub max_value_chars: usize,
    pub step_timeout_ms: u64,
    pub source_context: u32,
}

/// `hello`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HelloResult {
    pub protocol: String,
    pub server: ServerInfo,
    pub commands: Vec<String>,
    pub events: Vec<String>,
    pub subscribed: Vec<String>,
    pub limits: Limits,
    pub capabilities: Capabilities,
    pub system: SystemInfo,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ServerInfo {
    pub name: String,
    pub version: String,
    pub pid: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Limits {
    pub max_line_bytes: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Capabilities {
    /// The thread cap.
    pub threads: usize,
    pub writes: bool,
    pub breakpoint_kinds: Vec<String>,
    pub conditions: bool,
    pub triggers: Vec<String>,
    pub batch_steps: bool,
    pub watchpoints: bool,
}

/// The connected system, and whether logging on worked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SystemInfo {
    pub url: String,
    pub user: String,
    pub client: Option<String>,
    pub logon: Logon,
    /// What the system announces (`null` when logging on failed).
    pub supports: Option<SystemSupport>,
    /// The release of the system's ABAP platform (`SAP_BASIS`, e.g. `"758"`), where the system
    /// says it; `null` when unknown.
    #[serde(default)]
    pub release: Option<String>,
    /// What the debugger can use on this system, from its discovery document; `null` when
    /// no discovery document could be read (then nothing is refused in advance).
    #[serde(default)]
    pub capabilities: Option<SystemCapabilities>,
}

/// What the debugger can use on the connected system, from its discovery document: `false`
/// means the system does not list it, and commands that need it answer `adt.not_supported`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SystemCapabilities {
    /// The batch endpoint; without it every read is sent one request at a time.
    pub batch: bool,
    /// Watchpoints (`watch`).
    pub watchpoints: bool,
    /// Debugger settings (`configure` with `settings`).
    pub settings: bool,
    /// The short dump feed (`dumps`, `dump`).
    pub dumps: bool,
    /// ABAP Unit test runs (`test`).
    pub abap_unit: bool,
    /// Running a class (`run` of a class).
    pub classrun: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Logon {
    pub ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorBody>,
}

/// What the system announces: its debugger resources from ADT discovery, the number of
/// statement-breakpoint keywords and the message types (`null` where it could not be read).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SystemSupport {
    pub debugger_resources: Vec<String>,
    pub statement_breakpoints: Option<usize>,
    pub message_types: Option<Vec<String>>,
}

/// `status`: where things stand, without side effects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StatusResult {
    pub state: crate::State,
    pub epoch: u64,
    pub listener: ListenerStatus,
    pub current_thread: Option<u32>,
    /// The current thread, as in `threads`.
    pub debuggee: Option<ThreadInfo>,
    pub threads: Vec<ThreadInfo>,
    /// How many breakpoints are registered.
    pub breakpoints: usize,
    pub allow_writes: bool,
    /// The body of the last `debuggee.ended` event.
    pub last_end: Option<Ended>,
    /// Seconds until the stopped programs are released because no client is connected to
    /// this (socket-only) session; absent while a client is connected or nothing is stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release_in_s: Option<u64>,
    pub system: SystemBrief,
    /// The debugger settings this session applies to every program it attaches (as
    /// `configure` set them); `null` while none were set: the system's defaults apply.
    #[serde(default)]
    pub settings: Option<Settings>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ListenerStatus {
    pub wanted: bool,
    pub armed: bool,
    /// Listeners held for other users (`dump.catch` of their dumps), with our terminal and
    /// IDE ids: their runs stop for this session while one of their breakpoints is held.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_users: Vec<UserListenerStatus>,
}

/// One other user's listener in `status`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UserListenerStatus {
    pub user: String,
    pub armed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SystemBrief {
    pub url: String,
    pub user: String,
    /// As in `hello`'s `system.release`.
    #[serde(default)]
    pub release: Option<String>,
    /// As in `hello`'s `system.capabilities`.
    #[serde(default)]
    pub capabilities: Option<SystemCapabilities>,
}

/// An attached program (a thread), as `threads` and `status` show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ThreadInfo {
    pub thread: u32,
    pub current: bool,
    pub program: String,
    pub user: String,
    pub running: bool,
    /// Where it stands (`null` before its first stop is described).
    pub frame: Option<Frame>,
    pub selected_frame: usize,
    /// The body of its last `stopped` event.
    pub stop: Option<Stopped>,
}

/// `threads`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ThreadsResult {
    pub current: Option<u32>,
    pub threads: Vec<ThreadInfo>,
    pub max_threads: usize,
}

/// `thread`: the thread now current.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ThreadResult {
    pub current: u32,
    pub thread: Option<ThreadInfo>,
}

/// A column of a `table` page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Column {
    /// Empty for an elementary line type.
    pub name: String,
    #[serde(rename = "type")]
    pub technical_type: String,
    pub meta: String,
}

/// A row of a `table` page: `columns` by name, or `value` for an elementary line type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TableRow {
    pub index: u32,
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub columns: Option<Map<String, Value>>,
}

/// `table`: one page of rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TableResult {
    pub epoch: u64,
    pub id: String,
    pub total: u32,
    pub offset: u32,
    pub columns: Vec<Column>,
    pub rows: Vec<TableRow>,
    pub more: bool,
}

/// `export`: the content inline, or the file it was written to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ExportResult {
    pub epoch: u64,
    pub id: String,
    pub rows: u64,
    /// The table has more rows than an export takes.
    pub truncated: bool,
    pub bytes: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

/// `run`: the class or program and its output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RunResult {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    pub output: String,
    /// The program this run started was caught while the session held as many programs as
    /// it may (`max_threads`), and let go without stopping for this run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub released: Option<RunReleased>,
}

/// A run's program caught beyond the thread cap and let go (also the `thread.released` event).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RunReleased {
    /// How it was let go: `continued`, `terminated`, or `failed: …`.
    pub how: String,
    /// The thread cap (`serve --max-threads`).
    pub max_threads: usize,
}

/// `test`: the ABAP Unit run as records a script can count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TestResult {
    /// The program this test run started was caught beyond the thread cap and let go (as for
    /// `run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub released: Option<RunReleased>,
    pub object: String,
    /// `CLAS` or `PROG`.
    #[serde(rename = "type")]
    pub object_type: String,
    pub passed: u32,
    pub failed: u32,
    pub ok: bool,
    pub alerts: Vec<UnitAlert>,
    pub classes: Vec<UnitClass>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UnitClass {
    pub name: String,
    pub alerts: Vec<UnitAlert>,
    pub methods: Vec<UnitMethod>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UnitMethod {
    pub name: String,
    pub passed: bool,
    pub line: Option<u32>,
    pub seconds: Option<f64>,
    pub alerts: Vec<UnitAlert>,
}

/// An ABAP Unit alert (failed assertion, exception, warning).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UnitAlert {
    pub kind: String,
    /// `critical`, `fatal`, `tolerable`.
    pub severity: String,
    pub title: String,
    pub details: Vec<String>,
    pub location: Option<UnitLocation>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UnitLocation {
    pub uri: String,
    pub line: Option<u32>,
    pub name: String,
}

/// `cancel`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CancelResult {
    /// A request with that id was waiting and is now answered `request.cancelled`.
    pub cancelled: bool,
    #[schemars(with = "crate::wire::Id")]
    pub id: Value,
}

/// `shutdown`: what was released.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ShutdownResult {
    pub receipt: Receipt,
}

/// What a session released when it ended (the `shutdown` result; printed to stderr when the
/// session ends otherwise).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Receipt {
    pub listener_stopped: bool,
    pub breakpoints_deleted: usize,
    pub debuggees: Vec<ReleasedDebuggee>,
    pub errors: Vec<String>,
}

impl Receipt {
    /// One line for a person.
    pub fn summary(&self) -> String {
        format!(
            "abapdbg released: listener {}, {} breakpoint(s) deleted, {} debuggee(s) released{}",
            if self.listener_stopped {
                "stopped"
            } else {
                "was not armed"
            },
            self.breakpoints_deleted,
            self.debuggees.len(),
            if self.errors.is_empty() {
                String::new()
            } else {
                format!(
                    ", {} error(s): {}",
                    self.errors.len(),
                    self.errors.join("; ")
                )
            }
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReleasedDebuggee {
    pub thread: u32,
    pub program: String,
    /// `continued`, `terminated`, or `failed: …`.
    pub how: String,
}

/// `listen`: whether the listener is armed already (`listener.armed` follows when not).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ListenResult {
    pub armed: bool,
}

/// `unlisten`: whether a listener was wanted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UnlistenResult {
    pub stopped: bool,
}

/// `wait`: where the current thread stands once the condition holds, or `timed_out`
/// (expiry is not an error).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum WaitResult {
    Reached(WaitReached),
    TimedOut(WaitTimedOut),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WaitReached {
    /// Always `true`.
    pub reached: bool,
    pub epoch: u64,
    pub thread: Option<u32>,
    pub frame: Option<Box<Frame>>,
    /// The body of the current thread's last `stopped` event.
    pub stop: Option<Box<Stopped>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WaitTimedOut {
    /// Always `false`.
    pub reached: bool,
    pub timed_out: bool,
}

/// Movement commands (`step`, `run_to_line`, `jump_to_line`): the stop (the `stopped`
/// body), the end (the `debuggee.ended` body), or `pending` when the wait passed first (the
/// outcome then comes as an event).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum MoveResult {
    Stop { stop: Box<Stopped> },
    Ended { ended: Box<Ended> },
    Pending { pending: bool },
}

/// `terminate`: the end (the `debuggee.ended` body).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TerminateResult {
    pub ended: Ended,
}

/// `detach`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DetachResult {
    /// `{"ended": …}`, as `terminate` answers.
    pub detached: TerminateResult,
    pub how: String,
    pub breakpoints_disabled: Vec<u32>,
}

/// A breakpoint record: `object`, `line`, `uri` for lines (and, once verified, the runtime
/// `include` and `include_line` the system mapped it to); `statement`, `exception` or
/// `message` for the other kinds; `reason` and `code` when rejected.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Breakpoint {
    pub id: u32,
    /// `line`, `statement`, `exception`, `message`.
    pub kind: String,
    /// As written.
    pub location: String,
    pub enabled: bool,
    /// `verified`, `rejected`, `pending`, `disabled`.
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exception: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<MessageArgs>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_line: Option<u32>,
    /// The system's words, when rejected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Another user whose runs it stops (`dump.catch` of that user's dump); absent: the
    /// session's user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
}

/// `bp.set`, `bp.list`, `bp.enable`, `bp.disable`: breakpoint records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BreakpointsResult {
    pub breakpoints: Vec<Breakpoint>,
    /// Set when the system could not be reached (the breakpoints are `pending`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// `bp.delete`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BpDeleteResult {
    pub deleted: Vec<u32>,
}

/// `bp.export`: each breakpoint as `bp.set` arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BpExportResult {
    /// `abapdbg-breakpoints/1`.
    pub format: String,
    pub breakpoints: Vec<BpSetArgs>,
}

/// `bp.import`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BpImportResult {
    pub imported: usize,
    pub breakpoints: Vec<Breakpoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// One short dump as `dumps` lists it (and `dump` begins).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DumpSummary {
    /// The system's id, as its addresses carry it (percent-encoded): what `dump` and
    /// `dump.catch` take.
    pub id: String,
    /// When it happened, ISO 8601 UTC (`2026-11-28T10:15:00Z`).
    pub time: String,
    pub user: String,
    /// `COMPUTE_INT_ZERODIVIDE`.
    pub runtime_error: String,
    /// The exception class of a class-based error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exception: Option<String>,
    /// The terminated program (`ZCL_ORDER=====================CP`).
    pub program: String,
    /// The include of the termination point (`ZCL_ORDER=====================CM002`); empty
    /// when the dump does not name it.
    pub include: String,
    /// The termination line, counted in `file` (as a frame's line); 0 when not known.
    pub line: u32,
    /// The abapGit file holding the termination point, named as frames name it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub short_text: String,
}

/// `dumps`: newest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DumpsResult {
    pub dumps: Vec<DumpSummary>,
}

/// A chapter of a dump, in the dump's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DumpChapter {
    pub title: String,
    pub text: String,
}

/// A variable the dump chose to keep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DumpVariable {
    /// The procedure it belongs to (`ZCL_ORDER=>DIVIDE`).
    pub frame: String,
    pub name: String,
    /// Empty when the dump does not say (a real system's text does not).
    #[serde(rename = "type")]
    pub ty: String,
    pub value: String,
}

/// `dump`: the summary's fields, the chapters, the active calls (innermost first), the
/// chosen variables and the source around the termination line (`current` marks it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DumpResult {
    #[serde(flatten)]
    pub summary: DumpSummary,
    pub chapters: Vec<DumpChapter>,
    pub stack: Vec<Frame>,
    pub variables: Vec<DumpVariable>,
    pub source: Vec<SourceLine>,
}

/// `dump.catch`: the breakpoints set for the next occurrence, for `user`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DumpCatchResult {
    pub id: String,
    pub user: String,
    pub breakpoints: Vec<Breakpoint>,
    /// The listener holds on the system (else `listener.armed` follows).
    pub armed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

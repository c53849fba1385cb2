//! Typed values of the ADT debugger API, as the rest of abapdbg sees them.
//!
//! CONTRACT (used by crates/engine; extend, do not break).

pub use compact_str::CompactString;

/// Who we debug as. Sent on listener, breakpoint and attach requests; listener and
/// breakpoints must agree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// SAP user whose sessions we catch, upper case.
    pub user: String,
    /// Stable id of this machine's installation (32 chars in practice).
    pub terminal_id: String,
    /// Id of this debugger instance (32 chars in practice).
    pub ide_id: String,
}

/// What makes a breakpoint fire (adt-wire.md §4.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BreakpointKind {
    /// A source line: object source URI without fragment
    /// (`/sap/bc/adt/oo/classes/zcl_x/source/main`) and 1-based line in that source.
    Line { uri: String, line: u32 },
    /// Every statement of this ABAP keyword (`CATCH`, `CALL FUNCTION`, …).
    Statement { statement: String },
    /// A class-based exception (`CX_SY_ZERODIVIDE`).
    Exception { class: String },
    /// `MESSAGE` with this id, number and type (all three required by the server).
    Message {
        id: String,
        number: String,
        ty: String,
    },
}

impl BreakpointKind {
    /// The wire name (`kind` attribute).
    pub fn wire_name(&self) -> &'static str {
        match self {
            BreakpointKind::Line { .. } => "line",
            BreakpointKind::Statement { .. } => "statement",
            BreakpointKind::Exception { .. } => "exception",
            BreakpointKind::Message { .. } => "message",
        }
    }
}

/// One breakpoint to set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreakpointSpec {
    /// Our correlation id, echoed by the server. Unique per breakpoint.
    pub client_id: String,
    pub kind: BreakpointKind,
    /// Optional ABAP condition.
    pub condition: Option<String>,
}

/// How a breakpoint POST relates to what the server already holds (adt-wire.md §4.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyncScope {
    /// Replace only the breakpoints of this object source URI.
    Partial(String),
    /// Replace all breakpoints of this user/ide.
    Full,
    /// No `syncScope`: add to what the server holds (removal is by id). Used for the kinds
    /// that belong to no object (statement, exception, message).
    Additive,
}

/// The server's answer for one breakpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreakpointResult {
    pub client_id: String,
    /// Server id (`KIND=0.SOURCETYPE=ABAP.…LINE_NR=7`); `None` when refused.
    pub id: Option<String>,
    /// In-band refusal (`Cannot create a breakpoint at this position`).
    pub error_message: Option<String>,
    pub kind: String,
    /// Echo of the requested URI with fragment, when accepted.
    pub uri: Option<String>,
}

/// A stopped session reported by the listener (the `STPDA_DEBUGGEE` record, fields we use).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Debuggee {
    pub id: String,
    pub client: String,
    pub user: String,
    pub program: String,
    pub include: String,
    /// Line within `include`.
    pub include_line: u32,
    /// Source URI with `#start=` fragment.
    pub uri: String,
    pub object_type: String,
    pub name: String,
    pub instance_name: String,
    pub is_attach_impossible: bool,
    /// The other fields of the record (`TERMINAL_ID`, `IDE_ID`, `APPLICATION_SERVER`, dates,
    /// …) as (element name, text), in document order.
    pub unmapped: Vec<(String, String)>,
}

impl Debuggee {
    /// A field of the record that has no field of its own here (`TERMINAL_ID`, …).
    pub fn field(&self, name: &str) -> Option<&str> {
        self.unmapped
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The answer to `attach`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AttachInfo {
    pub debug_session_id: String,
    pub server_name: String,
    pub is_stepping_possible: bool,
    pub is_termination_possible: bool,
    pub is_user_authorized_for_changes: bool,
    /// Ids of the breakpoints that caused the stop.
    pub reached_breakpoints: Vec<String>,
}

/// Step methods (`stepInto`, `stepOver`, `stepReturn`, `stepContinue`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    Into,
    Over,
    Return,
    Continue,
}

/// The outcome of a step or continue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepOutcome {
    /// The program stopped again (the response does not say where: read the stack).
    Stopped {
        /// Ids of breakpoints reached (after `stepContinue`).
        reached_breakpoints: Vec<String>,
    },
    /// The program ran to its end (500 `debuggeeEnded`).
    Ended,
}

/// The call stack (`dbg:stack`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stack {
    /// 0-based index into `entries` of the selected frame.
    pub cursor_index: usize,
    /// Innermost first.
    pub entries: Vec<StackEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StackEntry {
    pub position: u32,
    pub stack_type: String,
    pub stack_uri: String,
    pub program: String,
    pub include: String,
    /// Line in the object source `uri` points to.
    pub line: u32,
    pub event_type: String,
    pub event_name: String,
    pub system_program: bool,
    /// Source URI with `#start=` fragment.
    pub uri: String,
    /// `ABAP`, `DYNP`, `ST`.
    pub source_type: String,
    /// A frame shown through VIT (dynpro flow logic).
    pub is_vit: bool,
    /// Attributes without a field here (`canVit…`, `type`, `name`, …) as (local name, value).
    pub unmapped: Vec<(String, String)>,
}

/// One `STPDA_ADT_VARIABLE` record. `value` is never trimmed. The texts are
/// [`CompactString`]s: a page of table rows is a thousand records of a dozen texts each,
/// nearly all of them short (`LT[7]-NAME`, `C`, `simple`), which it keeps without an
/// allocation of their own.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Variable {
    pub id: CompactString,
    pub name: CompactString,
    pub declared_type_name: CompactString,
    pub actual_type_name: CompactString,
    pub kind: CompactString,
    pub instantiation_kind: CompactString,
    pub access_kind: CompactString,
    pub meta_type: CompactString,
    pub parameter_kind: CompactString,
    pub value: CompactString,
    pub hex_value: CompactString,
    pub read_only: bool,
    pub technical_type: CompactString,
    pub length: u32,
    pub table_lines: u32,
    /// `IS_VALUE_INCOMPLETE`: the value was cut (long strings).
    pub is_value_incomplete: bool,
    /// `IS_EXCEPTION`: an exception object.
    pub is_exception: bool,
    /// `INHERITANCE_LEVEL` of an inherited attribute (`None` when absent, unreadable or `-1`).
    pub inheritance_level: Option<u32>,
    /// `INHERITANCE_CLASS`: the superclass defining an inherited attribute.
    pub inheritance_class: CompactString,
    /// `TABLE_BODY` (empty in every capture; meaning unknown, adt-wire.md §9.3): every record
    /// carries it, so it has a field rather than a place in `unmapped`.
    pub table_body: CompactString,
    /// Elements without a field here (`STRUC_COMPONENT_GROUPS`, …) as (element name, text),
    /// in document order.
    pub unmapped: Vec<(String, String)>,
}

/// A parent→child edge from `getChildVariables`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hierarchy {
    pub parent_id: CompactString,
    pub child_id: CompactString,
    /// Filled only for scope pseudo-nodes (`Locals`).
    pub child_name: CompactString,
}

/// The answer to `getChildVariables`. Empty when the server answered with a zero-byte body.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChildVariables {
    pub variables: Vec<Variable>,
    pub hierarchies: Vec<Hierarchy>,
}

/// The debugger settings of the attached session (`dbg:settings`, adt-wire.md §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DebuggerSettings {
    /// Step into / stop in system programs.
    pub system_debugging: bool,
    /// Always create exception objects (to inspect an exception without `INTO`).
    pub create_exception_object: bool,
    /// Debug bgRFC units.
    pub background_rfc: bool,
    /// Debug shared-objects area constructors.
    pub shared_object_debugging: bool,
    /// Show data-aging information.
    pub show_data_aging: bool,
    /// Debug update-task function modules.
    pub update_debugging: bool,
}

/// One entry of the `dbg:actions` list that attach and step answers advertise (§6.2).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DebuggerAction {
    /// Stable key (`updateDebugging`, `garbageCollector`, `memorySnapshot`, …).
    pub name: String,
    /// `check`, `push`, `radio`.
    pub style: String,
    pub group: String,
    /// Localized title; do not match on it.
    pub title: String,
    /// Ready-made URL to POST (entities already decoded).
    pub link: String,
    pub value: String,
    pub disabled: bool,
}

/// The answer to a debugger action (`dbg:action` with `message`, `isError`, …).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ActionResult {
    pub name: String,
    pub message: String,
    pub is_error: bool,
    pub data: String,
    pub message_kind: String,
    pub requires_update: bool,
}

/// A watchpoint of the attached session (`dbg:watchpoints/watchpoint`, §10).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Watchpoint {
    /// Small integer as text; reused by the server after deletion.
    pub id: String,
    pub variable_name: String,
    /// `local` in every capture.
    pub kind: String,
    pub active: bool,
    /// The frame of the watched local has returned.
    pub expired: bool,
    /// Procedure the watched local belongs to.
    pub procedure: String,
    pub condition: Option<String>,
    /// Formatted like `VALUE` (never trimmed).
    pub old_value: Option<String>,
    pub current_value: Option<String>,
}

/// A watchpoint reported by a step (`reachedWatchpoints/watchpoint` of `dbg:step`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReachedWatchpoint {
    pub id: String,
    pub variable_name: String,
    pub expired: bool,
    /// Formatted like `VALUE` (never trimmed). The old value is not sent: list the watchpoints.
    pub current_value: Option<String>,
}

/// Everything a `dbg:step` answer carries (§7.2). It never says where execution is now.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StepInfo {
    /// Ids of the breakpoints that caused the stop.
    pub reached_breakpoints: Vec<String>,
    /// Watchpoints that fired.
    pub reached_watchpoints: Vec<ReachedWatchpoint>,
    /// The session's current settings, when sent.
    pub settings: Option<DebuggerSettings>,
    /// `isDebuggeeChanged` (meaning unsettled, `false` in every capture).
    pub is_debuggee_changed: bool,
    /// Advertised actions.
    pub actions: Vec<DebuggerAction>,
}

/// The outcome of [`crate::Client::step_detailed`]: the step outcome plus fired watchpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepDetail {
    pub outcome: StepOutcome,
    /// Empty when the program ended or no watchpoint fired.
    pub reached_watchpoints: Vec<ReachedWatchpoint>,
}

/// Memory use of the debuggee in bytes (`dbg:memorySizes`, §11). Elements this client does not
/// know are kept in `unmapped` as (element path, text).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MemorySizes {
    pub abap_static_variables: u64,
    pub abap_stack_used: u64,
    pub abap_stack_allocated: u64,
    pub abap_dynamic_objects_used: u64,
    pub abap_dynamic_objects_allocated: u64,
    pub internal_used: u64,
    pub internal_allocated: u64,
    pub internal_peak_used: u64,
    pub external_used: u64,
    pub external_allocated: u64,
    pub external_peak_used: u64,
    pub external_internal_sessions: u64,
    pub unmapped: Vec<(String, String)>,
}

/// The server's verdict on one breakpoint with the details [`BreakpointResult`] leaves out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BreakpointDetail {
    pub client_id: String,
    pub id: Option<String>,
    pub error_message: Option<String>,
    /// `existing`, `tooManyBreakpoints`, `invalidPosition`, `conditionError`,
    /// `nonAbapFlavour`, `error` (not sent by every release).
    pub error_kind: Option<String>,
    pub kind: String,
    pub uri: Option<String>,
    /// `adtcore:type` / `adtcore:name` of an accepted line breakpoint.
    pub object_type: Option<String>,
    pub object_name: Option<String>,
    /// Echo of the condition, when sent back.
    pub condition: Option<String>,
}

impl BreakpointDetail {
    /// The same verdict as the plain [`BreakpointResult`].
    pub fn result(&self) -> BreakpointResult {
        BreakpointResult {
            client_id: self.client_id.clone(),
            id: self.id.clone(),
            error_message: self.error_message.clone(),
            kind: self.kind.clone(),
            uri: self.uri.clone(),
        }
    }
}

/// Where breakpoints live (§4.1): `External` ones make new sessions stop (they need a
/// listener); `Debugger` ones live in the attached session and die with its debuggee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BreakpointScope {
    #[default]
    External,
    Debugger,
}

impl BreakpointScope {
    pub fn wire_name(self) -> &'static str {
        match self {
            BreakpointScope::External => "external",
            BreakpointScope::Debugger => "debugger",
        }
    }
}

/// One inner request of a batch (§12). Build with the constructors; `target` is path plus
/// query, starting with `/sap/bc/adt/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchCall {
    pub method: String,
    pub target: String,
    pub accept: String,
    /// Content type and body.
    pub body: Option<(String, String)>,
}

/// The answer of one inner request of a batch (2xx; other statuses become typed errors).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BatchAnswer {
    pub status: u16,
    pub content_type: Option<String>,
    /// Inner headers as sent, names as written.
    pub headers: Vec<(String, String)>,
    pub body: PartBody,
}

/// The body of one batch part: its range of the one multipart answer, which the parts share
/// (a page of table rows is a megabyte, not worth a copy per part). Reads as a `&str`.
#[derive(Clone, Default)]
pub struct PartBody {
    whole: std::sync::Arc<String>,
    range: std::ops::Range<usize>,
}

impl PartBody {
    /// `part` as a range of `whole` when it lies in it, else (never for what the codec
    /// hands in) a copy of its own.
    pub(crate) fn within(whole: &std::sync::Arc<String>, part: &str) -> PartBody {
        let start = (part.as_ptr() as usize).wrapping_sub(whole.as_ptr() as usize);
        let range = start..start.wrapping_add(part.len());
        if whole
            .get(range.clone())
            .is_some_and(|s| s.as_ptr() == part.as_ptr())
        {
            PartBody {
                whole: std::sync::Arc::clone(whole),
                range,
            }
        } else {
            PartBody::from(part.to_string())
        }
    }

    pub fn as_str(&self) -> &str {
        self.whole.get(self.range.clone()).unwrap_or_default()
    }
}

impl From<String> for PartBody {
    fn from(text: String) -> PartBody {
        let range = 0..text.len();
        PartBody {
            whole: std::sync::Arc::new(text),
            range,
        }
    }
}

impl PartialEq<str> for PartBody {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for PartBody {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for PartBody {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl From<&str> for PartBody {
    fn from(text: &str) -> PartBody {
        PartBody::from(text.to_string())
    }
}

impl std::ops::Deref for PartBody {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for PartBody {
    fn eq(&self, other: &PartBody) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for PartBody {}

impl std::fmt::Debug for PartBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

/// Step, stack and variables in one round trip ([`crate::Client::step_and_inspect`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepInspection {
    pub outcome: StepOutcome,
    pub reached_breakpoints: Vec<String>,
    /// `None` when the program ended.
    pub stack: Option<Stack>,
    /// Children of the requested parents; `None` when the program ended or the system
    /// refused that read (the stop stands; the caller reads what `@ROOT` names itself).
    pub variables: Option<ChildVariables>,
}

/// An ABAP Unit alert (failed assertion, exception, warning, `noTestClasses`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UnitAlert {
    /// `failedAssertion`, `exception`, `warning`, `noTestClasses`.
    pub kind: String,
    /// `critical`, `fatal`, `tolerable`.
    pub severity: String,
    pub title: String,
    pub details: Vec<String>,
    pub stack: Vec<UnitLocation>,
}

/// A source position in an ABAP Unit result.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UnitLocation {
    /// Source URI with fragment (`…/includes/testclasses#start=12,0;end=12,0`).
    pub uri: String,
    pub object_type: String,
    pub name: String,
    pub description: String,
    /// Line from the `start=` of the fragment.
    pub line: Option<u32>,
}

/// One test method and its outcome.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UnitTestMethod {
    pub name: String,
    pub uri: String,
    pub line: Option<u32>,
    /// `executionTime` in seconds, when readable.
    pub execution_seconds: Option<f64>,
    pub alerts: Vec<UnitAlert>,
}

impl UnitTestMethod {
    /// No alert of severity `critical` or `fatal`.
    pub fn passed(&self) -> bool {
        !self
            .alerts
            .iter()
            .any(|a| matches!(a.severity.as_str(), "critical" | "fatal"))
    }
}

/// One test class.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UnitTestClass {
    pub name: String,
    pub uri: String,
    pub line: Option<u32>,
    pub duration_category: String,
    pub risk_level: String,
    pub alerts: Vec<UnitAlert>,
    pub methods: Vec<UnitTestMethod>,
}

/// The tested object (`program` element).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UnitProgram {
    pub uri: String,
    pub object_type: String,
    pub name: String,
    pub alerts: Vec<UnitAlert>,
    pub classes: Vec<UnitTestClass>,
}

/// The `aunit:runResult` of a test run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UnitRunResult {
    /// Alerts of the run itself (e.g. `noTestClasses`).
    pub alerts: Vec<UnitAlert>,
    pub programs: Vec<UnitProgram>,
}

impl UnitRunResult {
    /// Every test method of every class.
    pub fn methods(&self) -> impl Iterator<Item = (&UnitTestClass, &UnitTestMethod)> {
        self.programs
            .iter()
            .flat_map(|p| p.classes.iter())
            .flat_map(|c| c.methods.iter().map(move |m| (c, m)))
    }

    /// True when no test method, class or program carries a critical or fatal alert.
    pub fn passed(&self) -> bool {
        let bad = |alerts: &[UnitAlert]| {
            alerts
                .iter()
                .any(|a| matches!(a.severity.as_str(), "critical" | "fatal"))
        };
        !bad(&self.alerts)
            && self.programs.iter().all(|p| {
                !bad(&p.alerts)
                    && p.classes
                        .iter()
                        .all(|c| !bad(&c.alerts) && c.methods.iter().all(|m| m.passed()))
            })
    }
}

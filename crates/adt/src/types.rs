//! Typed values of the ADT debugger API, as the rest of abapdbg sees them.
//!
//! CONTRACT (used by crates/engine; extend, do not break).

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
}

/// One `STPDA_ADT_VARIABLE` record. `value` is never trimmed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Variable {
    pub id: String,
    pub name: String,
    pub declared_type_name: String,
    pub actual_type_name: String,
    pub kind: String,
    pub instantiation_kind: String,
    pub access_kind: String,
    pub meta_type: String,
    pub parameter_kind: String,
    pub value: String,
    pub hex_value: String,
    pub read_only: bool,
    pub technical_type: String,
    pub length: u32,
    pub table_lines: u32,
}

/// A parent→child edge from `getChildVariables`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hierarchy {
    pub parent_id: String,
    pub child_id: String,
    /// Filled only for scope pseudo-nodes (`Locals`).
    pub child_name: String,
}

/// The answer to `getChildVariables`. Empty when the server answered with a zero-byte body.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChildVariables {
    pub variables: Vec<Variable>,
    pub hierarchies: Vec<Hierarchy>,
}

//! The debugger's view of a running program.
//!
//! The interpreter calls [`DebugHook::before_statement`] before every executable statement
//! (every "stop point"). The hook decides whether to stop; while it has stopped it may inspect
//! the program through the [`StopContext`] it was handed. The interpreter thread owns all ABAP
//! state, so inspection happens on that thread, inside the hook call.

/// Kind of ABAP object a source position belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// A global class (`.clas.abap`, ADT `/sap/bc/adt/oo/classes/<name>/source/main`).
    Class,
    /// An interface (`.intf.abap`).
    Interface,
    /// A report / program (`.prog.abap`).
    Program,
    /// The main program `SAPL<group>` of a function group (`<group>.fugr.sapl<group>.abap`,
    /// ADT `/sap/bc/adt/functions/groups/<group>/source/main`); the object is the group.
    FunctionGroup,
    /// A function module (`<group>.fugr.<module>.abap`, ADT
    /// `…/groups/<group>/fmodules/<module>/source/main`); the object is the module. Its
    /// frames run in the group's main program ([`Location::program`] `SAPL<group>`).
    FunctionModule,
    /// Another include of a function group (`L<group>TOP`, `L<group>F01`, …; ADT
    /// `…/groups/<group>/includes/<include>/source/main`); the object is the include.
    FunctionInclude,
}

/// Which source of an object a line number refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourcePart {
    /// `source/main` of a class, interface or program.
    Main,
    /// `.clas.locals_def.abap` (`includes/definitions`).
    Definitions,
    /// `.clas.locals_imp.abap` (`includes/implementations`).
    Implementations,
    /// `.clas.testclasses.abap` (`includes/testclasses`).
    TestClasses,
}

/// A position in the program, as the debugger reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// Object name, upper case (`ZCL_DEMO`).
    pub object: String,
    pub kind: ObjectKind,
    pub part: SourcePart,
    /// Main program (`ZCL_DEMO======================CP` for a class pool).
    pub program: String,
    /// Runtime include (`ZCL_DEMO======================CM001` for a method include).
    pub include: String,
    /// 1-based line in the object source named by `part` (for classes: `source/main`).
    pub line: u32,
    /// 1-based line within `include` (for a method include: line 1 is the `METHOD` statement).
    pub include_line: u32,
    /// `METHOD`, `FORM`, `EVENT`, …
    pub event_type: String,
    /// Method / form / event name, upper case (`IF_OO_ADT_CLASSRUN~MAIN`, `DOUBLE`).
    pub event_name: String,
}

/// One frame of the ABAP call stack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub location: Location,
}

/// A scope pseudo-node below `@ROOT` (`@PARAMETERS`/"Parameters", `@LOCALS`/"Locals",
/// `@GLOBALS`/"Globals") or a variable shown directly under `@ROOT` (`ME`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeEntry {
    pub id: String,
    /// Display name for scope pseudo-nodes (`Locals`); empty for real variables such as `ME`.
    pub name: String,
}

/// One variable as the ADT debugger describes it (the `STPDA_ADT_VARIABLE` record).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VarRecord {
    /// Path id usable in later requests (`LV_X`, `LS_S-F`, `LT[3]-F`, `ME->MV_A`).
    pub id: String,
    /// Short name (component or variable name).
    pub name: String,
    pub declared_type_name: String,
    pub actual_type_name: String,
    /// `variable`, `parameter`, `constant`, `unknown`.
    pub kind: String,
    /// `unknown`, `instance`, `static`.
    pub instantiation_kind: String,
    /// `unknown`, `public`, `protected`, `private`.
    pub access_kind: String,
    /// `simple`, `string`, `structure`, `table`, `dataref`, `objectref`, …
    pub meta_type: String,
    /// `importing`, `exporting`, `changing`, `returning`, `unknown`.
    pub parameter_kind: String,
    /// Display text, exactly as ADT shows it (never trimmed: `15 `, `A001      `).
    pub value: String,
    /// Upper-case hex of the raw bytes (UTF-16LE for character data).
    pub hex_value: String,
    pub read_only: bool,
    /// `I`, `P`, `C`, `CString`, `Standard Table`, `Structure: deep`, …
    pub technical_type: String,
    pub length: u32,
    pub table_lines: u32,
    /// For an attribute inherited from a superclass: how many levels up the defining class
    /// is (1: the direct superclass); `-1` for everything else.
    pub inheritance_level: i32,
    /// The defining superclass of an inherited attribute; empty otherwise.
    pub inheritance_class: String,
}

/// A [`VarRecord`] whose texts are borrowed from where they lie (the program's state, buffers
/// reused from record to record): what a writer needs of a variable, without a string of its
/// own per field. A page of table rows is a thousand records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VarFields<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub declared_type_name: &'a str,
    pub actual_type_name: &'a str,
    pub kind: &'a str,
    pub instantiation_kind: &'a str,
    pub access_kind: &'a str,
    pub meta_type: &'a str,
    pub parameter_kind: &'a str,
    pub value: &'a str,
    pub hex_value: &'a str,
    pub read_only: bool,
    pub technical_type: &'a str,
    pub length: u32,
    pub table_lines: u32,
    pub inheritance_level: i32,
    pub inheritance_class: &'a str,
}

impl VarRecord {
    /// The record's fields, borrowed.
    pub fn fields(&self) -> VarFields<'_> {
        VarFields {
            id: &self.id,
            name: &self.name,
            declared_type_name: &self.declared_type_name,
            actual_type_name: &self.actual_type_name,
            kind: &self.kind,
            instantiation_kind: &self.instantiation_kind,
            access_kind: &self.access_kind,
            meta_type: &self.meta_type,
            parameter_kind: &self.parameter_kind,
            value: &self.value,
            hex_value: &self.hex_value,
            read_only: self.read_only,
            technical_type: &self.technical_type,
            length: self.length,
            table_lines: self.table_lines,
            inheritance_level: self.inheritance_level,
            inheritance_class: &self.inheritance_class,
        }
    }
}

impl VarFields<'_> {
    /// A record of its own.
    pub fn to_record(&self) -> VarRecord {
        VarRecord {
            id: self.id.to_string(),
            name: self.name.to_string(),
            declared_type_name: self.declared_type_name.to_string(),
            actual_type_name: self.actual_type_name.to_string(),
            kind: self.kind.to_string(),
            instantiation_kind: self.instantiation_kind.to_string(),
            access_kind: self.access_kind.to_string(),
            meta_type: self.meta_type.to_string(),
            parameter_kind: self.parameter_kind.to_string(),
            value: self.value.to_string(),
            hex_value: self.hex_value.to_string(),
            read_only: self.read_only,
            technical_type: self.technical_type.to_string(),
            length: self.length,
            table_lines: self.table_lines,
            inheritance_level: self.inheritance_level,
            inheritance_class: self.inheritance_class.to_string(),
        }
    }
}

/// What the program should do after the hook returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// Execute the statement and go on.
    Run,
    /// Abort the program (the run ends with [`crate::RunError::Terminated`]).
    Terminate,
    /// Continue at the stop point on this line (same procedure and source part, see
    /// [`StopContext::can_jump_to`]) without executing the statements in between. The hook is
    /// called again at the target line before its statement runs. A line the program cannot
    /// jump to is ignored (the program runs on as with [`Resume::Run`]).
    JumpTo(u32),
}

/// Read access to a program stopped at a statement.
pub trait StopContext {
    /// Where the program is about to execute (the innermost frame).
    fn location(&self) -> Location;
    /// The ABAP call stack, innermost frame first.
    fn stack(&self) -> Vec<Frame>;
    /// Number of ABAP frames (1 = the outermost procedure).
    fn depth(&self) -> usize;
    /// A number that stays the same while the innermost frame runs the same procedure (and
    /// so the same object and source part of [`StopContext::location`]), for a hook that
    /// remembers what it decided about a procedure instead of building the location before
    /// every statement. `None`: not known, decide every time.
    fn procedure(&self) -> Option<usize> {
        None
    }
    /// Children of `@ROOT` for the frame `frame` (0 = innermost).
    fn scopes(&self, frame: usize) -> Vec<ScopeEntry>;
    /// Children of `parent_id` (a scope id such as `@LOCALS`, a structure, `ME`, a table row
    /// `LT[2]`) in frame `frame`. `None` when the parent is unknown, a table, an empty table or
    /// an out-of-range row (ADT answers those with a zero-byte body).
    fn children(&self, frame: usize, parent_id: &str) -> Option<Vec<VarRecord>>;
    /// [`StopContext::children`] handed to `each` one at a time, borrowed: what a record
    /// becomes (a piece of XML) is written without the record being built. `false` where
    /// `children` answers `None`.
    fn each_child(
        &self,
        frame: usize,
        parent_id: &str,
        each: &mut dyn FnMut(VarFields<'_>),
    ) -> bool {
        let Some(records) = self.children(frame, parent_id) else {
            return false;
        };
        for r in &records {
            each(r.fields());
        }
        true
    }
    /// Records for the given ids in frame `frame`; unknown ids are skipped.
    fn variables(&self, frame: usize, ids: &[String]) -> Vec<VarRecord>;

    /// The ABAP keyword of the statement about to run, upper case, as the ADT statement
    /// breakpoint catalogue names it: `MOVE` (plain assignment `a = b`), `COMPUTE`
    /// (arithmetic assignment, `+=` …), `CALL METHOD` (any method call statement, also
    /// functional calls written as statements), `IF`, `ELSEIF`, `CASE`, `WHEN`, `DO`, `WHILE`,
    /// `LOOP`, `CLEAR`, `EXIT`, `CONTINUE`, `RETURN`, `CHECK`, `TRY`, `CATCH`, `RAISE EXCEPTION`
    /// (a statement breakpoint on `RAISE` matches it too), `MESSAGE`, `WRITE`, `ULINE`, `SKIP`, `NEW-LINE`, `PERFORM`,
    /// `CREATE OBJECT`, `APPEND`, `INSERT`, `READ TABLE`, `MODIFY`, `DELETE`, `SORT`, `COLLECT`,
    /// `ENDMETHOD`, `ENDFORM`, … and, for statements outside the subset, their keyword(s).
    fn statement(&self) -> String {
        String::new()
    }

    /// When the statement about to run is the `CATCH` that has just caught an exception: the
    /// exception's class name (upper case). Exception breakpoints stop there.
    fn caught_exception(&self) -> Option<String> {
        None
    }

    /// `(msgid, msgno, msgty)` when the statement about to run is a `MESSAGE` whose id,
    /// number and type are written statically (`MESSAGE e001(zmsg)`, `MESSAGE ID 'ZMSG' TYPE
    /// 'E' NUMBER '001'`). A text message (`MESSAGE 'text' TYPE 'I'`) has an empty id and
    /// number `000`.
    fn message(&self) -> Option<(String, String, String)> {
        None
    }

    /// Assigns `value` (text, as typed in the debugger) to the variable `id` of frame `frame`
    /// with ABAP move semantics (`CONV` from a `string`), as ADT `setVariableValue` does, and
    /// returns the variable's new record. Errors name the reason (unknown variable, not a
    /// simple or string field, read-only, value not convertible).
    fn set_value(&self, frame: usize, id: &str, value: &str) -> Result<VarRecord, String> {
        let _ = (frame, id, value);
        Err("changing variables is not supported here".into())
    }

    /// Whether the logical expression `condition` (a breakpoint's or watchpoint's condition,
    /// ABAP syntax: `lv_count > 1 AND ls_order-status = 'A'`) holds in frame `frame`, judged
    /// with the interpreter's own comparison rules (exact for `p`, `int8` and `decfloat`
    /// values), as an `IF` there would judge it. Nothing runs and nothing changes: method
    /// calls and `NEW` are refused. `Err`: no condition, or it cannot be judged here (an
    /// unknown name, a value that does not convert).
    fn condition_holds(&self, frame: usize, condition: &str) -> Result<bool, String> {
        let _ = (frame, condition);
        Err("conditions are not supported here".into())
    }

    /// True if [`Resume::JumpTo`] `line` is possible from here: a stop point of the innermost
    /// procedure, in the same source part, in the block being executed or one enclosing it
    /// (a jump may leave loops and branches but not enter ones that are not running).
    fn can_jump_to(&self, line: u32) -> bool {
        let _ = line;
        false
    }
}

/// Called by the interpreter before every executable statement.
pub trait DebugHook {
    fn before_statement(&mut self, ctx: &dyn StopContext) -> Resume;

    /// Total time the program has been held stopped by this hook so far (waiting for an
    /// attach or a debugger command); it does not count towards [`crate::Limits::run_time`].
    fn paused(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }

    /// A runtime error no handler catches is ending the run (in an ABAP Unit run, the test
    /// method: one the framework cannot catch either). Called once, at the statement that
    /// raised it, before anything unwinds: `ctx` shows the stack and variables of that
    /// moment (a short dump's chapters). Nothing is resumed; the default does nothing.
    fn runtime_error(&mut self, ctx: &dyn StopContext, error: &RuntimeError) {
        let _ = (ctx, error);
    }
}

/// A runtime error that ends a run, as [`DebugHook::runtime_error`] is told of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeError {
    /// The runtime error (`COMPUTE_INT_ZERODIVIDE`, `UNCAUGHT_EXCEPTION`, `ASSERTION_FAILED`).
    pub id: String,
    /// Its short text.
    pub text: String,
    /// The exception class of a class-based error (`CX_SY_ZERODIVIDE`, a user's `ZCX_…`).
    pub exception: Option<String>,
}

/// A hook that never stops.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoDebugger;

impl DebugHook for NoDebugger {
    fn before_statement(&mut self, _ctx: &dyn StopContext) -> Resume {
        Resume::Run
    }
}

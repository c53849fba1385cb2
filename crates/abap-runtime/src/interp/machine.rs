//! The interpreter of one run (`Interp`): the execution state it owns and what it borrows
//! from the run's owner (the debugger hook, the limits, the database connection), and the
//! types every part of the interpreter shares (`Exec`, `Unwind`, `Flow`, `Dump`, `Failure`).
//! It uses nothing of the files that run statements on it.

use std::collections::BTreeMap;
use std::time::Instant;

use crate::interp::database::SharedDb;
use crate::interp::function_state::{ActiveCall, Raised};
use crate::interp::state::{BuiltinClasses, State};
use abap_data::debug::{DebugHook, Location};
use abap_data::limits::Limits;
use abap_data::value::ObjId;
use abap_syntax::ast::{CatchClause, ClassDef};

/// Why execution stops early.
#[derive(Debug)]
pub enum Unwind {
    /// Boxed: results travel through every level of the recursion, keep them small.
    Dump(Box<Dump>),
    Terminated,
    /// A class-based exception (the exception object) on its way to a `CATCH`.
    Exception(ObjId),
    /// The debugger asked to continue at this line (see [`Resume::JumpTo`]).
    Jump(u32),
    /// A failed ABAP Unit assertion (ends the test method).
    Failure(Box<Failure>),
    /// A classic exception of a function module that its caller handles
    /// (`interp/function_call.rs`).
    Raised(Box<Raised>),
}

#[derive(Debug)]
pub struct Dump {
    pub id: String,
    pub text: String,
    pub location: Option<Location>,
}

/// A failed `cl_abap_unit_assert` assertion.
#[derive(Debug)]
pub struct Failure {
    /// `ASSERT_EQUALS`.
    pub assertion: String,
    pub details: Vec<String>,
    pub location: Option<Location>,
}

pub type Exec<T> = Result<T, Unwind>;

/// How a statement list ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Normal,
    Exit,
    Continue,
    Return,
}

/// The execution state of one run. What outlives the run or belongs to its caller is only
/// borrowed: the program's classes (`'r`), the hook, the limits and the database (`'h`).
pub struct Interp<'r, 'h> {
    pub st: State<'r>,
    pub(crate) hook: &'h mut dyn DebugHook,
    /// The ABAP stack the active procedures take and the Rust stack segments the interpreter
    /// added (`call_stack.rs`).
    pub stack: StackUse,
    /// Program and `CATCH` clauses of the `TRY` blocks whose protected part is running, innermost last:
    /// ABAP decides where an exception is handled before unwinding (a catchable runtime error
    /// becomes an exception only when some handler wants it; `CLEANUP` runs only when one will).
    pub handlers: Vec<(&'r str, &'r [CatchClause])>,
    /// The ABAP Unit framework around a test method handles every exception.
    pub framework_handles_all: bool,
    /// The hook was told of the runtime error unwinding now (`report_if_uncaught`).
    pub(crate) error_reported: bool,
    /// The run's limits: the caller's, read here (`run_classrun`, `run_report`, `unit_run::run`).
    pub limits: &'h Limits,
    pub(crate) started: Instant,
    /// Judging a debugger condition (`condition.rs`): no method runs, no object is created.
    pub judging_condition: bool,
    /// The database Open SQL statements run against (`sql.rs`): the run's connection, which
    /// the function that starts the run owns (it rolls back what is left open).
    pub db: Option<&'h SharedDb>,
    /// `COMMIT WORK`/`ROLLBACK WORK` executed so far: a `SELECT` loop's cursor does not
    /// survive one (`sql.rs`).
    pub luw_ends: u32,
    /// The `CALL FUNCTION`s whose modules are running, innermost last.
    pub function_calls: Vec<ActiveCall>,
    /// What the thread held when the run started and what the debugger hook kept since
    /// (documents it wrote, sent to another thread): neither is the program's memory.
    pub(crate) memory_base: isize,
}

impl<'r, 'h> Interp<'r, 'h> {
    /// An interpreter for one run: the state is its own; the hook, the limits and the
    /// database connection belong to whoever runs it and are lent for the run.
    pub fn new(
        classes: &'r BTreeMap<String, ClassDef>,
        builtins: BuiltinClasses,
        hook: &'h mut dyn DebugHook,
        limits: &'h Limits,
        db: Option<&'h SharedDb>,
    ) -> Self {
        Interp {
            st: State::new(classes, builtins),
            hook,
            stack: StackUse::default(),
            handlers: Vec::new(),
            framework_handles_all: false,
            error_reported: false,
            limits,
            started: Instant::now(),
            judging_condition: false,
            db,
            luw_ends: 0,
            function_calls: Vec::new(),
            memory_base: crate::run_memory::held_by_thread(),
        }
    }

    /// Bytes the run holds now (`run_memory.rs`).
    pub fn memory_held(&self) -> usize {
        let held = crate::run_memory::held_by_thread().saturating_sub(self.memory_base);
        usize::try_from(held).unwrap_or(0)
    }

    /// Can the run take `more` bytes besides what it holds? `id` is the runtime error when not.
    pub(crate) fn room_for_memory(&self, more: usize, id: &str) -> Exec<()> {
        let held = self.memory_held();
        if held.saturating_add(more) > self.limits.run_memory {
            let limit = self.limits.run_memory;
            let text = if more == 0 {
                format!("the run holds {held} bytes of memory, more than its limit of {limit}")
            } else {
                format!(
                    "the run holds {held} bytes of memory and cannot take {more} more within \
                     its limit of {limit}"
                )
            };
            return Err(self.dump(id, text));
        }
        Ok(())
    }
}

/// The stack a run uses now (`call_stack.rs` charges it).
#[derive(Debug, Default)]
pub struct StackUse {
    /// ABAP stack taken by the active procedures.
    pub(crate) abap_bytes: usize,
    /// Rust stack segments added and not yet released.
    pub(crate) segments: usize,
}

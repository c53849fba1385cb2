//! Tree-walking interpreter: statements, method calls, objects, and the debugger hook.
//!
//! ABAP calls map onto Rust calls (a method call inside an expression simply recurses), and the
//! hook runs on this thread with a read-only view of [`State`], so stepping and inspection need
//! no extra machinery. Errors and debugger termination travel as [`Unwind`] through `?`.

pub(crate) mod abap_regex;
pub(crate) mod access;
pub(crate) mod bit_ops;
pub(crate) mod bound;
pub(crate) mod builtins;
pub(crate) mod calc;
pub(crate) mod call_stack;
pub(crate) mod calls;
pub(crate) mod condition;
pub(crate) mod constructors;
pub(crate) mod context;
pub(crate) mod control_levels;
pub(crate) mod dynamic;
pub(crate) mod eval;
pub(crate) mod exec;
pub(crate) mod function_call;
pub(crate) mod groups;
pub(crate) mod header_lines;
pub(crate) mod list;
pub(crate) mod match_results;
pub(crate) mod oo;
pub(crate) mod ranges;
pub(crate) mod refs;
pub(crate) mod regex_backtrack;
pub(crate) mod row_refs;
pub(crate) mod search_statement;
pub(crate) mod secondary_keys;
pub(crate) mod sql;
pub(crate) mod state;
pub(crate) mod table_assign;
pub(crate) mod table_exprs;
pub(crate) mod table_ops;
pub(crate) mod table_search;
pub(crate) mod tables;
pub(crate) mod template;
pub(crate) mod text;
pub(crate) mod text_compare;
pub(crate) mod time;
pub(crate) mod types;
pub(crate) mod unit_run;
pub(crate) mod var;
pub(crate) mod write_to;

use crate::interp::bound::Bound;
use std::collections::BTreeMap;
use std::time::Instant;

use crate::interp::builtins::classes::classrun::{
    CLASSRUN_INTF, CLASSRUN_MAIN, CLASSRUN_OUT_CLASS, CLASSRUN_OUT_INTF,
};
use crate::interp::context::View;
use crate::interp::state::{Current, Frame, Object, State, Var, VarKind};
use abap_data::RunError;
use abap_data::debug::{self, DebugHook, Location, Resume};
use abap_data::limits::Limits;
use abap_data::place::Place;
use abap_data::value::{ConvError, ObjId, Type, Value};
use abap_syntax::ast::{
    AssignOp, BinOp, CallArgs, CatchClause, ClassDef, Cond, DataDecl, Expr, MethodDecl, ParamDecl,
    ParamKind, Path, Sel, Stmt, StmtKind,
};

/// Width of `ULINE` in the list output (the default line size of a report list).
const LIST_WIDTH: usize = 83;

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
    Raised(Box<function_call::Raised>),
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

pub struct Interp<'r, 'h> {
    pub st: State<'r>,
    hook: &'h mut dyn DebugHook,
    /// The ABAP stack the active procedures take and the Rust stack segments the interpreter
    /// added (`call_stack.rs`).
    pub stack: call_stack::StackUse,
    /// Program and `CATCH` clauses of the `TRY` blocks whose protected part is running, innermost last:
    /// ABAP decides where an exception is handled before unwinding (a catchable runtime error
    /// becomes an exception only when some handler wants it; `CLEANUP` runs only when one will).
    pub handlers: Vec<(&'r str, &'r [CatchClause])>,
    /// The ABAP Unit framework around a test method handles every exception.
    pub framework_handles_all: bool,
    /// The hook was told of the runtime error unwinding now (`report_if_uncaught`).
    error_reported: bool,
    /// The run's limits: the caller's, read here (`run_classrun`, `run_report`, `unit_run::run`).
    pub limits: &'h Limits,
    started: Instant,
    /// Judging a debugger condition (`condition.rs`): no method runs, no object is created.
    pub judging_condition: bool,
    /// The database Open SQL statements run against (`sql.rs`): the run's connection, which
    /// the function that starts the run owns (it rolls back what is left open).
    pub db: Option<&'h sql::SharedDb>,
    /// `COMMIT WORK`/`ROLLBACK WORK` executed so far: a `SELECT` loop's cursor does not
    /// survive one (`sql.rs`).
    pub luw_ends: u32,
    /// The `CALL FUNCTION`s whose modules are running, innermost last.
    pub function_calls: Vec<function_call::ActiveCall>,
    /// What the thread held when the run started and what the debugger hook kept since
    /// (documents it wrote, sent to another thread): neither is the program's memory.
    memory_base: isize,
}

/// Runs `IF_OO_ADT_CLASSRUN~MAIN` of `class` on a fresh instance.
#[expect(
    clippy::result_large_err,
    reason = "RunError is the crate's contract type; one per run"
)]
pub fn run_classrun(
    classes: &BTreeMap<String, ClassDef>,
    class: &str,
    hook: &mut dyn DebugHook,
    limits: Limits,
    db: Option<&sql::SharedDb>,
) -> Result<String, RunError> {
    let name = class.to_ascii_uppercase();
    let Some(def) = classes.get(&name) else {
        return Err(RunError::UnknownClass(name));
    };
    if !def.interfaces.iter().any(|i| i == CLASSRUN_INTF)
        || def.implementation(CLASSRUN_MAIN).is_none()
    {
        return Err(RunError::NotRunnable(name));
    }
    let db = db.map(sql::SharedDb::for_run);
    // Whatever the run leaves uncommitted (a panic included) is rolled back.
    let _rollback = sql::RollbackOnDrop(db.clone());
    let mut it = Interp::new(classes, hook, &limits, db.as_ref());
    let result = it.classrun(def);
    it.end_of_program(result.is_ok());
    let output = it.st.output.join("\n");
    it.finish(result, output)
}

/// Runs a report: `LOAD-OF-PROGRAM`, `INITIALIZATION`, `START-OF-SELECTION`,
/// `END-OF-SELECTION`; returns the list output.
#[expect(
    clippy::result_large_err,
    reason = "RunError is the crate's contract type; one per run"
)]
pub fn run_report(
    classes: &BTreeMap<String, ClassDef>,
    program: &str,
    hook: &mut dyn DebugHook,
    limits: Limits,
    db: Option<&sql::SharedDb>,
) -> Result<String, RunError> {
    let name = program.to_ascii_uppercase();
    let Some(def) = classes.get(&abap_syntax::parser::program_key(&name)) else {
        return Err(RunError::UnknownClass(name));
    };
    let db = db.map(sql::SharedDb::for_run);
    // Whatever the run leaves uncommitted (a panic included) is rolled back.
    let _rollback = sql::RollbackOnDrop(db.clone());
    let mut it = Interp::new(classes, hook, &limits, db.as_ref());
    if let Some(v) = it.st.sy.iter_mut().find(|v| v.name == "REPID") {
        v.val = Value::C(format!("{name:<40}").into());
    }
    let result = it.report(def);
    it.end_of_program(result.is_ok());
    it.st.flush_line();
    let output = it.st.list_text();
    it.finish(result, output)
}

impl<'r, 'h> Interp<'r, 'h> {
    /// An interpreter for one run: the state is its own; the hook, the limits and the
    /// database connection belong to whoever runs it and are lent for the run.
    pub fn new(
        classes: &'r BTreeMap<String, ClassDef>,
        hook: &'h mut dyn DebugHook,
        limits: &'h Limits,
        db: Option<&'h sql::SharedDb>,
    ) -> Self {
        Interp {
            st: State::new(classes),
            hook,
            stack: call_stack::StackUse::default(),
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
    fn room_for_memory(&self, more: usize, id: &str) -> Exec<()> {
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

    /// Maps how a run ended to the contract's result.
    #[expect(
        clippy::result_large_err,
        reason = "RunError is the crate's contract type; one per run"
    )]
    pub fn finish(&mut self, result: Exec<()>, output: String) -> Result<String, RunError> {
        match result {
            Ok(()) => Ok(output),
            Err(Unwind::Terminated) => Err(RunError::Terminated),
            Err(e) => {
                let d = self.to_dump(e);
                Err(RunError::Dump {
                    id: d.id,
                    text: d.text,
                    location: d.location,
                    output,
                })
            }
        }
    }

    /// The runtime error an unwinding ends the run with.
    pub fn to_dump(&self, e: Unwind) -> Dump {
        match e {
            Unwind::Dump(d) => *d,
            Unwind::Terminated => Dump {
                id: "SYSTEM_CANCELED".into(),
                text: "program terminated by the debugger".into(),
                location: None,
            },
            Unwind::Exception(obj) => {
                let class = self.st.object_class(obj).unwrap_or("CX_ROOT").to_string();
                let info = self.st.heap.get(obj).and_then(|o| o.exc.clone());
                let text = self.exception_text(obj);
                let info = info.unwrap_or_default();
                Dump {
                    id: info
                        .dump_id
                        .unwrap_or_else(|| "UNCAUGHT_EXCEPTION".to_string()),
                    text: format!("exception {class} was not caught: {text}"),
                    location: info.location,
                }
            }
            Unwind::Jump(line) => Dump {
                id: "SIMULATOR_JUMP".into(),
                text: format!("cannot continue at line {line}"),
                location: self.location(),
            },
            Unwind::Raised(_) => Dump {
                id: "RAISE_EXCEPTION".into(),
                text: "a classic exception left its function module".into(),
                location: self.location(),
            },
            Unwind::Failure(f) => Dump {
                id: "SIMULATOR_ASSERTION".into(),
                text: format!("assertion {} failed outside a test", f.assertion),
                location: f.location,
            },
        }
    }

    fn report(&mut self, prog: &'r ClassDef) -> Exec<()> {
        self.ensure_statics(prog)?;
        for event in [
            "LOAD-OF-PROGRAM",
            "INITIALIZATION",
            "START-OF-SELECTION",
            "END-OF-SELECTION",
        ] {
            for imp in prog.implementations.iter().filter(|m| m.name == event) {
                self.invoke_impl(prog, None, imp, Bound::default())?;
            }
        }
        Ok(())
    }
}

/// The implicit signature of `IF_OO_ADT_CLASSRUN~MAIN`.
fn classrun_main_decl() -> MethodDecl {
    MethodDecl {
        name: CLASSRUN_MAIN.into(),
        is_static: false,
        params: vec![ParamDecl {
            name: "OUT".into(),
            kind: ParamKind::Importing,
            ty: Ok(Type::Ref(CLASSRUN_OUT_INTF.into())),
            by_value: false,
            optional: false,
            default: None,
        }],
        for_testing: false,
        is_abstract: false,
        line: 0,
    }
}

impl<'r> Interp<'r, '_> {
    fn classrun(&mut self, def: &'r ClassDef) -> Exec<()> {
        let me = self.create_object(def, None)?;
        let out = self.st.heap.len();
        self.st.heap.push(Object {
            class: CLASSRUN_OUT_CLASS.into(),
            attrs: Vec::new(),
            is_classrun_out: true,
            exc: None,
        });
        let bound = Bound {
            inputs: vec![(
                "OUT".into(),
                Value::Ref {
                    static_type: CLASSRUN_OUT_INTF.into(),
                    target: Some(out),
                },
            )],
            ..Bound::default()
        };
        self.invoke(def, Some(me), CLASSRUN_MAIN, bound)?;
        Ok(())
    }

    /// `get_text( )` of an exception object.
    pub fn exception_text(&self, obj: ObjId) -> String {
        let Some(o) = self.st.heap.get(obj) else {
            return String::new();
        };
        if let Some(t) = o.exc.as_ref().and_then(|e| e.text.clone()) {
            return t;
        }
        let t100_key = format!(
            "{}~T100KEY",
            crate::interp::builtins::classes::t100::T100_MESSAGE
        );
        if let Some(key) = o.attrs.iter().find(|a| a.name == t100_key)
            && let Some(t) = crate::interp::builtins::classes::t100::text(&key.val, |name| {
                let v = o.attrs.iter().find(|a| a.name == name)?;
                v.val.template_text().ok()
            })
        {
            return t;
        }
        let Some(class) = self.st.class_by_key(&o.class) else {
            return "An exception was raised".into();
        };
        self.st
            .lineage(class)
            .iter()
            .find_map(|c| builtins::classes::default_text(&c.key))
            .unwrap_or("An exception was raised")
            .to_string()
    }

    // ---------------------------------------------------------------- errors and hooks

    pub fn location(&self) -> Option<Location> {
        self.st.frames.last().map(Frame::location)
    }

    pub fn dump(&self, id: &str, text: impl Into<String>) -> Unwind {
        Unwind::Dump(Box::new(Dump {
            id: id.into(),
            text: text.into(),
            location: self.location(),
        }))
    }

    /// `SIMULATOR_NOT_SUPPORTED` naming the construct and the include position.
    pub fn not_supported(&self, what: &str) -> Unwind {
        let at = self
            .location()
            .map(|l| format!(" at {}:{}", l.include, l.include_line))
            .unwrap_or_default();
        self.dump(
            "SIMULATOR_NOT_SUPPORTED",
            format!("not supported by the simulator: {what}{at}"),
        )
    }

    pub fn conv_error(&self, e: ConvError) -> Unwind {
        match e {
            ConvError::NoNumber(t) => self.dump(
                "CONVT_NO_NUMBER",
                format!("Unable to interpret \"{t}\" as a number"),
            ),
            ConvError::Overflow => self.dump("CONVT_OVERFLOW", "Overflow during a conversion"),
            ConvError::Incompatible => self.dump(
                "OBJECTS_MOVE_NOT_SUPPORTED",
                "Conversion between a reference and data is not possible",
            ),
        }
    }

    fn set_line(&mut self, line: u32) {
        if let Some(f) = self.st.frames.last_mut() {
            f.line = line;
        }
    }

    /// Counts work so that endless loops end with a runtime error instead of hanging.
    pub fn tick(&mut self) -> Exec<()> {
        self.st.steps += 1;
        if self.st.steps > self.limits.statements {
            return Err(self.dump(
                "SIMULATOR_LIMIT",
                format!(
                    "statement limit of {} executed statements reached",
                    self.limits.statements
                ),
            ));
        }
        // What the last statement built without asking first (a copied table, an object)
        // ends the run here: at most one statement past the budget.
        self.room_for_memory(0, "TSV_TNEW_PAGE_ALLOC_FAILED")?;
        // The clock is read now and then: a statement is far shorter than the limit.
        if self.st.steps.is_multiple_of(1024) {
            let running = self.started.elapsed().saturating_sub(self.hook.paused());
            if running > self.limits.run_time {
                return Err(self.dump(
                    "TIME_OUT",
                    format!(
                        "the program ran longer than the time limit of {} s",
                        self.limits.run_time.as_secs_f64()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Can a table that has `rows` rows take one more? Its row vector may double as it
    /// grows, so that much memory must be left (32 bytes a value, `value.rs`).
    pub fn room_for(&self, rows: usize) -> Exec<()> {
        self.room_for_memory(
            rows.saturating_mul(size_of::<Value>()),
            "TSV_TNEW_PAGE_ALLOC_FAILED",
        )?;
        if rows >= self.limits.table_rows {
            return Err(self.dump(
                "TSV_TNEW_PAGE_ALLOC_FAILED",
                format!(
                    "an internal table cannot grow beyond the limit of {} rows",
                    self.limits.table_rows
                ),
            ));
        }
        Ok(())
    }

    /// How many matches of a search the run's memory can still hold, at `per_match` bytes
    /// each (at least one). A search that finds that many ends the run
    /// ([`Interp::matches_fill_memory`]) instead of collecting on.
    pub(crate) fn match_cap(&self, per_match: usize) -> usize {
        let left = self.limits.run_memory.saturating_sub(self.memory_held());
        (left / per_match.max(1)).max(1)
    }

    /// `TSV_TNEW_PAGE_ALLOC_FAILED` of a search whose matches fill the run's memory.
    pub(crate) fn matches_fill_memory(&self, found: usize) -> Unwind {
        self.dump(
            "TSV_TNEW_PAGE_ALLOC_FAILED",
            format!(
                "the {found} matches found so far fill the memory of the run (limit {} bytes)",
                self.limits.run_memory
            ),
        )
    }

    /// Can a string or xstring of `len` characters (bytes) be built? Asked before building
    /// it, so a program that doubles a string never asks the allocator for more than the
    /// limit.
    pub fn room_for_text(&self, len: usize) -> Exec<()> {
        self.room_for_memory(len, "STRING_SIZE_TOO_LARGE")?;
        self.text_fits(len)
    }

    /// Is a string of `len` characters within `Limits::string_length`? For a string already
    /// built (and counted in the run's memory).
    fn text_fits(&self, len: usize) -> Exec<()> {
        if len > self.limits.string_length {
            return Err(self.dump(
                "STRING_SIZE_TOO_LARGE",
                format!(
                    "a string cannot grow beyond the limit of {} characters",
                    self.limits.string_length
                ),
            ));
        }
        Ok(())
    }

    /// A stop point: the hook may stop here and inspect the state.
    pub fn stop(&mut self, line: u32, current: Current<'r>) -> Exec<()> {
        self.set_line(line);
        self.tick()?;
        self.st.current = current;
        let before = crate::run_memory::held_by_thread();
        let resume = {
            let view = View::new(&mut self.st);
            self.hook.before_statement(&view)
        };
        // What the hook keeps is the debugger's (a document it wrote and sent away), not the
        // program's.
        self.memory_base = self
            .memory_base
            .saturating_add(crate::run_memory::held_by_thread().saturating_sub(before));
        self.st.current = Current::None;
        match resume {
            Resume::Run => Ok(()),
            Resume::Terminate => Err(Unwind::Terminated),
            Resume::JumpTo(target) if self.st.can_jump(target) => Err(Unwind::Jump(target)),
            Resume::JumpTo(_) => Ok(()),
        }
    }

    // ---------------------------------------------------------------- objects and classes

    /// Main program of the innermost frame (for local class names).
    fn program(&self) -> &'r str {
        self.st
            .frames
            .last()
            .map_or("", |f| f.class.program.as_str())
    }

    fn class(&self, name: &str) -> Exec<&'r ClassDef> {
        self.st
            .find_class(self.program(), name)
            .ok_or_else(|| self.not_supported(&format!("unknown class {name}")))
    }

    pub(crate) fn decl_value(&self, d: &DataDecl, ty: &Type, earlier: &[Var]) -> Exec<Value> {
        match &d.value {
            Some(e) => self.start_value(&d.name, e, ty, earlier),
            None => Ok(ty.initial()),
        }
    }

    /// The value of a `VALUE` clause: a literal, a constant, or for a structure declared with
    /// `BEGIN OF … END OF` the `VALUE` clauses of its components.
    fn start_value(&self, name: &str, e: &Expr, ty: &Type, earlier: &[Var]) -> Exec<Value> {
        if let (Expr::Value { body, .. }, Type::Struct(st)) = (e, ty)
            && body.rows.is_empty()
        {
            let mut comps: Vec<Value> = st.comps.iter().map(|(_, t)| t.initial()).collect();
            for (comp, ce) in &body.fields {
                let (Some(i), Some((_, cty))) = (
                    st.index_of(comp),
                    st.index_of(comp).and_then(|i| st.comps.get(i)),
                ) else {
                    return Err(self.not_supported(&format!("VALUE of {name}-{comp}")));
                };
                let v = self.start_value(name, ce, cty, earlier)?;
                if let Some(slot) = comps.get_mut(i) {
                    *slot = v;
                }
            }
            return Ok(Value::Struct(st.clone(), comps.into()));
        }
        let d_name = name;
        let v = match e {
            Expr::Lit(v) => v.clone(),
            Expr::Neg(inner) => match inner.as_ref() {
                Expr::Lit(v) => {
                    let d = v.to_dec().map_err(|e| self.conv_error(e))?;
                    let n = d
                        .neg()
                        .map_err(|_| self.dump("CONVT_OVERFLOW", "Overflow"))?;
                    Value::P {
                        m: n.m.into(),
                        len: 16,
                        dec: n.scale,
                    }
                }
                _ => return Err(self.not_supported(&format!("VALUE of {}", d_name))),
            },
            Expr::Path(p) if p.rest.is_empty() => {
                if let Some(v) = earlier.iter().find(|v| v.name == p.base) {
                    v.val.clone()
                } else if let Some(v) = self
                    .st
                    .frames
                    .len()
                    .checked_sub(1)
                    .and_then(|f| self.st.lookup(f, p))
                {
                    v.val.clone()
                } else {
                    match p.base.as_str() {
                        "ABAP_TRUE" => Value::C("X".into()),
                        "ABAP_FALSE" | "SPACE" => Value::C(" ".into()),
                        _ => return Err(self.not_supported(&format!("VALUE {}", p.base))),
                    }
                }
            }
            // `VALUE cl_abap_typedescr=>typekind_int`: a constant of a built-in class, or one
            // of a class whose static attributes exist.
            Expr::Path(p) => match builtins::classes::static_constant(p) {
                Some(v) => v.val,
                None => match self
                    .st
                    .frames
                    .len()
                    .checked_sub(1)
                    .and_then(|f| self.st.lookup(f, p))
                {
                    Some(v) => v.val.clone(),
                    None => return Err(self.not_supported(&format!("VALUE of {}", d_name))),
                },
            },
            _ => return Err(self.not_supported(&format!("VALUE of {}", d_name))),
        };
        v.convert(ty).map_err(|e| self.conv_error(e))
    }

    pub fn ensure_statics(&mut self, class: &'r ClassDef) -> Exec<()> {
        if self.st.statics.contains_key(&class.key) {
            return Ok(());
        }
        self.st.statics.insert(class.key.clone(), Vec::new());
        if let Some(sup) = self.st.superclass(class) {
            self.ensure_statics(sup)?;
        }
        self.ensure_interface_statics(class)?;
        let mut vars = Vec::new();
        for d in class.attributes.iter().filter(|d| d.is_static) {
            let Ok(ty) = &d.ty else { continue };
            let ty = &self.resolve_type(class, None, ty, &vars)?;
            let mut v = Var::new(
                &d.name,
                ty.clone(),
                VarKind::Attr {
                    is_static: true,
                    constant: d.is_constant,
                    visibility: d.visibility,
                },
            );
            v.type_name = declared_name(&d.ty);
            v.val = self.decl_value(d, ty, &vars)?;
            vars.push(v);
        }
        self.st.statics.insert(class.key.clone(), vars);
        if class.implementation("CLASS_CONSTRUCTOR").is_some() {
            self.invoke(class, None, "CLASS_CONSTRUCTOR", Bound::default())?;
        }
        Ok(())
    }

    /// Creates an instance and runs the constructor (its own or the nearest inherited one).
    pub fn create_object(&mut self, class: &'r ClassDef, args: Option<&CallArgs>) -> Exec<ObjId> {
        if args.is_some_and(|a| !a.exceptions.is_empty()) {
            return Err(self.not_supported("EXCEPTIONS of a constructor"));
        }
        match self.instantiate(class, args)? {
            Some(id) => Ok(id),
            None => Err(self.not_supported("a constructor ended by a classic exception")),
        }
    }

    /// [`Interp::create_object`] for `CREATE OBJECT … EXCEPTIONS`: `None` when a classic
    /// exception the statement handles ended the constructor (no object for the program,
    /// `sy-subrc` set).
    pub fn instantiate(
        &mut self,
        class: &'r ClassDef,
        args: Option<&CallArgs>,
    ) -> Exec<Option<ObjId>> {
        if class.is_abstract || class.is_interface {
            return Err(self.dump(
                "CREATE_OBJECT_CLASS_ABSTRACT",
                format!(
                    "An instance of the abstract class {} cannot be created",
                    class.name
                ),
            ));
        }
        self.ensure_statics(class)?;
        let lineage = self.st.lineage(class);
        let mut attrs = Vec::new();
        for c in lineage.iter().rev() {
            for d in c.attributes.iter().filter(|d| !d.is_static) {
                let Ok(ty) = &d.ty else { continue };
                let ty = &self.resolve_type(c, None, ty, &attrs)?;
                let mut v = Var::new(
                    &d.name,
                    ty.clone(),
                    VarKind::Attr {
                        is_static: false,
                        constant: d.is_constant,
                        visibility: d.visibility,
                    },
                );
                v.read_only = d.is_constant;
                v.type_name = declared_name(&d.ty);
                v.val = self.decl_value(d, ty, &attrs)?;
                attrs.push(v);
            }
        }
        self.interface_attributes(class, &mut attrs)?;
        let id = self.st.heap.len();
        self.st.heap.push(Object {
            class: class.key.clone(),
            attrs,
            is_classrun_out: false,
            exc: None,
        });
        if let Some((owner, _)) = self.resolve_method(class, "CONSTRUCTOR") {
            let decl = self.method_decl(owner, "CONSTRUCTOR");
            let bound = match args {
                Some(a) => self.bind(owner, &decl, a, "CONSTRUCTOR")?,
                None => Bound::default(),
            };
            match args.map(|a| a.exceptions.as_slice()) {
                Some(exceptions) if !exceptions.is_empty() => {
                    let ended = self.with_classic_exceptions(exceptions, |it| {
                        it.invoke(owner, Some(id), "CONSTRUCTOR", bound)
                    })?;
                    if ended.is_none() {
                        return Ok(None);
                    }
                }
                _ => {
                    self.invoke(owner, Some(id), "CONSTRUCTOR", bound)?;
                }
            }
        } else if args.is_some_and(|a| a.positional.is_some() || !a.exporting.is_empty()) {
            return Err(self.dump(
                "CALL_METHOD_PARAM_UNKNOWN",
                format!("class {} has no constructor parameters", class.name),
            ));
        }
        Ok(Some(id))
    }

    // ---------------------------------------------------------------- data access

    fn top(&self) -> usize {
        self.st.frames.len().saturating_sub(1)
    }

    /// Makes sure `ZCL_X=>attr` can be resolved.
    fn prepare_path(&mut self, path: &Path) -> Exec<()> {
        // Local classes and interfaces too (`lif=>const`), keyed by their program.
        if path.rest.first().is_some_and(|(s, _)| *s == Sel::Static)
            && let Some(class) = self.st.find_class(self.program(), &path.base)
        {
            self.ensure_statics(class)?;
        }
        Ok(())
    }

    pub fn read(&mut self, path: &Path) -> Exec<Value> {
        self.prepare_path(path)?;
        match self.st.lookup(self.top(), path) {
            Some(v) => Ok(v.val.clone()),
            None => Err(self.alias_error(path).unwrap_or_else(|| self.unknown(path))),
        }
    }

    fn unknown(&self, path: &Path) -> Unwind {
        self.not_supported(&format!("unknown data object {}", path.text()))
    }

    /// The place of a data object that is only read: write-protected ones (`IMPORTING`
    /// parameters, constants) too. Writes through it still meet the protection, because it is
    /// checked on the data object a place starts from (see [`Interp::writable_place`]).
    pub fn readable_place(&mut self, path: &Path) -> Exec<Place> {
        self.prepare_path(path)?;
        match self.st.place(self.top(), path) {
            Some(place) => Ok(place),
            None => Err(self.alias_error(path).unwrap_or_else(|| self.unknown(path))),
        }
    }

    pub fn writable_place(&mut self, path: &Path) -> Exec<Place> {
        let place = self.readable_place(path)?;
        if self.st.slot_var(&place.slot).is_some_and(|v| v.read_only) {
            return Err(self.dump(
                "MOVE_TO_LIT_NOTALLOWED_NODATA",
                format!("{} is write-protected and cannot be changed", path.text()),
            ));
        }
        Ok(place)
    }

    /// The type of the data object at `place` (declared type for whole variables).
    pub fn place_type(&self, place: &Place) -> Option<Type> {
        if place.steps.is_empty() {
            return self.st.slot_var(&place.slot).map(|v| v.ty.clone());
        }
        self.st.value_at(place).map(Value::type_of)
    }

    /// Assigns `val` to `place` with conversion to the target's type.
    pub fn assign_place(&mut self, place: &Place, val: Value) -> Exec<()> {
        let Some(ty) = self.place_type(place) else {
            return Err(self.not_supported("assignment to a vanished data object"));
        };
        let converted = val
            .convert(&ty)
            .map_err(|e| self.move_error(e, &val, &ty))?;
        let converted = self.keyed_table(&val, converted)?;
        match &converted {
            Value::Table(_, rows) if rows.len() > self.limits.table_rows => {
                self.room_for(rows.len())?
            }
            Value::Str(s) => self.text_fits(s.len())?,
            Value::XStr(x) => self.text_fits(x.len())?,
            _ => {}
        }
        let mut replaces_rows = false;
        if let Some(v) = self.st.value_at_mut(place) {
            replaces_rows = crate::interp::row_refs::holds_rows(v);
            *v = converted;
        }
        if replaces_rows {
            // The old rows are gone: references into them follow no row any more.
            self.rows_replaced(place);
        }
        Ok(())
    }

    /// The runtime error of a failed conversion of `val` to `ty`.
    pub fn move_error(&self, e: ConvError, val: &Value, ty: &Type) -> Unwind {
        let complex = |t: &Type| matches!(t, Type::Struct(_) | Type::Table(_));
        if e == ConvError::Incompatible && (complex(ty) || complex(&val.type_of())) {
            return self.dump(
                "OBJECTS_MOVE_NOT_SUPPORTED",
                format!(
                    "Conversion of type {} to type {} is not supported",
                    display_type(&val.type_of()),
                    display_type(ty)
                ),
            );
        }
        self.conv_error(e)
    }

    /// Assigns `val` to `path` with conversion to the target's type.
    pub fn assign_value(&mut self, path: &Path, val: Value) -> Exec<()> {
        let place = self.writable_place(path)?;
        self.assign_place(&place, val)
    }

    pub fn target_type_of(&mut self, path: &Path) -> Exec<Type> {
        let place = self.writable_place(path)?;
        match self.place_type(&place) {
            Some(t) => Ok(t),
            None => Err(self.unknown(path)),
        }
    }

    // ---------------------------------------------------------------- statements

    pub fn block(&mut self, stmts: &'r [Stmt]) -> Exec<Flow> {
        self.block_from(stmts, 0)
    }

    /// Runs `stmts` from the statement starting on `line` (a jump target).
    fn block_at(&mut self, stmts: &'r [Stmt], line: u32) -> Exec<Flow> {
        match stmts
            .iter()
            .position(|s| s.line == line && s.kind.is_stop_point())
        {
            Some(i) => self.block_from(stmts, i),
            None => Err(Unwind::Jump(line)),
        }
    }

    fn block_from(&mut self, stmts: &'r [Stmt], start: usize) -> Exec<Flow> {
        if let Some(f) = self.st.frames.last_mut() {
            f.blocks.push(stmts);
        }
        let mut i = start;
        let result = loop {
            let Some(s) = stmts.get(i) else {
                break Ok(Flow::Normal);
            };
            match self.statement(s) {
                Ok(Flow::Normal) => i += 1,
                Ok(flow) => break Ok(flow),
                Err(Unwind::Jump(line)) => {
                    match stmts
                        .iter()
                        .position(|s| s.line == line && s.kind.is_stop_point())
                    {
                        Some(j) => i = j,
                        None => break Err(Unwind::Jump(line)),
                    }
                }
                Err(e) => {
                    self.report_if_uncaught(&e);
                    break Err(e);
                }
            }
        };
        if let Some(f) = self.st.frames.last_mut() {
            f.blocks.pop();
        }
        result
    }

    /// Tells the hook of a runtime error no handler will catch, once, where it was raised
    /// (the innermost block sees it first, with the stack intact; the next statement that
    /// starts, in an ABAP Unit run the next test's, clears the mark).
    fn report_if_uncaught(&mut self, e: &Unwind) {
        if self.error_reported {
            return;
        }
        let error = match e {
            Unwind::Exception(obj) => {
                let Some(key) = self.st.object_class(*obj).map(str::to_string) else {
                    return;
                };
                if self.handled_further_out(&key) {
                    return;
                }
                let class = self
                    .st
                    .class_by_key(&key)
                    .map_or_else(|| key.clone(), |c| c.name.clone());
                let dump_id = self
                    .st
                    .heap
                    .get(*obj)
                    .and_then(|o| o.exc.as_ref())
                    .and_then(|i| i.dump_id.clone());
                debug::RuntimeError {
                    id: dump_id.unwrap_or_else(|| "UNCAUGHT_EXCEPTION".to_string()),
                    text: self.exception_text(*obj),
                    exception: Some(class),
                }
            }
            Unwind::Dump(d) => {
                let class =
                    builtins::classes::exception_for_dump(&d.id).and_then(builtins::classes::class);
                if class.is_some_and(|def| self.handled_further_out(&def.key)) {
                    return;
                }
                debug::RuntimeError {
                    id: d.id.clone(),
                    text: d.text.clone(),
                    exception: class.map(|def| def.name.clone()),
                }
            }
            _ => return,
        };
        self.error_reported = true;
        let view = View::new(&mut self.st);
        self.hook.runtime_error(&view, &error);
    }

    fn in_loop(&self) -> bool {
        self.st.frames.last().is_some_and(|f| f.loop_depth > 0)
    }

    fn statement(&mut self, s: &'r Stmt) -> Exec<Flow> {
        self.error_reported = false;
        if s.kind.is_stop_point() {
            self.stop(s.line, Current::Stmt(&s.kind))?;
        } else {
            self.set_line(s.line);
            self.tick()?;
        }
        self.statement_kind(s)
    }

    /// What statement `s` does, once its stop point is passed.
    fn statement_kind(&mut self, s: &'r Stmt) -> Exec<Flow> {
        // Each kind runs in its own function: in debug builds a single big match would put
        // every arm's locals into the frame of every recursion level.
        match &s.kind {
            StmtKind::Assign { target, op, expr } => self.exec_assign(target, *op, expr),
            StmtKind::Call(c) => {
                self.call(c)?;
                Ok(Flow::Normal)
            }
            StmtKind::If {
                branches,
                else_body,
            } => self.exec_if(branches, else_body),
            StmtKind::Do { times, body } => self.exec_do(times.as_ref(), body),
            StmtKind::While { cond, body } => self.exec_while(s.line, cond, body),
            StmtKind::Case { subject, whens } => self.exec_case(subject, whens),
            StmtKind::Clear(paths) => self.exec_clear(paths),
            StmtKind::Exit => Ok(if self.in_loop() {
                Flow::Exit
            } else {
                Flow::Return
            }),
            StmtKind::Continue => Ok(if self.in_loop() {
                Flow::Continue
            } else {
                Flow::Normal
            }),
            StmtKind::Return => Ok(Flow::Return),
            StmtKind::Assert(Some(c)) => {
                if self.cond(c)? {
                    Ok(Flow::Normal)
                } else {
                    Err(self.dump("ASSERTION_FAILED", "The ASSERT condition was violated"))
                }
            }
            StmtKind::Assert(None) => Ok(Flow::Normal),
            StmtKind::Check(c) => {
                if self.cond(c)? {
                    Ok(Flow::Normal)
                } else if self.in_loop() {
                    Ok(Flow::Continue)
                } else {
                    Ok(Flow::Return)
                }
            }
            StmtKind::Try {
                body,
                catches,
                cleanup,
            } => self.exec_try(body, catches, cleanup.as_ref()),
            StmtKind::Raise(e) => self.exec_raise(e),
            StmtKind::Message(m) => self.message_in_function(m),
            StmtKind::Write(w) => self.exec_list_write(w),
            StmtKind::ListFormat => Ok(Flow::Normal),
            StmtKind::Uline => {
                self.before_list_output()?;
                self.st.flush_line();
                self.st.list.push("-".repeat(LIST_WIDTH));
                Ok(Flow::Normal)
            }
            StmtKind::Skip(n) => {
                let n = match n {
                    Some(e) => match self.eval(e)?.convert(&Type::I) {
                        Ok(Value::I(n)) => n.clamp(0, 1000),
                        _ => 1,
                    },
                    None => 1,
                };
                self.before_list_output()?;
                self.st.flush_line();
                for _ in 0..n {
                    self.st.list.push(String::new());
                }
                Ok(Flow::Normal)
            }
            StmtKind::NewLine => {
                self.st.flush_line();
                Ok(Flow::Normal)
            }
            StmtKind::Perform {
                form,
                using,
                changing,
            } => self.exec_perform(form, using, changing),
            StmtKind::CreateObject {
                target,
                class,
                args,
            } => self.exec_create_object(target, class.as_deref(), args),
            StmtKind::Table(t) => self.exec_table(t),
            StmtKind::TableOp(t) => self.exec_table_op(t),
            StmtKind::CaseType(c) => self.exec_case_type(c),
            StmtKind::Text(t) => {
                self.exec_text(t)?;
                Ok(Flow::Normal)
            }
            StmtKind::AssignRow { target, op, expr } => self.exec_assign_row(target, *op, expr),
            StmtKind::AssignSub { target, expr } => {
                let v = self.eval(expr)?;
                self.assign_sub(target, v)?;
                Ok(Flow::Normal)
            }
            StmtKind::Refs(r) => {
                self.exec_ref_stmt(r)?;
                Ok(Flow::Normal)
            }
            StmtKind::Time(t) => {
                self.exec_time_stmt(t)?;
                Ok(Flow::Normal)
            }
            StmtKind::Sql(q) => self.exec_sql(q),
            StmtKind::Dynamic(d) => self.exec_dynamic(d),
            StmtKind::Function(f) => self.exec_function(f),
            StmtKind::Unsupported { what, .. } => Err(self.not_supported(what)),
        }
    }

    /// Declares a local of the innermost frame (inline `DATA(x)`) unless it exists.
    pub fn declare_inline(&mut self, name: &str, ty: Type) {
        if let Some(f) = self.st.frames.last_mut()
            && !f.vars.iter().any(|v| v.name == name)
        {
            f.vars.push(Var::new(name, ty, VarKind::Local));
        }
    }

    fn exec_assign(&mut self, target: &Path, op: AssignOp, expr: &Expr) -> Exec<Flow> {
        if op == AssignOp::Declare {
            let val = if is_arith(expr) {
                self.arith(expr, None)?
            } else {
                self.eval(expr)?
            };
            self.declare_inline(&target.base, val.type_of());
            self.assign_value(target, val)?;
            return Ok(Flow::Normal);
        }
        let ty = self.target_type_of(target)?;
        let current = match op {
            AssignOp::Set | AssignOp::Declare => None,
            _ => Some(self.read(target)?),
        };
        let val = self.value_for_target(&ty, op, expr, current)?;
        self.assign_value(target, val)?;
        Ok(Flow::Normal)
    }

    /// The value an assignment with `op` gives a target of type `ty` holding `current`
    /// (`None` for `=`): constructor expressions take the target's type, `+=` and friends
    /// calculate in the target's calculation type.
    pub(crate) fn value_for_target(
        &mut self,
        ty: &Type,
        op: AssignOp,
        expr: &Expr,
        current: Option<Value>,
    ) -> Exec<Value> {
        let current = match (op, current) {
            (AssignOp::Set | AssignOp::Declare, _) => {
                return self.set_value_for(ty, expr);
            }
            (_, Some(c)) => c,
            (_, None) => return Err(self.not_supported("compound assignment without a value")),
        };
        let bin = match op {
            AssignOp::Add => BinOp::Add,
            AssignOp::Sub => BinOp::Sub,
            AssignOp::Mul => BinOp::Mul,
            AssignOp::Div => BinOp::Div,
            AssignOp::Set | AssignOp::Declare | AssignOp::Concat => {
                // `a &&= b` is `a = a && b`.
                let mut s = current.to_abap_string().map_err(|e| self.conv_error(e))?;
                let add = self.operand(expr)?;
                let add = add.to_abap_string().map_err(|e| self.conv_error(e))?;
                self.room_for_text(s.len().saturating_add(add.len()))?;
                s.push_str(&add);
                return Ok(Value::Str(s.into()));
            }
        };
        let e = Expr::Bin(bin, Box::new(Expr::Lit(current)), Box::new(expr.clone()));
        self.arith(&e, Some(ty))
    }

    /// The value `target = expr` gives a target of type `ty`.
    fn set_value_for(&mut self, ty: &Type, expr: &Expr) -> Exec<Value> {
        Ok(match expr {
            e if is_arith(e) => self.arith(e, Some(ty))?,
            Expr::New { class, args } => self.new_object(class, args, Some(ty))?,
            Expr::Choose { .. }
            | Expr::Switch { .. }
            | Expr::Conv { .. }
            | Expr::Value { .. }
            | Expr::Ctor(_) => self.constructed(expr, Some(ty))?,
            e if crate::interp::template::is_sole_alpha(e) => self.sole_alpha_template(e, ty)?,
            e => self.eval(e)?,
        })
    }

    fn exec_if(
        &mut self,
        branches: &'r [(u32, Cond, Vec<Stmt>)],
        else_body: &'r [Stmt],
    ) -> Exec<Flow> {
        for (i, (line, cond, body)) in branches.iter().enumerate() {
            if i > 0 {
                self.stop(*line, Current::Keyword("ELSEIF"))?;
            }
            if self.cond(cond)? {
                return self.block(body);
            }
        }
        self.block(else_body)
    }

    fn exec_do(&mut self, times: Option<&Expr>, body: &'r [Stmt]) -> Exec<Flow> {
        let n = match times {
            Some(e) => {
                let v = self.eval(e)?;
                match v.convert(&Type::I).map_err(|e| self.conv_error(e))? {
                    Value::I(n) => Some(n.max(0)),
                    _ => Some(0),
                }
            }
            None => None,
        };
        self.run_loop(|_, pass| {
            Ok(if n.is_some_and(|n| pass > n) {
                None
            } else {
                Some(body)
            })
        })
    }

    fn exec_while(&mut self, line: u32, cond: &'r Cond, body: &'r [Stmt]) -> Exec<Flow> {
        self.run_loop(|it, pass| {
            if pass > 1 {
                it.stop(line, Current::Keyword("WHILE"))?;
            }
            Ok(if it.cond(cond)? { Some(body) } else { None })
        })
    }

    fn exec_case(
        &mut self,
        subject: &Expr,
        whens: &'r [(u32, Vec<Expr>, Vec<Stmt>)],
    ) -> Exec<Flow> {
        let v = self.eval(subject)?;
        for (line, alts, body) in whens {
            let mut hit = alts.is_empty();
            for a in alts {
                let w = self.eval(a)?;
                if self.compare(&v, &w)? == std::cmp::Ordering::Equal {
                    hit = true;
                    break;
                }
            }
            if hit {
                self.stop(*line, Current::Keyword("WHEN"))?;
                return self.block(body);
            }
        }
        Ok(Flow::Normal)
    }

    fn exec_clear(&mut self, paths: &[Path]) -> Exec<Flow> {
        for p in paths {
            let place = self.writable_place(p)?;
            if let Some(ty) = self.place_type(&place)
                && let Some(v) = self.st.value_at_mut(&place)
            {
                let had_rows = crate::interp::row_refs::holds_rows(v);
                *v = ty.initial();
                if had_rows {
                    self.rows_replaced(&place);
                }
            }
        }
        Ok(Flow::Normal)
    }

    /// Runs a loop: `next(pass)` (pass 1, 2, …) gives the body for this pass or ends the loop.
    /// Maintains `sy-index` (restored afterwards, as ABAP does for nested loops).
    fn run_loop<F>(&mut self, mut next: F) -> Exec<Flow>
    where
        F: FnMut(&mut Self, i32) -> Exec<Option<&'r [Stmt]>>,
    {
        let saved = self.st.sy.first().map(|v| v.val.clone());
        if let Some(f) = self.st.frames.last_mut() {
            f.loop_depth += 1;
        }
        let result = self.loop_passes(&mut next);
        if let Some(f) = self.st.frames.last_mut() {
            f.loop_depth = f.loop_depth.saturating_sub(1);
        }
        if let (Some(v), Some(sy_index)) = (saved, self.st.sy.first_mut()) {
            sy_index.val = v;
        }
        result
    }
}

impl<'r> Interp<'r, '_> {
    fn loop_passes<F>(&mut self, next: &mut F) -> Exec<Flow>
    where
        F: FnMut(&mut Self, i32) -> Exec<Option<&'r [Stmt]>>,
    {
        let mut pass: i32 = 0;
        loop {
            pass = pass
                .checked_add(1)
                .ok_or_else(|| self.dump("SIMULATOR_LIMIT", "loop pass counter overflow"))?;
            if pass > 1 {
                self.tick()?;
            }
            let Some(body) = next(self, pass)? else {
                return Ok(Flow::Normal);
            };
            if let Some(sy_index) = self.st.sy.first_mut() {
                sy_index.val = Value::I(pass);
            }
            match self.block(body)? {
                Flow::Exit => return Ok(Flow::Normal),
                Flow::Return => return Ok(Flow::Return),
                Flow::Normal | Flow::Continue => {}
            }
        }
    }
}

/// A type's name in runtime error texts.
pub fn display_type(t: &Type) -> String {
    match t {
        Type::C(n) => format!("C({n})"),
        Type::N(n) => format!("N({n})"),
        Type::X(n) => format!("X({n})"),
        Type::P { len, dec } => format!("P({len},{dec})"),
        Type::Struct(s) if s.name.is_empty() => "structure".into(),
        Type::Table(t) if t.name.is_empty() => "table".into(),
        other => other.name(),
    }
}

/// An arithmetic expression (its calculation type depends on the target).
pub fn is_arith(e: &Expr) -> bool {
    matches!(e, Expr::Bin(..) | Expr::Neg(_))
}

/// The name a declaration's type was given by (`TYPE ty_amount` → `TY_AMOUNT`), for the
/// debugger's `DECLARED_TYPE_NAME`; `None` for built-in types written with their letter.
fn declared_name(ty: &abap_syntax::ast::TypeSpec) -> Option<String> {
    match ty {
        Ok(Type::Named(n)) => Some(n.clone()),
        _ => None,
    }
}

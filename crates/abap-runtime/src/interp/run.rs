//! The run entry points: a classrun, a report; how a run ends (its output or runtime error).
//! ABAP Unit runs start in `unit_run.rs`.

use crate::interp::bound::Bound;
use std::collections::BTreeMap;

use crate::interp::builtins::classes::BUILTIN_CLASSES;
use crate::interp::builtins::classes::classrun::{
    CLASSRUN_INTF, CLASSRUN_MAIN, CLASSRUN_OUT_CLASS, CLASSRUN_OUT_INTF,
};
use crate::interp::database::{RollbackOnDrop, SharedDb};
use crate::interp::machine::{Dump, Exec, Interp, Unwind};
use crate::interp::state::Object;
use abap_data::RunError;
use abap_data::debug::DebugHook;
use abap_data::limits::Limits;
use abap_data::value::Value;
use abap_syntax::ast::ClassDef;

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
    db: Option<&SharedDb>,
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
    let db = db.map(SharedDb::for_run);
    // Whatever the run leaves uncommitted (a panic included) is rolled back.
    let _rollback = RollbackOnDrop(db.clone());
    let mut it = Interp::new(classes, BUILTIN_CLASSES, hook, &limits, db.as_ref());
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
    db: Option<&SharedDb>,
) -> Result<String, RunError> {
    let name = program.to_ascii_uppercase();
    let Some(def) = classes.get(&abap_syntax::parser::program_key(&name)) else {
        return Err(RunError::UnknownClass(name));
    };
    let db = db.map(SharedDb::for_run);
    // Whatever the run leaves uncommitted (a panic included) is rolled back.
    let _rollback = RollbackOnDrop(db.clone());
    let mut it = Interp::new(classes, BUILTIN_CLASSES, hook, &limits, db.as_ref());
    if let Some(v) = it.st.sy.iter_mut().find(|v| v.name == "REPID") {
        v.val = Value::C(format!("{name:<40}").into());
    }
    let result = it.report(def);
    it.end_of_program(result.is_ok());
    it.st.flush_line();
    let output = it.st.list_text();
    it.finish(result, output)
}

impl<'r> Interp<'r, '_> {
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

    pub(crate) fn report(&mut self, prog: &'r ClassDef) -> Exec<()> {
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

    pub(crate) fn classrun(&mut self, def: &'r ClassDef) -> Exec<()> {
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
}

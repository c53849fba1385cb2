//! The ABAP Unit runner: test classes `FOR TESTING` of one object, with `class_setup`,
//! `setup`, the test method, `teardown` and `class_teardown`, each failure as an alert.

use std::collections::BTreeMap;

use crate::interp::bound::Bound;
use crate::interp::{Exec, Interp, Unwind};
use abap_data::RunError;
use abap_data::debug::{DebugHook, ObjectKind, SourcePart};
use abap_data::unit::{TestStatus, UnitAlert, UnitClassResult, UnitMethodResult, UnitRunResult};
use abap_data::value::ObjId;
use abap_syntax::ast::ClassDef;
use abap_syntax::parser::{class_pool_program, program_key};

/// `FAILING_ASSERT` → `Failing_Assert` (as ABAP Unit titles name methods).
fn title_case(name: &str) -> String {
    name.split('_')
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f
                    .to_uppercase()
                    .chain(c.flat_map(char::to_lowercase))
                    .collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<String>>()
        .join("_")
}

fn part_order(p: SourcePart) -> u8 {
    match p {
        SourcePart::Main => 0,
        SourcePart::Definitions => 1,
        SourcePart::Implementations => 2,
        SourcePart::TestClasses => 3,
    }
}

#[expect(
    clippy::result_large_err,
    reason = "RunError is the crate's contract type; one per run"
)]
pub fn run(
    classes: &BTreeMap<String, ClassDef>,
    object: &str,
    kind: ObjectKind,
    method: Option<&str>,
    hook: &mut dyn DebugHook,
    limits: abap_data::Limits,
    db: Option<&crate::interp::database::SharedDb>,
) -> Result<UnitRunResult, RunError> {
    let program = match kind {
        ObjectKind::Program => object.to_string(),
        _ => class_pool_program(object),
    };
    let mut tests: Vec<&ClassDef> = classes
        .values()
        .filter(|c| c.for_testing && !c.is_abstract && c.program == program)
        // A test double (`FOR TESTING`, no test methods) runs nothing and is not reported.
        .filter(|c| c.methods.iter().any(|m| m.for_testing))
        .collect();
    tests.sort_by_key(|c| (part_order(c.def_part), c.def_line));
    // `M`, `C=>M` or `C=>` (every test method of class `C`).
    let (class_filter, method) = match method.map(|m| m.trim().to_ascii_uppercase()) {
        None => (None, None),
        Some(m) => match m.split_once("=>") {
            Some((c, m)) => (
                Some(c.trim().to_string()),
                Some(m.trim().to_string()).filter(|m| !m.is_empty()),
            ),
            None => (None, Some(m)),
        },
    };
    if let Some(c) = &class_filter {
        tests.retain(|t| t.name == *c);
    }
    let db = db.map(crate::interp::database::SharedDb::for_run);
    // Tests leave the database as they found it, however the run ends.
    let _rollback = crate::interp::database::RollbackOnDrop(db.clone());
    let mut it = Interp::new(
        classes,
        crate::interp::builtins::classes::BUILTIN_CLASSES,
        hook,
        &limits,
        db.as_ref(),
    );
    it.framework_handles_all = true;
    let mut result = UnitRunResult {
        object: object.to_string(),
        kind,
        classes: Vec::new(),
    };
    if let Some(prog) = classes.get(&program_key(&program)) {
        // Program globals exist before any test runs.
        if let Err(Unwind::Terminated) = it.ensure_statics(prog) {
            return Err(RunError::Terminated);
        }
    }
    for class in tests {
        let mut cr = UnitClassResult {
            name: class.name.clone(),
            line: class.def_line,
            risk_level: if class.risk_level.is_empty() {
                "harmless".into()
            } else {
                class.risk_level.clone()
            },
            duration: if class.duration.is_empty() {
                "short".into()
            } else {
                class.duration.clone()
            },
            alerts: Vec::new(),
            methods: Vec::new(),
        };
        let setup = it
            .ensure_statics(class)
            .and_then(|_| call_if_defined(&mut it, class, None, "CLASS_SETUP"));
        if let Err(e) = setup {
            if matches!(e, Unwind::Terminated) {
                return Err(RunError::Terminated);
            }
            cr.alerts.push(alert(&it, e, "CLASS_SETUP"));
            result.classes.push(cr);
            continue;
        }
        for m in class.methods.iter().filter(|m| m.for_testing) {
            if method.as_ref().is_some_and(|wanted| *wanted != m.name) {
                continue;
            }
            let line = class
                .implementation(&m.name)
                .map_or(m.line, |imp| imp.method_line);
            let mut alerts = Vec::new();
            let mut status = TestStatus::Passed;
            match it.create_object(class, None) {
                Ok(obj) => {
                    let r = call_if_defined(&mut it, class, Some(obj), "SETUP")
                        .and_then(|_| call_if_defined(&mut it, class, Some(obj), &m.name));
                    if let Err(e) = r {
                        if matches!(e, Unwind::Terminated) {
                            return Err(RunError::Terminated);
                        }
                        status = status_of(&e);
                        alerts.push(alert(&it, e, &m.name));
                    }
                    if let Err(e) = call_if_defined(&mut it, class, Some(obj), "TEARDOWN") {
                        if matches!(e, Unwind::Terminated) {
                            return Err(RunError::Terminated);
                        }
                        if status == TestStatus::Passed {
                            status = status_of(&e);
                        }
                        alerts.push(alert(&it, e, "TEARDOWN"));
                    }
                }
                Err(e) => {
                    if matches!(e, Unwind::Terminated) {
                        return Err(RunError::Terminated);
                    }
                    status = status_of(&e);
                    alerts.push(alert(&it, e, &m.name));
                }
            }
            cr.methods.push(UnitMethodResult {
                name: m.name.clone(),
                line,
                status,
                alerts,
            });
        }
        if let Err(e) = call_if_defined(&mut it, class, None, "CLASS_TEARDOWN") {
            if matches!(e, Unwind::Terminated) {
                return Err(RunError::Terminated);
            }
            cr.alerts.push(alert(&it, e, "CLASS_TEARDOWN"));
        }
        result.classes.push(cr);
    }
    Ok(result)
}

/// Calls `name` of the test class (own or inherited implementation) if there is one.
fn call_if_defined<'r>(
    it: &mut Interp<'r, '_>,
    class: &'r ClassDef,
    me: Option<ObjId>,
    name: &str,
) -> Exec<()> {
    match it.resolve_method(class, name) {
        Some((owner, m)) if owner.implementation(&m).is_some() => {
            it.invoke_impl_named(owner, me, &m, Bound::default())?;
            Ok(())
        }
        _ => Ok(()),
    }
}

fn status_of(e: &Unwind) -> TestStatus {
    match e {
        Unwind::Failure(_) => TestStatus::Failed,
        _ => TestStatus::Error,
    }
}

fn alert(it: &Interp<'_, '_>, e: Unwind, method: &str) -> UnitAlert {
    match e {
        Unwind::Failure(f) => UnitAlert {
            kind: "failedAssertion".into(),
            severity: "critical".into(),
            title: format!(
                "Critical Assertion Error: '{}: {}'",
                title_case(method),
                f.assertion
            ),
            details: f.details,
            location: f.location,
        },
        Unwind::Exception(obj) => {
            let class = it
                .st
                .object_class(obj)
                .and_then(|k| it.st.class_by_key(k))
                .map_or_else(|| "CX_ROOT".to_string(), |c| c.name.clone());
            let info = it.st.heap.get(obj).and_then(|o| o.exc.clone());
            UnitAlert {
                kind: "exception".into(),
                severity: "critical".into(),
                title: format!("Exception Error <{class}>"),
                details: vec![it.exception_text(obj)],
                location: info.and_then(|i| i.location),
            }
        }
        other => {
            let d = it.to_dump(other);
            UnitAlert {
                kind: "exception".into(),
                severity: "critical".into(),
                title: format!("Exception Error <{}>", d.id),
                details: vec![d.text],
                location: d.location,
            }
        }
    }
}

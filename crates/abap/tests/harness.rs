//! What the test modules share: the class a test's statements run in, running it, and the
//! one `DebugHook` (a closure called at every stop).

use abap::{DebugHook, NoDebugger, Repository, Resume, RunError, StopContext};

/// The class `ZCL_T`, which runs `main` as `IF_OO_ADT_CLASSRUN~MAIN`; `decl` goes into its
/// public section, `methods` (method implementations) after `main`.
pub fn class_source(decl: &str, main: &str, methods: &str) -> String {
    let decl = lines(decl);
    let methods = lines(methods);
    format!(
        r#"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
{decl}ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{main}
  ENDMETHOD.
{methods}ENDCLASS.
"#
    )
}

/// `text` as whole lines: nothing when empty (so the lines of `main` do not move).
fn lines(text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!("{text}\n")
    }
}

/// Loads `files` (abapGit names and sources), panicking when one does not load.
pub fn repo(files: &[(&str, &str)]) -> Repository {
    let mut r = Repository::new();
    for (name, text) in files {
        r.add_file(name, text)
            .unwrap_or_else(|e| panic!("{name} does not load: {e}"));
    }
    r
}

/// Runs the statements `main` in `ZCL_T`; returns what they wrote with `out->write( )`.
pub fn run(main: &str) -> Result<String, RunError> {
    run_class(&class_source("", main, ""))
}

/// Runs `ZCL_T` given as its whole source.
pub fn run_class(source: &str) -> Result<String, RunError> {
    repo(&[("zcl_t.clas.abap", source)]).run_classrun("ZCL_T", &mut NoDebugger)
}

/// Runs the report `ZR` given as its whole source.
pub fn run_report(source: &str) -> Result<String, RunError> {
    repo(&[("zr.prog.abap", source)]).run_report("ZR", &mut NoDebugger)
}

/// What the report `ZR` wrote, panicking when the run fails.
pub fn report(source: &str) -> String {
    run_report(source).unwrap_or_else(|e| panic!("run failed: {e:?}"))
}

/// The dump a run ended with: `(id, text)`.
pub fn dump(r: Result<String, RunError>) -> (String, String) {
    match r {
        Err(RunError::Dump { id, text, .. }) => (id, text),
        other => panic!("expected a dump, got {other:?}"),
    }
}

/// The test's debugger: calls the closure at every stop and resumes as it says.
pub struct OnStop<F: FnMut(&dyn StopContext) -> Resume>(pub F);

impl<F: FnMut(&dyn StopContext) -> Resume> DebugHook for OnStop<F> {
    fn before_statement(&mut self, ctx: &dyn StopContext) -> Resume {
        (self.0)(ctx)
    }
}

/// [`OnStop`] for a closure whose argument type is left to inference.
pub fn on_stop<F: FnMut(&dyn StopContext) -> Resume>(f: F) -> OnStop<F> {
    OnStop(f)
}

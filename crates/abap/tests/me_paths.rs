//! Debugger ids that reach an object's attributes through `ME->` (adt-wire.md §9.5).

use abap::{DebugHook, Repository, Resume, StopContext, VarRecord};

const CLASS: &str = "\
CLASS zcl_me_paths DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    DATA mv_name TYPE string VALUE `ACME`.
    DATA mv_count TYPE i.
    METHODS bump.
ENDCLASS.

CLASS zcl_me_paths IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    bump( ).
    out->write( |{ mv_name } { mv_count }| ).
  ENDMETHOD.
  METHOD bump.
    mv_count = mv_count + 1.
  ENDMETHOD.
ENDCLASS.
";

#[derive(Default)]
struct Probe {
    seen: Vec<VarRecord>,
}

impl DebugHook for Probe {
    fn before_statement(&mut self, ctx: &dyn StopContext) -> Resume {
        if ctx.location().event_name == "BUMP" && self.seen.is_empty() {
            self.seen = ctx.variables(
                0,
                &[
                    "ME->MV_NAME".into(),
                    "me->mv_count".into(),
                    "ME->NOPE".into(),
                ],
            );
        }
        Resume::Run
    }
}

#[test]
fn me_attribute_paths_resolve() {
    let mut repo = Repository::new();
    repo.add_file("zcl_me_paths.clas.abap", CLASS)
        .expect("loads");
    let mut probe = Probe::default();
    let out = repo.run_classrun("ZCL_ME_PATHS", &mut probe).expect("runs");
    assert_eq!(out.trim_end(), "ACME 1");
    let ids: Vec<(&str, &str)> = probe
        .seen
        .iter()
        .map(|r| (r.id.as_str(), r.value.as_str()))
        .collect();
    assert_eq!(ids, vec![("ME->MV_NAME", "ACME"), ("me->mv_count", "0 ")]);
}

//! Debugger ids that reach an object's attributes through `ME->` (adt-wire.md §9.5).

use abap::{Resume, VarRecord};

use crate::harness::{on_stop, repo};

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

#[test]
fn me_attribute_paths_resolve() {
    let mut seen: Vec<VarRecord> = Vec::new();
    let mut probe = on_stop(|ctx| {
        if ctx.location().event_name == "BUMP" && seen.is_empty() {
            seen = ctx.variables(
                0,
                &[
                    "ME->MV_NAME".into(),
                    "me->mv_count".into(),
                    "ME->NOPE".into(),
                ],
            );
        }
        Resume::Run
    });
    let out = repo(&[("zcl_me_paths.clas.abap", CLASS)])
        .run_classrun("ZCL_ME_PATHS", &mut probe)
        .expect("runs");
    assert_eq!(out.trim_end(), "ACME 1");
    let ids: Vec<(&str, &str)> = seen
        .iter()
        .map(|r| (r.id.as_str(), r.value.as_str()))
        .collect();
    assert_eq!(ids, vec![("ME->MV_NAME", "ACME"), ("me->mv_count", "0 ")]);
}

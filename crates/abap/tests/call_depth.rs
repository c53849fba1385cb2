//! Recursion as deep as real programs go: the limit is the memory of the active procedures
//! (`Limits::call_stack_bytes`, runtime error `STACK_STATE_NO_ROOF_SPACE`), and the
//! interpreter's own Rust stack grows in segments, so neither a deep nor an endless recursion
//! crashes the process. These tests run on the test harness's ordinary threads (2 MiB of
//! stack), far less than 10,000 call levels need.

use abap::{Limits, NoDebugger, RunError};

use crate::harness::{self, class_source, dump};

const RECURSIVE: &str = "    CLASS-DATA deepest TYPE i.
    CLASS-METHODS depth IMPORTING n TYPE i RETURNING VALUE(r) TYPE i.
    CLASS-METHODS endless IMPORTING n TYPE i.";

const METHODS: &str = "  METHOD depth.
    DATA lv_next TYPE i.
    IF n = 0.
      r = 0.
      RETURN.
    ENDIF.
    lv_next = n - 1.
    r = depth( lv_next ) + 1.
  ENDMETHOD.
  METHOD endless.
    deepest = n.
    endless( n + 1 ).
  ENDMETHOD.";

fn run(main: &str, limits: Limits) -> Result<String, RunError> {
    let src = class_source(RECURSIVE, main, METHODS);
    let mut r = harness::repo(&[("zcl_t.clas.abap", &src)]);
    r.set_limits(limits);
    r.run_classrun("ZCL_T", &mut NoDebugger)
}

#[test]
fn a_recursion_ten_thousand_deep_returns() {
    let out = run("    out->write( |{ depth( 10000 ) }| ).", Limits::default());
    assert_eq!(out.ok().as_deref(), Some("10000"));
}

#[test]
fn an_endless_recursion_ends_with_the_full_stack_runtime_error() {
    let (id, text) = dump(run(
        "    TRY.
        endless( 1 ).
      CATCH cx_root.
        out->write( `caught` ).
    ENDTRY.",
        Limits::default(),
    ));
    // Not catchable: a runtime error without an exception class.
    assert_eq!(id, "STACK_STATE_NO_ROOF_SPACE", "{text}");
    assert!(text.contains("procedures active"), "{text}");
}

#[test]
fn the_limit_is_the_memory_of_the_active_procedures() {
    // `main` and `endless` have one parameter each: 256 + 32 bytes a level.
    let limits = Limits {
        call_stack_bytes: 288 * 100,
        ..Limits::default()
    };
    let (id, text) = dump(run("    endless( 1 ).", limits));
    assert_eq!(id, "STACK_STATE_NO_ROOF_SPACE");
    // `main` and 99 levels of `endless` fit; the next call finds no room.
    assert!(text.contains("(100 procedures active)"), "{text}");
    // `depth` has a local besides its two parameters: 352 bytes a level.
    let out = run("    out->write( |{ depth( 80 ) }| ).", limits).ok();
    assert_eq!(out.as_deref(), Some("80"));
    let (id, _) = dump(run("    out->write( |{ depth( 81 ) }| ).", limits));
    assert_eq!(id, "STACK_STATE_NO_ROOF_SPACE");
}

//! Where exceptions go: ABAP finds the handler before it unwinds, so `CLEANUP` blocks run only
//! on the way to a handler, and a runtime error becomes an exception only when one is there.

use abap::{NoDebugger, Repository, RunError};

use crate::harness::run_class;

fn class(main: &str, methods: &str) -> String {
    format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
  PRIVATE SECTION.
    METHODS inner IMPORTING out TYPE REF TO if_oo_adt_classrun_out RAISING cx_static_check.
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{main}
  ENDMETHOD.
  METHOD inner.
{methods}
  ENDMETHOD.
ENDCLASS.
"
    )
}

fn run(main: &str, inner: &str) -> Result<String, RunError> {
    run_class(&class(main, inner))
}

/// The dump's id and the output written before it.
fn dump(r: Result<String, RunError>) -> (String, String) {
    match r {
        Err(RunError::Dump { id, output, .. }) => (id, output),
        other => panic!("expected a dump, got {other:?}"),
    }
}

const INNER_DIVIDES: &str = r"DATA lv_zero TYPE i.
TRY.
  out->write( `inner` ).
  lv_zero = 1 / lv_zero.
CLEANUP.
  out->write( `cleanup` ).
ENDTRY.";

#[test]
fn runtime_error_caught_further_out_runs_cleanup_on_the_way() {
    let out = run(
        r"TRY.
  inner( out ).
CATCH cx_sy_zerodivide INTO DATA(lx).
  out->write( lx->get_text( ) ).
ENDTRY.",
        INNER_DIVIDES,
    )
    .expect("runs");
    assert_eq!(
        out,
        r"inner
cleanup
Division by zero (type i)"
    );
}

#[test]
fn runtime_error_caught_by_a_superclass_handler_runs_cleanup() {
    let out = run(
        r"TRY.
  inner( out ).
CATCH cx_root.
  out->write( `root` ).
ENDTRY.",
        INNER_DIVIDES,
    )
    .expect("runs");
    assert_eq!(
        out,
        r"inner
cleanup
root"
    );
}

#[test]
fn runtime_error_nobody_catches_stays_a_runtime_error_without_cleanup() {
    let (id, output) = dump(run(
        r"TRY.
  inner( out ).
CATCH cx_sy_conversion_error.
  out->write( `wrong handler` ).
ENDTRY.",
        INNER_DIVIDES,
    ));
    assert_eq!(id, "COMPUTE_INT_ZERODIVIDE");
    assert_eq!(output, "inner");
}

#[test]
fn raised_exception_nobody_catches_runs_no_cleanup() {
    let (id, output) = dump(run(
        "inner( out ).",
        r"TRY.
  out->write( `inner` ).
  RAISE EXCEPTION TYPE cx_sy_zerodivide.
CLEANUP.
  out->write( `cleanup` ).
ENDTRY.",
    ));
    assert_eq!(id, "UNCAUGHT_EXCEPTION");
    assert_eq!(output, "inner");
}

#[test]
fn exception_raised_in_a_catch_block_is_not_caught_by_the_same_try() {
    let out = run(
        r"TRY.
  TRY.
    RAISE EXCEPTION TYPE cx_sy_zerodivide.
  CATCH cx_sy_zerodivide.
    out->write( `first` ).
    RAISE EXCEPTION TYPE cx_sy_zerodivide.
  ENDTRY.
CATCH cx_sy_arithmetic_error.
  out->write( `outer` ).
ENDTRY.",
        "",
    )
    .expect("runs");
    assert_eq!(out, "first\nouter");
}

#[test]
fn nested_cleanups_run_innermost_first() {
    let out = run(
        r"TRY.
  TRY.
    inner( out ).
  CLEANUP.
    out->write( `outer cleanup` ).
  ENDTRY.
CATCH cx_sy_arithmetic_error.
  out->write( `caught` ).
ENDTRY.",
        INNER_DIVIDES,
    )
    .expect("runs");
    assert_eq!(
        out,
        r"inner
cleanup
outer cleanup
caught"
    );
}

/// An exception class as the class builder generates it: the constructor types its parameters
/// `LIKE` inherited attributes (`textid LIKE textid`, `previous LIKE previous`).
#[test]
fn generated_exception_constructor_types_parameters_like_inherited_attributes() {
    let locals = "CLASS lcx_app DEFINITION INHERITING FROM cx_static_check.
  PUBLIC SECTION.
    DATA mv_detail TYPE string READ-ONLY.
    METHODS constructor
      IMPORTING
        textid    LIKE textid OPTIONAL
        previous  LIKE previous OPTIONAL
        mv_detail TYPE string OPTIONAL.
ENDCLASS.
CLASS lcx_app IMPLEMENTATION.
  METHOD constructor ##ADT_SUPPRESS_GENERATION.
    super->constructor( textid = textid previous = previous ).
    me->mv_detail = mv_detail.
  ENDMETHOD.
ENDCLASS.";
    let mut r = Repository::new();
    r.add_file(
        "zcl_t.clas.abap",
        &class(
            r"TRY.
  inner( out ).
CATCH lcx_app INTO DATA(lx).
  out->write( |{ lx->mv_detail } { lx->previous->get_text( ) }| ).
ENDTRY.",
            r"TRY.
  DATA(lv_zero) = 0.
  lv_zero = 1 / lv_zero.
CATCH cx_sy_zerodivide INTO DATA(lx_div).
  RAISE EXCEPTION NEW lcx_app( mv_detail = `wrapped` previous = lx_div ).
ENDTRY.",
        ),
    )
    .expect("loads");
    r.add_file("zcl_t.clas.locals_imp.abap", locals)
        .expect("loads");
    assert_eq!(
        r.run_classrun("ZCL_T", &mut NoDebugger).expect("runs"),
        "wrapped Division by zero (type i)"
    );
}

/// An exception class with messages as the class builder generates it: `IF_T100_MESSAGE`,
/// text-id constants of type `SCX_T100KEY`, the constructor's `textid LIKE
/// if_t100_message=>t100key`. Without message texts, `get_text( )` is `ID(NO)` and the values
/// of the attributes the key names, as `MESSAGE` shows a message without text.
#[test]
fn exception_class_with_t100_messages() {
    let zcx = "CLASS zcx_app DEFINITION PUBLIC INHERITING FROM cx_static_check FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_t100_message.
    CONSTANTS:
      BEGIN OF not_found,
        msgid TYPE symsgid VALUE 'ZAPP',
        msgno TYPE symsgno VALUE '001',
        attr1 TYPE scx_attrname VALUE 'MV_ID',
        attr2 TYPE scx_attrname VALUE 'MV_WHERE',
        attr3 TYPE scx_attrname VALUE '',
        attr4 TYPE scx_attrname VALUE '',
      END OF not_found.
    DATA mv_id TYPE string READ-ONLY.
    DATA mv_where TYPE c LENGTH 10 READ-ONLY.
    METHODS constructor
      IMPORTING
        !textid   LIKE if_t100_message=>t100key OPTIONAL
        !previous LIKE previous OPTIONAL
        !mv_id    TYPE string OPTIONAL
        !mv_where TYPE c OPTIONAL.
ENDCLASS.
CLASS zcx_app IMPLEMENTATION.
  METHOD constructor ##ADT_SUPPRESS_GENERATION.
    super->constructor( previous = previous ).
    me->mv_id = mv_id.
    me->mv_where = mv_where.
    CLEAR me->textid.
    IF textid IS INITIAL.
      if_t100_message~t100key = if_t100_message=>default_textid.
    ELSE.
      if_t100_message~t100key = textid.
    ENDIF.
  ENDMETHOD.
ENDCLASS.";
    let mut r = Repository::new();
    r.add_file("zcx_app.clas.abap", zcx).expect("loads");
    r.add_file(
        "zcl_t.clas.abap",
        &class(
            r"TRY.
  inner( out ).
CATCH zcx_app INTO DATA(lx).
  out->write( lx->get_text( ) ).
  out->write( lx->if_t100_message~t100key-msgno ).
ENDTRY.
TRY.
  RAISE EXCEPTION TYPE zcx_app.
CATCH zcx_app INTO lx.
  out->write( lx->get_text( ) ).
ENDTRY.",
            "RAISE EXCEPTION TYPE zcx_app EXPORTING textid = zcx_app=>not_found mv_id = `42` mv_where = 'shelf'.",
        ),
    )
    .expect("loads");
    assert_eq!(
        r.run_classrun("ZCL_T", &mut NoDebugger).expect("runs"),
        r"ZAPP(001) 42 shelf
001
SY(530)"
    );
}

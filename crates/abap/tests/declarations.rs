//! Declarations beyond plain DATA: STATICS, structured CONSTANTS, dictionary data elements.

use abap::{Resume, RunError};

use crate::harness::{class_source as class, on_stop, repo, run_class as run};

fn out(decl: &str, main: &str, methods: &str) -> String {
    match run(&class(decl, main, methods)) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn statics_keep_their_value_between_calls_and_instances() {
    let o = out(
        "    METHODS next RETURNING VALUE(rv) TYPE i.",
        r"DATA(lo_other) = NEW zcl_t( ).
out->write( next( ) ).
out->write( next( ) ).
out->write( lo_other->next( ) ).",
        r"  METHOD next.
    STATICS sv_count TYPE i VALUE 10.
    DATA lv_local TYPE i.
    sv_count = sv_count + 1.
    lv_local = lv_local + 1.
    rv = sv_count * 100 + lv_local.
  ENDMETHOD.",
    );
    assert_eq!(
        o,
        r"1101 
1201 
1301 "
    );
}

#[test]
fn statics_structure_keeps_its_components() {
    let o = out(
        "    METHODS count IMPORTING iv_text TYPE string RETURNING VALUE(rv) TYPE string.",
        "out->write( count( `a` ) ).\nout->write( count( `bc` ) ).",
        r"  METHOD count.
    STATICS: BEGIN OF ss_seen,
               calls TYPE i,
               chars TYPE i,
             END OF ss_seen.
    ss_seen-calls = ss_seen-calls + 1.
    ss_seen-chars = ss_seen-chars + strlen( iv_text ).
    rv = |{ ss_seen-calls }/{ ss_seen-chars }|.
  ENDMETHOD.",
    );
    assert_eq!(o, "1/1\n2/3");
}

#[test]
fn structured_constants_in_classes_methods_and_programs() {
    let o = out(
        r"    CONSTANTS: BEGIN OF c_status,
                 open   TYPE c LENGTH 1 VALUE 'O',
                 closed TYPE c LENGTH 1 VALUE 'C',
                 count  TYPE i VALUE 2,
               END OF c_status.",
        r"CONSTANTS: BEGIN OF lc_limits,
             low  TYPE i VALUE -5,
             high TYPE i VALUE 5,
           END OF lc_limits.
out->write( |{ c_status-open }{ c_status-closed }{ c_status-count }| ).
out->write( |{ zcl_t=>c_status-closed }| ).
out->write( |{ lc_limits-low } { lc_limits-high }| ).",
        "",
    );
    assert_eq!(
        o,
        r"OC2
C
-5 5"
    );

    let r = repo(&[(
        "zr.prog.abap",
        r"REPORT zr.
CONSTANTS: BEGIN OF gc_color,
             red  TYPE string VALUE `R`,
             blue TYPE string VALUE `B`,
           END OF gc_color.
START-OF-SELECTION.
  WRITE / |{ gc_color-red }{ gc_color-blue }|.
",
    )]);
    assert_eq!(
        r.run_report("ZR", &mut abap::NoDebugger).expect("runs"),
        "RB"
    );
}

#[test]
fn constants_cannot_be_changed() {
    let r = run(&class(
        r"    CONSTANTS: BEGIN OF c_s,
                 a TYPE i VALUE 1,
               END OF c_s.",
        "c_s-a = 2.",
        "",
    ));
    match r {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "MOVE_TO_LIT_NOTALLOWED_NODATA"),
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn nested_structure_constants_are_reported_not_silently_initial() {
    let r = run(&class(
        "",
        r"CONSTANTS: BEGIN OF lc_outer,
             BEGIN OF inner,
               a TYPE i VALUE 1,
             END OF inner,
           END OF lc_outer.
out->write( lc_outer-inner-a ).",
        "",
    ));
    match r {
        Err(RunError::Dump { id, text, .. }) => {
            assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
            assert!(text.contains("LC_OUTER"), "{text}");
        }
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn dictionary_data_elements() {
    let o = out(
        "",
        r"DATA lv_name TYPE char10 VALUE 'abcdefghijkl'.
DATA lv_rc TYPE syst_subrc.
DATA lv_user TYPE syuname.
DATA lv_flag TYPE boole_d VALUE 'X'.
lv_rc = 4.
lv_user = sy-uname.
out->write( |[{ lv_name }] { lv_rc } { lv_user } { lv_flag }| ).",
        "",
    );
    assert_eq!(o, "[abcdefghij] 4 DEVELOPER X");
}

#[test]
fn the_debugger_shows_the_type_name_a_variable_was_declared_with() {
    let src = class(
        r"    TYPES ty_amount TYPE p LENGTH 8 DECIMALS 2.
    DATA mv_total TYPE ty_amount.
    METHODS m IMPORTING iv_flag TYPE abap_bool.",
        r"DATA lv_amount TYPE ty_amount.
DATA lv_flag TYPE abap_bool.
DATA lv_rc TYPE syst_subrc.
DATA lv_name TYPE char10.
DATA lv_i TYPE i.
DATA lv_c TYPE c LENGTH 3.
out->write( lv_i ).",
        "  METHOD m.\n  ENDMETHOD.",
    );
    let ids = [
        "LV_AMOUNT",
        "LV_FLAG",
        "LV_RC",
        "LV_NAME",
        "LV_I",
        "LV_C",
        "ME->MV_TOTAL",
    ]
    .map(String::from);
    // The declared type names of the variables at the first `out->write( )`.
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut hook = on_stop(|ctx| {
        if seen.is_empty() && ctx.statement() == "CALL METHOD" {
            seen = ctx
                .variables(0, &ids)
                .into_iter()
                .map(|r| (r.id, r.declared_type_name))
                .collect();
        }
        Resume::Run
    });
    repo(&[("zcl_t.clas.abap", &src)])
        .run_classrun("ZCL_T", &mut hook)
        .expect("runs");
    let names: Vec<&str> = seen.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "TY_AMOUNT",
            "ABAP_BOOL",
            "SYST_SUBRC",
            "CHAR10",
            "I",
            "C",
            "TY_AMOUNT"
        ]
    );
}

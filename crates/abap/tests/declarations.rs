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
        "DATA(lo_other) = NEW zcl_t( ).\nout->write( next( ) ).\nout->write( next( ) ).\nout->write( lo_other->next( ) ).",
        "  METHOD next.\n    STATICS sv_count TYPE i VALUE 10.\n    DATA lv_local TYPE i.\n    sv_count = sv_count + 1.\n    lv_local = lv_local + 1.\n    rv = sv_count * 100 + lv_local.\n  ENDMETHOD.",
    );
    assert_eq!(o, "1101 \n1201 \n1301 ");
}

#[test]
fn statics_structure_keeps_its_components() {
    let o = out(
        "    METHODS count IMPORTING iv_text TYPE string RETURNING VALUE(rv) TYPE string.",
        "out->write( count( `a` ) ).\nout->write( count( `bc` ) ).",
        "  METHOD count.\n    STATICS: BEGIN OF ss_seen,\n               calls TYPE i,\n               chars TYPE i,\n             END OF ss_seen.\n    ss_seen-calls = ss_seen-calls + 1.\n    ss_seen-chars = ss_seen-chars + strlen( iv_text ).\n    rv = |{ ss_seen-calls }/{ ss_seen-chars }|.\n  ENDMETHOD.",
    );
    assert_eq!(o, "1/1\n2/3");
}

#[test]
fn structured_constants_in_classes_methods_and_programs() {
    let o = out(
        "    CONSTANTS: BEGIN OF c_status,\n                 open   TYPE c LENGTH 1 VALUE 'O',\n                 closed TYPE c LENGTH 1 VALUE 'C',\n                 count  TYPE i VALUE 2,\n               END OF c_status.",
        "CONSTANTS: BEGIN OF lc_limits,\n             low  TYPE i VALUE -5,\n             high TYPE i VALUE 5,\n           END OF lc_limits.\nout->write( |{ c_status-open }{ c_status-closed }{ c_status-count }| ).\nout->write( |{ zcl_t=>c_status-closed }| ).\nout->write( |{ lc_limits-low } { lc_limits-high }| ).",
        "",
    );
    assert_eq!(o, "OC2\nC\n-5 5");

    let r = repo(&[(
        "zr.prog.abap",
        "REPORT zr.\nCONSTANTS: BEGIN OF gc_color,\n             red  TYPE string VALUE `R`,\n             blue TYPE string VALUE `B`,\n           END OF gc_color.\nSTART-OF-SELECTION.\n  WRITE / |{ gc_color-red }{ gc_color-blue }|.\n",
    )]);
    assert_eq!(
        r.run_report("ZR", &mut abap::NoDebugger).expect("runs"),
        "RB"
    );
}

#[test]
fn constants_cannot_be_changed() {
    let r = run(&class(
        "    CONSTANTS: BEGIN OF c_s,\n                 a TYPE i VALUE 1,\n               END OF c_s.",
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
        "CONSTANTS: BEGIN OF lc_outer,\n             BEGIN OF inner,\n               a TYPE i VALUE 1,\n             END OF inner,\n           END OF lc_outer.\nout->write( lc_outer-inner-a ).",
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
        "DATA lv_name TYPE char10 VALUE 'abcdefghijkl'.\nDATA lv_rc TYPE syst_subrc.\nDATA lv_user TYPE syuname.\nDATA lv_flag TYPE boole_d VALUE 'X'.\nlv_rc = 4.\nlv_user = sy-uname.\nout->write( |[{ lv_name }] { lv_rc } { lv_user } { lv_flag }| ).",
        "",
    );
    assert_eq!(o, "[abcdefghij] 4 DEVELOPER X");
}

#[test]
fn the_debugger_shows_the_type_name_a_variable_was_declared_with() {
    let src = class(
        "    TYPES ty_amount TYPE p LENGTH 8 DECIMALS 2.\n    DATA mv_total TYPE ty_amount.\n    METHODS m IMPORTING iv_flag TYPE abap_bool.",
        "DATA lv_amount TYPE ty_amount.\nDATA lv_flag TYPE abap_bool.\nDATA lv_rc TYPE syst_subrc.\nDATA lv_name TYPE char10.\nDATA lv_i TYPE i.\nDATA lv_c TYPE c LENGTH 3.\nout->write( lv_i ).",
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

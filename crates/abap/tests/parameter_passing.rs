//! How actual parameters reach a procedure: by reference (the formal parameter is the actual
//! data object, changes are visible at once) or by value (a copy, written back at the end for
//! CHANGING/EXPORTING), and generic typing that takes the actual's length and decimals.

use abap::{NoDebugger, Repository};

fn report(src: &str) -> String {
    let mut r = Repository::new();
    r.add_file("zr.prog.abap", src).expect("loads");
    match r.run_report("ZR", &mut NoDebugger) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

fn classrun(decl: &str, main: &str, methods: &str) -> String {
    let src = format!(
        "CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.\n  PUBLIC SECTION.\n    INTERFACES if_oo_adt_classrun.\n  PRIVATE SECTION.\n{decl}\nENDCLASS.\n\nCLASS zcl_t IMPLEMENTATION.\n  METHOD if_oo_adt_classrun~main.\n{main}\n  ENDMETHOD.\n{methods}\nENDCLASS.\n"
    );
    let mut r = Repository::new();
    r.add_file("zcl_t.clas.abap", &src).expect("loads");
    match r.run_classrun("ZCL_T", &mut NoDebugger) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn form_changing_by_reference_changes_the_actual_at_once() {
    let out = report(
        "REPORT zr.\nDATA gv TYPE i VALUE 1.\nSTART-OF-SELECTION.\n  PERFORM add CHANGING gv.\n  WRITE / gv.\nFORM add CHANGING cv TYPE i.\n  cv = cv + 5.\n  WRITE / gv.\nENDFORM.\n",
    );
    assert_eq!(out, "         6\n         6");
}

#[test]
fn form_changing_value_writes_back_at_the_end() {
    let out = report(
        "REPORT zr.\nDATA gv TYPE i VALUE 1.\nSTART-OF-SELECTION.\n  PERFORM add CHANGING gv.\n  WRITE / gv.\nFORM add CHANGING VALUE(cv) TYPE i.\n  cv = cv + 5.\n  WRITE / gv.\nENDFORM.\n",
    );
    assert_eq!(out, "         1\n         6");
}

#[test]
fn form_using_by_reference_is_the_actual_too() {
    let out = report(
        "REPORT zr.\nDATA gv TYPE i VALUE 1.\nSTART-OF-SELECTION.\n  PERFORM add USING gv.\n  WRITE / gv.\nFORM add USING uv TYPE i.\n  uv = 9.\nENDFORM.\n",
    );
    assert_eq!(out, "         9");
}

#[test]
fn nested_forms_pass_the_same_data_object_down() {
    let out = report(
        "REPORT zr.\nDATA gv TYPE i.\nSTART-OF-SELECTION.\n  PERFORM outer CHANGING gv.\n  WRITE / gv.\nFORM outer CHANGING cv TYPE i.\n  PERFORM inner CHANGING cv.\n  WRITE / gv.\nENDFORM.\nFORM inner CHANGING cv2 TYPE i.\n  cv2 = 3.\n  WRITE / gv.\nENDFORM.\n",
    );
    assert_eq!(out, "         3\n         3\n         3");
}

#[test]
fn method_changing_by_reference_changes_an_attribute_at_once() {
    let out = classrun(
        "DATA mv TYPE i.\nDATA mv_seen TYPE i.\nMETHODS change CHANGING cv TYPE i.\nMETHODS change_copy CHANGING VALUE(cv) TYPE i.",
        "mv = 2.\nchange( CHANGING cv = mv ).\nout->write( mv_seen ).\nchange_copy( CHANGING cv = mv ).\nout->write( mv_seen ).\nout->write( mv ).",
        "METHOD change.\n  cv = 10.\n  mv_seen = mv.\nENDMETHOD.\nMETHOD change_copy.\n  cv = 20.\n  mv_seen = mv.\nENDMETHOD.",
    );
    assert_eq!(out, "10 \n10 \n20 ");
}

#[test]
fn method_exporting_by_reference_starts_with_the_actual_value() {
    let out = classrun(
        "METHODS get EXPORTING ev TYPE i er TYPE string.\nMETHODS get_value EXPORTING VALUE(ev) TYPE i.",
        "DATA lv TYPE i VALUE 7.\nDATA lv_seen TYPE string.\nget( IMPORTING ev = lv er = lv_seen ).\nout->write( lv_seen ).\nout->write( lv ).\nlv = 7.\nget_value( IMPORTING ev = lv ).\nout->write( lv ).",
        "METHOD get.\n  er = |at start { ev }|.\n  ev = ev + 1.\nENDMETHOD.\nMETHOD get_value.\n  ev = ev + 1.\nENDMETHOD.",
    );
    assert_eq!(out, "at start 7\n8 \n1 ");
}

#[test]
fn generic_parameters_take_length_and_decimals_of_the_actual() {
    let out = report(
        "REPORT zr.\nDATA gv_amount TYPE p LENGTH 6 DECIMALS 2 VALUE '8.50'.\nSTART-OF-SELECTION.\n  PERFORM show USING 'abc' gv_amount.\nFORM show USING iv_text TYPE c iv_num TYPE p.\n  WRITE / |{ strlen( iv_text ) } { iv_num }|.\nENDFORM.\n",
    );
    assert_eq!(out, "3 8.50");
}

/// `IMPORTING p = DATA(x)` and `RECEIVING r = DATA(x)` declare `x` with the type of the formal
/// parameter, in functional calls and in `CALL METHOD`.
#[test]
fn inline_declarations_take_the_type_of_the_formal_parameter() {
    let out = classrun(
        "    TYPES ty_code TYPE c LENGTH 3.\n    METHODS parts IMPORTING iv TYPE string EXPORTING ev_head TYPE ty_code ev_len TYPE i.\n    METHODS code RETURNING VALUE(rv) TYPE ty_code.",
        "    parts( EXPORTING iv = `abcdef` IMPORTING ev_head = DATA(lv_head) ev_len = DATA(lv_len) ).\n    CALL METHOD code RECEIVING rv = DATA(lv_code).\n    out->write( lv_code ).\n    lv_code = 'XYZW'.\n    lv_len = lv_len / 4.\n    out->write( |{ lv_head }/{ lv_len }/{ lv_code }| ).",
        "  METHOD parts.\n    ev_head = iv.\n    ev_len = strlen( iv ).\n  ENDMETHOD.\n  METHOD code.\n    rv = 'A'.\n  ENDMETHOD.",
    );
    // c LENGTH 3 cuts `XYZW`; i rounds 6 / 4.
    assert_eq!(out, "A\nabc/2/XYZ");
}

//! How actual parameters reach a procedure: by reference (the formal parameter is the actual
//! data object, changes are visible at once) or by value (a copy, written back at the end for
//! CHANGING/EXPORTING), and generic typing that takes the actual's length and decimals.

use crate::harness::{report, run_class};

fn classrun(decl: &str, main: &str, methods: &str) -> String {
    let src = format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
  PRIVATE SECTION.
{decl}
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{main}
  ENDMETHOD.
{methods}
ENDCLASS.
"
    );
    run_class(&src).unwrap_or_else(|e| panic!("run failed: {e:?}"))
}

#[test]
fn form_changing_by_reference_changes_the_actual_at_once() {
    let out = report(
        r"REPORT zr.
DATA gv TYPE i VALUE 1.
START-OF-SELECTION.
  PERFORM add CHANGING gv.
  WRITE / gv.
FORM add CHANGING cv TYPE i.
  cv = cv + 5.
  WRITE / gv.
ENDFORM.
",
    );
    assert_eq!(out, "         6\n         6");
}

#[test]
fn form_changing_value_writes_back_at_the_end() {
    let out = report(
        r"REPORT zr.
DATA gv TYPE i VALUE 1.
START-OF-SELECTION.
  PERFORM add CHANGING gv.
  WRITE / gv.
FORM add CHANGING VALUE(cv) TYPE i.
  cv = cv + 5.
  WRITE / gv.
ENDFORM.
",
    );
    assert_eq!(out, "         1\n         6");
}

#[test]
fn form_using_by_reference_is_the_actual_too() {
    let out = report(
        r"REPORT zr.
DATA gv TYPE i VALUE 1.
START-OF-SELECTION.
  PERFORM add USING gv.
  WRITE / gv.
FORM add USING uv TYPE i.
  uv = 9.
ENDFORM.
",
    );
    assert_eq!(out, "         9");
}

#[test]
fn nested_forms_pass_the_same_data_object_down() {
    let out = report(
        r"REPORT zr.
DATA gv TYPE i.
START-OF-SELECTION.
  PERFORM outer CHANGING gv.
  WRITE / gv.
FORM outer CHANGING cv TYPE i.
  PERFORM inner CHANGING cv.
  WRITE / gv.
ENDFORM.
FORM inner CHANGING cv2 TYPE i.
  cv2 = 3.
  WRITE / gv.
ENDFORM.
",
    );
    assert_eq!(
        out,
        r"         3
         3
         3"
    );
}

#[test]
fn method_changing_by_reference_changes_an_attribute_at_once() {
    let out = classrun(
        r"DATA mv TYPE i.
DATA mv_seen TYPE i.
METHODS change CHANGING cv TYPE i.
METHODS change_copy CHANGING VALUE(cv) TYPE i.",
        r"mv = 2.
change( CHANGING cv = mv ).
out->write( mv_seen ).
change_copy( CHANGING cv = mv ).
out->write( mv_seen ).
out->write( mv ).",
        r"METHOD change.
  cv = 10.
  mv_seen = mv.
ENDMETHOD.
METHOD change_copy.
  cv = 20.
  mv_seen = mv.
ENDMETHOD.",
    );
    assert_eq!(
        out,
        r"10 
10 
20 "
    );
}

#[test]
fn method_exporting_by_reference_starts_with_the_actual_value() {
    let out = classrun(
        "METHODS get EXPORTING ev TYPE i er TYPE string.\nMETHODS get_value EXPORTING VALUE(ev) TYPE i.",
        r"DATA lv TYPE i VALUE 7.
DATA lv_seen TYPE string.
get( IMPORTING ev = lv er = lv_seen ).
out->write( lv_seen ).
out->write( lv ).
lv = 7.
get_value( IMPORTING ev = lv ).
out->write( lv ).",
        r"METHOD get.
  er = |at start { ev }|.
  ev = ev + 1.
ENDMETHOD.
METHOD get_value.
  ev = ev + 1.
ENDMETHOD.",
    );
    assert_eq!(
        out,
        r"at start 7
8 
1 "
    );
}

#[test]
fn generic_parameters_take_length_and_decimals_of_the_actual() {
    let out = report(
        r"REPORT zr.
DATA gv_amount TYPE p LENGTH 6 DECIMALS 2 VALUE '8.50'.
START-OF-SELECTION.
  PERFORM show USING 'abc' gv_amount.
FORM show USING iv_text TYPE c iv_num TYPE p.
  WRITE / |{ strlen( iv_text ) } { iv_num }|.
ENDFORM.
",
    );
    assert_eq!(out, "3 8.50");
}

/// `IMPORTING p = DATA(x)` and `RECEIVING r = DATA(x)` declare `x` with the type of the formal
/// parameter, in functional calls and in `CALL METHOD`.
#[test]
fn inline_declarations_take_the_type_of_the_formal_parameter() {
    let out = classrun(
        r"    TYPES ty_code TYPE c LENGTH 3.
    METHODS parts IMPORTING iv TYPE string EXPORTING ev_head TYPE ty_code ev_len TYPE i.
    METHODS code RETURNING VALUE(rv) TYPE ty_code.",
        r"    parts( EXPORTING iv = `abcdef` IMPORTING ev_head = DATA(lv_head) ev_len = DATA(lv_len) ).
    CALL METHOD code RECEIVING rv = DATA(lv_code).
    out->write( lv_code ).
    lv_code = 'XYZW'.
    lv_len = lv_len / 4.
    out->write( |{ lv_head }/{ lv_len }/{ lv_code }| ).",
        r"  METHOD parts.
    ev_head = iv.
    ev_len = strlen( iv ).
  ENDMETHOD.
  METHOD code.
    rv = 'A'.
  ENDMETHOD.",
    );
    // c LENGTH 3 cuts `XYZW`; i rounds 6 / 4.
    assert_eq!(out, "A\nabc/2/XYZ");
}

#[test]
fn many_locals_beside_a_big_table_parameter_keep_their_values() {
    // Each local's type and start value may name the locals before it (`LIKE`, `VALUE k`).
    let mut locals = String::new();
    let mut sums = String::new();
    for i in 0..150 {
        locals.push_str(&format!(
            "  CONSTANTS k{i} TYPE i VALUE {i}.\n  DATA v{i} TYPE i VALUE k{i}.\n  DATA w{i} LIKE v{i} VALUE k{i}.\n"
        ));
        sums.push_str(&format!("  total = total + v{i} + w{i}.\n"));
    }
    let o = report(&format!(
        "REPORT zr.
TYPES tt TYPE STANDARD TABLE OF i WITH EMPTY KEY.
DATA big TYPE tt.
START-OF-SELECTION.
  DO 5000 TIMES.
    APPEND sy-index TO big.
  ENDDO.
  PERFORM f USING big.
  PERFORM f USING big.
FORM f USING tab TYPE tt.
  DATA total TYPE i.
{locals}  STATICS calls TYPE i VALUE k1.
  DATA row TYPE i.
  calls = calls + 1.
{sums}  READ TABLE tab INTO row INDEX 4999.
  WRITE / |{{ calls }} {{ total }} {{ row }} {{ lines( tab ) }}|.
ENDFORM."
    ));
    // total: twice 0 + 1 + … + 149 = 2 * 11175.
    assert_eq!(o, "2 22350 4999 5000\n3 22350 4999 5000");
}

//! Field symbols and data references to a row of an internal table point to the row itself:
//! they follow it when rows are inserted before it, deleted before it, or sorted; when the
//! row is deleted (or the table replaced) the field symbol is no longer assigned and the data
//! reference is invalid.

use abap::{NoDebugger, Repository, RunError};

use crate::harness::{repo, run_class};

fn run(main: &str) -> Result<String, RunError> {
    let src = format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    TYPES: BEGIN OF ty_row, k TYPE i, t TYPE string, END OF ty_row,
           tt_rows TYPE STANDARD TABLE OF ty_row WITH EMPTY KEY,
           tt_sorted TYPE SORTED TABLE OF ty_row WITH UNIQUE KEY k,
           tt_refs TYPE STANDARD TABLE OF REF TO ty_row WITH EMPTY KEY.
    DATA mr_row TYPE REF TO ty_row.
    CLASS-DATA gr_row TYPE REF TO ty_row.
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    DATA(lt) = VALUE tt_rows( ( k = 10 t = `a` ) ( k = 20 t = `b` ) ( k = 30 t = `c` ) ).
{main}
  ENDMETHOD.
ENDCLASS.
"
    );
    run_class(&src)
}

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn field_symbols_follow_their_row() {
    assert_eq!(
        out("    READ TABLE lt ASSIGNING FIELD-SYMBOL(<b>) INDEX 2.
    ASSIGN lt[ 3 ]-t TO FIELD-SYMBOL(<c_text>).
    INSERT VALUE #( k = 0 t = `new` ) INTO lt INDEX 1.
    out->write( |{ <b>-t } { <c_text> }| ).
    DELETE lt INDEX 1.
    DELETE lt WHERE k = 10.
    out->write( |{ <b>-t } { <c_text> }| ).
    SORT lt BY k DESCENDING.
    <b>-t = `B`.
    out->write( |{ <b>-t } { <c_text> } { lt[ 2 ]-t }| )."),
        r"b c
b c
B c B"
    );
}

#[test]
fn a_field_symbol_to_a_deleted_row_is_no_longer_assigned() {
    assert_eq!(
        out("    ASSIGN lt[ 2 ] TO FIELD-SYMBOL(<b>).
    ASSIGN lt[ 3 ] TO FIELD-SYMBOL(<c>).
    DELETE lt INDEX 2.
    out->write( |{ xsdbool( <b> IS ASSIGNED ) }/{ xsdbool( <c> IS ASSIGNED ) } { <c>-t }| ).
    CLEAR lt.
    out->write( |{ xsdbool( <c> IS ASSIGNED ) }| )."),
        "/X c\n"
    );
}

#[test]
fn data_references_follow_their_row_and_become_invalid_with_it() {
    assert_eq!(
        out("    DATA(lr_b) = REF #( lt[ 2 ] ).
    DATA lt_refs TYPE STANDARD TABLE OF REF TO ty_row WITH EMPTY KEY.
    APPEND REF #( lt[ 3 ] ) TO lt_refs.
    LOOP AT lt REFERENCE INTO DATA(lr_a) WHERE k = 10.
    ENDLOOP.
    SORT lt BY k DESCENDING.
    READ TABLE lt_refs INTO DATA(lr_c) INDEX 1.
    out->write( |{ lr_b->t } { lr_c->t } { lr_a->t }| ).
    DELETE lt WHERE k = 20.
    READ TABLE lt_refs INTO lr_c INDEX 1.
    out->write( |{ xsdbool( lr_b IS BOUND ) } { lr_c->t } { lr_a->t }| ).
    lt = VALUE #( ( k = 1 t = `x` ) ).
    READ TABLE lt_refs INTO lr_c INDEX 1.
    out->write( |{ xsdbool( lr_a IS BOUND ) }{ xsdbool( lr_c IS BOUND ) }| )."),
        r"b c a
 c a
"
    );
    match run(r"    DATA(lr) = REF #( lt[ 1 ] ).
    DELETE lt INDEX 1.
    out->write( lr->t ).")
    {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "DATREF_NOT_ASSIGNED"),
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn inserts_by_key_and_collect_move_the_rows_after_them() {
    assert_eq!(
        out(
            "    DATA(ls) = VALUE tt_sorted( ( k = 10 t = `a` ) ( k = 30 t = `c` ) ).
    ASSIGN ls[ k = 30 ] TO FIELD-SYMBOL(<c>).
    INSERT VALUE #( k = 20 t = `b` ) INTO TABLE ls.
    COLLECT VALUE ty_row( k = 5 t = `z` ) INTO ls.
    INSERT LINES OF VALUE tt_rows( ( k = 25 t = `y` ) ) INTO TABLE ls.
    out->write( |{ <c>-t } { line_index( ls[ k = 30 ] ) }| )."
        ),
        "c 5"
    );
}

#[test]
fn data_references_follow_inserts_and_deletes_before_their_row() {
    assert_eq!(
        out("    GET REFERENCE OF lt[ 2 ] INTO DATA(lr_b).
    READ TABLE lt REFERENCE INTO DATA(lr_c) INDEX 3.
    DATA(lr_c_text) = REF #( lt[ 3 ]-t ).
    INSERT VALUE #( k = 0 t = `new` ) INTO lt INDEX 1.
    INSERT LINES OF VALUE tt_rows( ( k = 1 t = `x` ) ( k = 2 t = `y` ) ) INTO lt INDEX 2.
    out->write( |{ lr_b->t } { lr_c->k } { lr_c_text->* } { lines( lt ) }| ).
    DELETE lt FROM 1 TO 3.
    DELETE lt INDEX 1.
    lr_c_text->* = `C`.
    out->write( |{ lr_b->t } { lr_c->t } { lt[ 2 ]-t }| )."),
        "b 30 c 6\nb C C"
    );
}

#[test]
fn rows_appended_or_inserted_with_assigning_follow_later_moves() {
    assert_eq!(
        out(
            "    APPEND VALUE #( k = 40 t = `d` ) TO lt ASSIGNING FIELD-SYMBOL(<d>).
    INSERT VALUE #( k = 5 t = `e` ) INTO lt INDEX 1 REFERENCE INTO DATA(lr_e).
    SORT lt BY k DESCENDING.
    out->write( |{ <d>-t } { lr_e->t } { lt[ 1 ]-t } { lt[ 5 ]-t }| ).
    MODIFY lt FROM VALUE #( k = 30 t = `d` ) INDEX 2.
    DELETE ADJACENT DUPLICATES FROM lt COMPARING t.
    <d>-t = `D`.
    lr_e->t = `E`.
    out->write( |{ lt[ 1 ]-t } { lt[ 4 ]-t } { lines( lt ) }| )."
        ),
        "d e d e\nD E 4"
    );
}

#[test]
fn the_loop_field_symbol_of_a_deleted_row_is_unassigned_and_the_loop_goes_on() {
    assert_eq!(
        out("    DATA lv_seen TYPE string.
    LOOP AT lt ASSIGNING FIELD-SYMBOL(<r>).
      lv_seen = |{ lv_seen }{ <r>-t }{ sy-tabix }|.
      IF <r>-k = 20.
        DELETE lt.
        lv_seen = |{ lv_seen }-{ xsdbool( <r> IS ASSIGNED ) }-|.
      ENDIF.
    ENDLOOP.
    out->write( |{ lv_seen } { lines( lt ) } { xsdbool( <r> IS ASSIGNED ) }| )."),
        "a1b2--c2 2 X"
    );
}

#[test]
fn references_in_attributes_tables_and_anonymous_objects_follow_and_lose_rows() {
    assert_eq!(
        out("    DATA lt_refs TYPE tt_refs.
    lt_refs = VALUE #( ( REF #( lt[ 1 ] ) ) ( REF #( lt[ 3 ] ) ) ).
    DATA(lr_anon) = NEW tt_refs( lt_refs ).
    mr_row = REF #( lt[ 2 ] ).
    gr_row = REF #( lt[ 3 ]-t ).
    INSERT VALUE #( k = 0 t = `z` ) INTO lt INDEX 1.
    DATA(lr_1) = lt_refs[ 1 ].
    DATA(lr_2) = lt_refs[ 2 ].
    ASSIGN lr_anon->* TO FIELD-SYMBOL(<anon>).
    DATA(lr_a2) = <anon>[ 2 ].
    out->write( |{ lr_1->t } { lr_2->t } { lr_a2->t } { mr_row->t } { gr_row->* }| ).
    DELETE lt WHERE k = 10.
    lr_1 = lt_refs[ 1 ].
    lr_2 = lt_refs[ 2 ].
    DATA(lr_a1) = <anon>[ 1 ].
    out->write( |{ xsdbool( lr_1 IS BOUND ) } { lr_2->t } { xsdbool( lr_a1 IS BOUND ) } { mr_row->t }| ).
    REFRESH lt.
    lr_2 = lt_refs[ 2 ].
    lr_a2 = <anon>[ 2 ].
    out->write( |{ xsdbool( lr_2 IS BOUND ) }{ xsdbool( lr_a2 IS BOUND ) }{ xsdbool( mr_row IS BOUND ) }{ xsdbool( gr_row IS BOUND ) }| )."),
        r"a c c b c
 c  b
"
    );
}

#[test]
fn rows_of_inner_tables_follow_when_the_outer_row_moves() {
    assert_eq!(
        out(
            "    TYPES: BEGIN OF ty_outer, name TYPE string, rows TYPE tt_rows, END OF ty_outer.
    DATA lt_outer TYPE STANDARD TABLE OF ty_outer WITH EMPTY KEY.
    lt_outer = VALUE #( ( name = `one` rows = lt ) ( name = `two` rows = lt ) ).
    ASSIGN lt_outer[ 2 ] TO FIELD-SYMBOL(<two>).
    ASSIGN <two>-rows[ 3 ] TO FIELD-SYMBOL(<inner>).
    DATA(lr_inner) = REF #( <two>-rows[ 2 ] ).
    DELETE lt_outer INDEX 1.
    ASSIGN <two>-rows TO FIELD-SYMBOL(<rows>).
    DELETE <rows> INDEX 1.
    <inner>-t = `C`.
    out->write( |{ lr_inner->t } { <rows>[ 2 ]-t } { <two>-name }| ).
    CLEAR <rows>.
    out->write( |{ xsdbool( <inner> IS ASSIGNED ) }{ xsdbool( lr_inner IS BOUND ) }| )."
        ),
        "b C two\n"
    );
}

#[test]
fn split_into_a_table_and_free_replace_its_rows() {
    assert_eq!(
        out("    DATA lt_words TYPE STANDARD TABLE OF string WITH EMPTY KEY.
    SPLIT `a b c` AT ` ` INTO TABLE lt_words.
    ASSIGN lt_words[ 2 ] TO FIELD-SYMBOL(<w>).
    DATA(lr_w) = REF #( lt_words[ 3 ] ).
    SPLIT `x y` AT ` ` INTO TABLE lt_words.
    out->write( |{ xsdbool( <w> IS ASSIGNED ) }{ xsdbool( lr_w IS BOUND ) } { lines( lt_words ) }| ).
    ASSIGN lt[ 1 ] TO FIELD-SYMBOL(<a>).
    FREE lt.
    out->write( |{ xsdbool( <a> IS ASSIGNED ) }| )."),
        " 2\n"
    );
}

#[test]
fn a_loop_goes_on_after_its_current_row_when_rows_are_inserted_before_it() {
    assert_eq!(
        out("    DATA lv_seen TYPE string.
    LOOP AT lt REFERENCE INTO DATA(lr).
      lv_seen = |{ lv_seen }{ lr->t }{ sy-tabix }|.
      IF lr->k = 20.
        INSERT VALUE #( k = 1 t = `x` ) INTO lt INDEX 1.
        DELETE lt INDEX 2.
        lv_seen = |{ lv_seen }({ lr->t })|.
      ENDIF.
    ENDLOOP.
    out->write( |{ lv_seen } { lines( lt ) } { xsdbool( lr IS BOUND ) }| )."),
        "a1b2(b)c3 3 X"
    );
}

#[test]
fn using_a_field_symbol_or_reference_to_a_deleted_row_is_a_runtime_error() {
    match run(r"    ASSIGN lt[ 1 ] TO FIELD-SYMBOL(<a>).
    DELETE lt INDEX 1.
    out->write( <a>-t ).")
    {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "GETWA_NOT_ASSIGNED"),
        other => panic!("expected a dump, got {other:?}"),
    }
    match run(r"    DATA(lr) = REF #( lt[ 3 ]-t ).
    CLEAR lt.
    out->write( lr->* ).")
    {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "DATREF_NOT_ASSIGNED"),
        other => panic!("expected a dump, got {other:?}"),
    }
}

/// Runs `ZCL_U` given as its whole source.
fn run_zcl_u(src: &str) -> Result<String, RunError> {
    repo(&[("zcl_u.clas.abap", src)]).run_classrun("ZCL_U", &mut NoDebugger)
}

const CALLEE_CLASS: &str = "CLASS zcl_u DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    TYPES: BEGIN OF ty_row, k TYPE i, t TYPE string, END OF ty_row,
           tt_rows TYPE STANDARD TABLE OF ty_row WITH EMPTY KEY.
    DATA mt TYPE tt_rows.
    METHODS drop_first CHANGING ct TYPE tt_rows.
    METHODS touch CHANGING cs TYPE ty_row.
ENDCLASS.

CLASS zcl_u IMPLEMENTATION.
  METHOD drop_first.
    DELETE ct INDEX 1.
  ENDMETHOD.
  METHOD touch.
    DELETE mt INDEX 1.
    cs-t = `changed`.
  ENDMETHOD.
  METHOD if_oo_adt_classrun~main.
    mt = VALUE #( ( k = 1 t = `a` ) ( k = 2 t = `b` ) ).
MAIN
  ENDMETHOD.
ENDCLASS.
";

#[test]
fn rows_deleted_through_a_changing_parameter_move_the_callers_references() {
    let src = CALLEE_CLASS.replace(
        "MAIN",
        "    ASSIGN mt[ 2 ] TO FIELD-SYMBOL(<b>).
    DATA(lr_b) = REF #( mt[ 2 ]-t ).
    drop_first( CHANGING ct = mt ).
    out->write( |{ <b>-t } { lr_b->* } { lines( mt ) }| ).",
    );
    assert_eq!(run_zcl_u(&src).expect("runs"), "b b 1");
}

#[test]
fn a_parameter_bound_to_a_row_that_is_deleted_ends_the_run_as_not_supported() {
    let src = CALLEE_CLASS.replace(
        "MAIN",
        "    ASSIGN mt[ 1 ] TO FIELD-SYMBOL(<a>).
    touch( CHANGING cs = <a> ).",
    );
    match run_zcl_u(&src) {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "SIMULATOR_NOT_SUPPORTED"),
        other => panic!("expected the not-supported error, got {other:?}"),
    }
}

#[test]
fn program_field_symbols_follow_their_row_too() {
    let mut r = Repository::new();
    r.add_file(
        "zr_rows.prog.abap",
        "REPORT zr_rows.
DATA gt TYPE STANDARD TABLE OF string WITH EMPTY KEY.
FIELD-SYMBOLS <gs> TYPE string.
FIELD-SYMBOLS <gone> TYPE string.

START-OF-SELECTION.
  gt = VALUE #( ( `a` ) ( `b` ) ( `c` ) ).
  ASSIGN gt[ 3 ] TO <gs>.
  ASSIGN gt[ 1 ] TO <gone>.
  DELETE gt INDEX 1.
  INSERT `z` INTO gt INDEX 1.
  WRITE / |{ <gs> } { xsdbool( <gone> IS ASSIGNED ) }|.
",
    )
    .expect("loads");
    let out = r.run_report("ZR_ROWS", &mut NoDebugger).expect("runs");
    assert_eq!(out.trim_end(), "c");
}

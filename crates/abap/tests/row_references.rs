//! Field symbols and data references to a row of an internal table point to the row itself:
//! they follow it when rows are inserted before it, deleted before it, or sorted; when the
//! row is deleted (or the table replaced) the field symbol is no longer assigned and the data
//! reference is invalid.
#![allow(clippy::result_large_err)] // RunError is the crate's contract type

use abap::{NoDebugger, Repository, RunError};

fn run(main: &str) -> Result<String, RunError> {
    let src = format!(
        "CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.\n  PUBLIC SECTION.\n    INTERFACES if_oo_adt_classrun.\n    TYPES: BEGIN OF ty_row, k TYPE i, t TYPE string, END OF ty_row,\n           tt_rows TYPE STANDARD TABLE OF ty_row WITH EMPTY KEY,\n           tt_sorted TYPE SORTED TABLE OF ty_row WITH UNIQUE KEY k.\nENDCLASS.\n\nCLASS zcl_t IMPLEMENTATION.\n  METHOD if_oo_adt_classrun~main.\n    DATA(lt) = VALUE tt_rows( ( k = 10 t = `a` ) ( k = 20 t = `b` ) ( k = 30 t = `c` ) ).\n{main}\n  ENDMETHOD.\nENDCLASS.\n"
    );
    let mut r = Repository::new();
    r.add_file("zcl_t.clas.abap", &src).expect("loads");
    r.run_classrun("ZCL_T", &mut NoDebugger)
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
        "b c\nb c\nB c B"
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
        "b c a\n c a\n"
    );
    match run("    DATA(lr) = REF #( lt[ 1 ] ).\n    DELETE lt INDEX 1.\n    out->write( lr->t ).")
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

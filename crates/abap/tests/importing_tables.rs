//! Internal tables passed as `IMPORTING` parameters (by reference, write-protected): every
//! statement that only reads them works on them, every statement that changes them ends the
//! run with `MOVE_TO_LIT_NOTALLOWED_NODATA`, also when the change goes through a field symbol
//! or a data reference to one of their rows.

use abap::RunError;

use crate::harness::run_class;

/// A classrun class whose method `m( it )` has `body`; `main` passes the table `3 1 2`.
fn run(body: &str) -> Result<String, RunError> {
    let src = format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    TYPES tt_i TYPE STANDARD TABLE OF i WITH DEFAULT KEY.
    METHODS m IMPORTING it TYPE tt_i RETURNING VALUE(r) TYPE string.
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    DATA(lt) = VALUE tt_i( ( 3 ) ( 1 ) ( 2 ) ).
    out->write( m( lt ) ).
    out->write( lines( lt ) ).
  ENDMETHOD.
  METHOD m.
{body}
  ENDMETHOD.
ENDCLASS.
"
    );
    run_class(&src)
}

fn out(body: &str) -> String {
    match run(body) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

fn dump_id(body: &str) -> String {
    match run(body) {
        Err(RunError::Dump { id, .. }) => id,
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn statements_that_read_an_importing_table_work() {
    assert_eq!(
        out(r"    LOOP AT it INTO DATA(x).
      r = |{ r }{ x }|.
    ENDLOOP."),
        "312\n3 "
    );
    assert_eq!(
        out(
            r"    LOOP AT it ASSIGNING FIELD-SYMBOL(<x>) WHERE table_line > 1.
      r = |{ r }{ <x> }|.
    ENDLOOP.
    LOOP AT it REFERENCE INTO DATA(rx) FROM 2.
      r = |{ r }{ rx->* }|.
    ENDLOOP."
        ),
        "3212\n3 "
    );
    assert_eq!(
        out(r"    READ TABLE it INTO DATA(x) INDEX 2.
    READ TABLE it TRANSPORTING NO FIELDS WITH KEY table_line = 2.
    DATA n TYPE i.
    DESCRIBE TABLE it LINES n.
    r = |{ x } { sy-tabix } { n }|."),
        "1 3 3\n3 "
    );
    assert_eq!(
        out(r"    LOOP AT it INTO DATA(x) GROUP BY x MOD 2 INTO DATA(g).
      r = r && |g{ g }|.
    ENDLOOP.
    r = r && REDUCE string( INIT s = `` FOR y IN it NEXT s = |{ s }{ y }| ) && |{ it[ 1 ] }|."),
        "g1g03123\n3 "
    );
}

#[test]
fn statements_that_change_an_importing_table_end_the_run() {
    for change in [
        "APPEND 4 TO it.",
        "INSERT 4 INTO it INDEX 1.",
        "SORT it.",
        "DELETE it INDEX 1.",
        "DELETE it WHERE table_line > 1.",
        "DELETE ADJACENT DUPLICATES FROM it.",
        "MODIFY it FROM 5 INDEX 1.",
        "CLEAR it.",
        "COLLECT 4 INTO it.",
        "INSERT LINES OF VALUE tt_i( ( 7 ) ) INTO TABLE it.",
        "READ TABLE it ASSIGNING FIELD-SYMBOL(<x>) INDEX 1.\n    <x> = 9.",
        r"LOOP AT it REFERENCE INTO DATA(rx).
      rx->* = 9.
    ENDLOOP.",
    ] {
        assert_eq!(
            dump_id(&format!("    {change}")),
            "MOVE_TO_LIT_NOTALLOWED_NODATA",
            "{change}"
        );
    }
}

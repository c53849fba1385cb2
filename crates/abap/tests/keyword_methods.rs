//! Methods named like statement keywords (`check`, `find`, `split`, `sort`, `delete`): a name
//! directly followed by `(` is a method call, the keyword with a blank is the statement.

use crate::harness::report as out;

#[test]
fn keyword_named_methods_are_called_functionally() {
    let o = out("REPORT zr.
CLASS lcl DEFINITION.
  PUBLIC SECTION.
    DATA log TYPE string.
    METHODS check IMPORTING v TYPE i.
    METHODS sort.
    METHODS delete IMPORTING k TYPE string.
    METHODS find RETURNING VALUE(r) TYPE i.
    METHODS run.
ENDCLASS.
CLASS lcl IMPLEMENTATION.
  METHOD check.
    log = |{ log }c{ v }|.
  ENDMETHOD.
  METHOD sort.
    log = |{ log }s|.
  ENDMETHOD.
  METHOD delete.
    log = |{ log }d{ k }|.
  ENDMETHOD.
  METHOD find.
    r = 7.
  ENDMETHOD.
  METHOD run.
    check( 1 ).
    me->check( v = 2 ).
    sort( ).
    delete( `x` ).
    find( ).
    DATA(n) = find( ).
    log = |{ log }f{ n }|.
    CHECK n = 8.
    log = |{ log }never|.
  ENDMETHOD.
ENDCLASS.
START-OF-SELECTION.
  DATA(o) = NEW lcl( ).
  o->run( ).
  o->check( 3 ).
  WRITE o->log.");
    // `CHECK n = 8.` (with a blank) is the statement: it leaves `run` early.
    assert_eq!(o, "c1c2sdxf7c3");
}

//! Obsolete statements that legacy reports still use: `MOVE … TO`, `ADD … TO`, `SUBTRACT …
//! FROM`, `MULTIPLY … BY`, `DIVIDE … BY`, and `FORM … TABLES p STRUCTURE s`.

use crate::harness::report;

#[test]
fn arithmetic_and_move_statements_are_assignments() {
    let out = report(
        "REPORT zr.
DATA gv TYPE i VALUE 7.
DATA gv_c TYPE c LENGTH 3.
DATA gv_p TYPE p LENGTH 8 DECIMALS 2 VALUE '1.50'.
START-OF-SELECTION.
  ADD 5 TO gv.
  SUBTRACT 2 FROM gv.
  MULTIPLY gv BY 3.
  DIVIDE gv BY 4.
  MOVE 'abcdef' TO gv_c.
  ADD gv TO gv_p.
  WRITE: / |{ gv } { gv_c } { gv_p }|.",
    );
    // (7 + 5 - 2) * 3 = 30, / 4 = 7.5 rounds to 8; c LENGTH 3 cuts; 1.50 + 8.
    assert_eq!(out, "8 abc 9.50");
}

#[test]
fn form_tables_parameters_typed_with_structure() {
    let out = report(
        "REPORT zr.
TYPES: BEGIN OF ty_line, n TYPE i, END OF ty_line.
DATA gt TYPE STANDARD TABLE OF ty_line WITH EMPTY KEY.
DATA gs TYPE ty_line.
DATA gv_sum TYPE i.
START-OF-SELECTION.
  gt = VALUE #( ( n = 1 ) ( n = 2 ) ).
  PERFORM total TABLES gt USING 10 CHANGING gv_sum.
  WRITE: / |{ gv_sum } { lines( gt ) }|.
FORM total TABLES pt STRUCTURE gs USING pv_add TYPE i CHANGING cv_sum TYPE i.
  LOOP AT pt INTO gs.
    cv_sum = cv_sum + gs-n + pv_add.
  ENDLOOP.
  APPEND VALUE #( n = 3 ) TO pt.
ENDFORM.",
    );
    // TABLES parameters are passed by reference: the appended row is in gt.
    assert_eq!(out, "23 3");
}

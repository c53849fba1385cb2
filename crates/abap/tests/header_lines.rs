//! Tables with header lines and `OCCURS` in legacy reports: one name for the header line
//! (`itab`) and the body (`itab[]`); the statements that expect a table take the body, their
//! short forms (`APPEND itab.`, `LOOP AT itab.`, `READ TABLE itab …`, `MODIFY itab.`,
//! `INSERT itab INDEX n.`, `COLLECT itab.`) the header line as work area.

use crate::harness::report as out;

#[test]
fn begin_of_occurs_declares_a_body_and_a_header_line() {
    let o = out("REPORT zr.
DATA: BEGIN OF itab OCCURS 0,
        k TYPE i,
        v(10) TYPE c,
      END OF itab.
DATA n TYPE i.
START-OF-SELECTION.
  itab-k = 2. itab-v = 'two'. APPEND itab.
  itab-k = 1. itab-v = 'one'. APPEND itab.
  itab-k = 3. itab-v = 'three'. APPEND itab.
  WRITE: / |header { itab-k } { itab-v }|.
  SORT itab BY k.
  LOOP AT itab.
    WRITE: / |{ sy-tabix }: { itab-k } { itab-v }|.
  ENDLOOP.
  READ TABLE itab WITH KEY k = 2.
  WRITE: / |key { sy-subrc } { itab-v }|.
  READ TABLE itab INDEX 3.
  WRITE: / |index { sy-subrc } { itab-v }|.
  CLEAR itab.
  DESCRIBE TABLE itab LINES n.
  WRITE: / |clear header: { n } { itab-k }|.
  CLEAR itab[].
  WRITE: / |clear body: { lines( itab[] ) }|.");
    assert_eq!(
        o,
        "header 3 three\n1: 1 one\n2: 2 two\n3: 3 three\nkey 0 two\nindex 0 three\n\
         clear header: 3 0\nclear body: 0"
    );
}

#[test]
fn occurs_with_header_line_and_the_short_forms() {
    let o = out("REPORT zr.
TYPES: BEGIN OF ty_line,
         k TYPE i,
         v TYPE c LENGTH 10,
       END OF ty_line.
DATA jtab TYPE ty_line OCCURS 0 WITH HEADER LINE.
DATA ktab TYPE STANDARD TABLE OF ty_line WITH HEADER LINE.
DATA ltab TYPE ty_line OCCURS 10.
START-OF-SELECTION.
  jtab-k = 1. jtab-v = 'one'. APPEND jtab.
  jtab-k = 2. jtab-v = 'two'. APPEND jtab.
  jtab-k = 3. jtab-v = 'three'. APPEND jtab.
  LOOP AT jtab WHERE k > 1.
    jtab-v = 'changed'.
    MODIFY jtab.
  ENDLOOP.
  LOOP AT jtab INTO ktab.
    APPEND ktab.
  ENDLOOP.
  ktab-k = 0. ktab-v = 'zero'.
  INSERT ktab INDEX 1.
  LOOP AT ktab.
    WRITE: / |{ ktab-k } { ktab-v }|.
  ENDLOOP.
  APPEND LINES OF jtab TO ltab.
  WRITE: / |{ jtab[ 2 ]-v } { ktab[ k = 3 ]-v } { lines( ltab ) }|.
  REFRESH jtab.
  WRITE: / |{ lines( jtab[] ) } { jtab-v }|.");
    // REFRESH empties the body; the header line keeps the last row the loop read.
    assert_eq!(
        o,
        "0 zero\n1 one\n2 changed\n3 changed\nchanged changed 3\n0 changed"
    );
}

#[test]
fn the_header_line_is_the_work_area_of_collect_modify_delete_and_control_levels() {
    let o = out("REPORT zr.
DATA: BEGIN OF gt OCCURS 0,
        grp TYPE c LENGTH 1,
        n TYPE i,
      END OF gt.
START-OF-SELECTION.
  gt-grp = 'A'. gt-n = 1. APPEND gt.
  gt-grp = 'A'. gt-n = 2. APPEND gt.
  gt-grp = 'B'. gt-n = 5. APPEND gt.
  LOOP AT gt.
    AT NEW grp.
      WRITE: / |new { gt-grp }|.
    ENDAT.
  ENDLOOP.
  gt-grp = 'B'. gt-n = 10. COLLECT gt.
  gt-grp = 'A'. gt-n = 99.
  MODIFY gt INDEX 2.
  LOOP AT gt.
    WRITE: / |{ gt-grp } { gt-n }|.
    IF gt-n = 1.
      DELETE gt.
    ENDIF.
  ENDLOOP.
  WRITE: / |{ lines( gt[] ) }|.
  PERFORM local.
FORM local.
  DATA lt TYPE i OCCURS 0 WITH HEADER LINE.
  lt = 7. APPEND lt.
  lt = 8. APPEND lt.
  LOOP AT lt.
    WRITE: / |local { lt }|.
  ENDLOOP.
ENDFORM.");
    // COLLECT adds 10 to the B row; MODIFY INDEX 2 replaces row 2 with the header line.
    assert_eq!(o, "new A\nnew B\nA 1\nA 99\nB 15\n2\nlocal 7\nlocal 8");
}

#[test]
fn tables_of_perform_pass_the_body() {
    let o = out("REPORT zr.
TYPES: BEGIN OF ty, n TYPE i, END OF ty.
DATA gt TYPE ty OCCURS 0 WITH HEADER LINE.
START-OF-SELECTION.
  gt-n = 1. APPEND gt.
  PERFORM fill TABLES gt.
  WRITE: / |{ lines( gt[] ) } { gt-n }|.
FORM fill TABLES pt STRUCTURE gt.
  DATA wa TYPE ty.
  wa-n = 5.
  APPEND wa TO pt.
ENDFORM.");
    assert_eq!(o, "2 1");
}

#[test]
fn a_tables_parameter_has_a_header_line_of_its_own() {
    let o = out("REPORT zr.
TYPES: BEGIN OF ty, n TYPE i, END OF ty.
DATA gt TYPE ty OCCURS 0 WITH HEADER LINE.
START-OF-SELECTION.
  gt-n = 1. APPEND gt.
  PERFORM fill TABLES gt.
  WRITE: / |{ lines( gt[] ) } { gt-n } { gt[ 2 ]-n }|.
FORM fill TABLES pt STRUCTURE gt.
  LOOP AT pt.
    pt-n = pt-n * 10.
    MODIFY pt.
  ENDLOOP.
  pt-n = 5.
  APPEND pt.
ENDFORM.");
    // The formal's header line is its own: the caller's header line keeps 1.
    assert_eq!(o, "2 1 5");
}

#[test]
fn a_table_without_header_line_is_its_own_body() {
    let o = out("REPORT zr.
DATA t TYPE STANDARD TABLE OF i WITH EMPTY KEY.
START-OF-SELECTION.
  APPEND 4 TO t.
  t[] = VALUE #( BASE t[] ( 5 ) ).
  WRITE: / |{ lines( t[] ) } { lines( t ) }|.");
    assert_eq!(o, "2 2");
}

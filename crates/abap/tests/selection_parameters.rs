//! `PARAMETERS` and `SELECT-OPTIONS` of a report: global variables that start with their
//! `DEFAULT` value (ranges tables empty), as when the report is submitted without showing its
//! selection screen (the simulator shows none).

use crate::harness::report;

#[test]
fn parameters_start_with_their_default_converted_to_their_type() {
    let out = report(
        "REPORT zr.
PARAMETERS p_top TYPE i DEFAULT 3 OBLIGATORY.
PARAMETERS: p_name(5) TYPE c DEFAULT 'abcdefg' LOWER CASE,
            p_date TYPE d DEFAULT '20240229' MEMORY ID dat,
            p_none TYPE string,
            p_amt TYPE p LENGTH 8 DECIMALS 2 DEFAULT '12.345'.
START-OF-SELECTION.
  p_top = p_top + 1.
  WRITE: / |{ p_top } { p_name } { p_date DATE = ISO } [{ p_none }] { p_amt }|.",
    );
    assert_eq!(out, "4 abcde 2024-02-29 [] 12.35");
}

#[test]
fn checkboxes_and_radio_buttons_are_flags() {
    let out = report(
        "REPORT zr.
PARAMETERS: p_test AS CHECKBOX DEFAULT 'X',
            p_log AS CHECKBOX USER-COMMAND log,
            p_a RADIOBUTTON GROUP one,
            p_b RADIOBUTTON GROUP one,
            p_x RADIOBUTTON GROUP two,
            p_y RADIOBUTTON GROUP two DEFAULT 'X'.
START-OF-SELECTION.
  WRITE: / |[{ p_test }][{ p_log }][{ p_a }][{ p_b }][{ p_x }][{ p_y }]|.",
    );
    // (A blank `c` field is empty in a template.)
    assert_eq!(out, "[X][][X][][][X]");
}

#[test]
fn select_options_are_empty_ranges_tables() {
    let out = report(
        "REPORT zr.
DATA gv_matnr TYPE c LENGTH 10.
DATA gt_mat TYPE STANDARD TABLE OF string WITH EMPTY KEY.
SELECT-OPTIONS s_matnr FOR gv_matnr NO INTERVALS OBLIGATORY.
START-OF-SELECTION.
  gt_mat = VALUE #( ( `A1` ) ( `B2` ) ).
  DATA(lv_all) = REDUCE i( INIT n = 0 FOR m IN gt_mat WHERE ( table_line IN s_matnr ) NEXT n = n + 1 ).
  APPEND VALUE #( sign = 'I' option = 'CP' low = 'A*' ) TO s_matnr.
  DATA(lv_a) = REDUCE i( INIT n = 0 FOR m IN gt_mat WHERE ( table_line IN s_matnr ) NEXT n = n + 1 ).
  WRITE: / |{ lv_all } { lv_a } { lines( s_matnr[] ) }|.",
    );
    assert_eq!(out, "2 1 1");
}

#[test]
fn select_options_and_ranges_have_a_header_line() {
    let out = report(
        "REPORT zr.
TYPES ty_names TYPE STANDARD TABLE OF string WITH EMPTY KEY.
DATA gv_name TYPE c LENGTH 10.
SELECT-OPTIONS so FOR gv_name.
RANGES r FOR gv_name.
START-OF-SELECTION.
  so-sign = 'I'. so-option = 'EQ'. so-low = 'A'. APPEND so.
  so-low = 'C'. APPEND so.
  r-sign = 'E'. r-option = 'CP'. r-low = 'B*'. APPEND r.
  LOOP AT so.
    WRITE: / |{ sy-tabix } { so-sign } { so-option } { so-low }|.
  ENDLOOP.
  DATA(lt_names) = VALUE ty_names( ( `A` ) ( `B1` ) ( `C` ) ( `D` ) ).
  DATA: lv_so TYPE string, lv_r TYPE string.
  LOOP AT lt_names INTO DATA(lv_n).
    IF lv_n IN so. lv_so = lv_so && lv_n. ENDIF.
    IF lv_n IN r. lv_r = lv_r && lv_n. ENDIF.
  ENDLOOP.
  WRITE: / |{ lv_so } { lv_r } { lines( so[] ) } { lines( r[] ) }|.
  PERFORM f.
FORM f.
  RANGES lr FOR gv_name.
  lr-sign = 'I'. lr-option = 'BT'. lr-low = 'B'. lr-high = 'C'. APPEND lr.
  CLEAR lr.
  IF `BX` IN lr.
    WRITE: / |form { lines( lr[] ) } [{ lr-high }]|.
  ENDIF.
ENDFORM.",
    );
    // `so` includes A and C; `r` only excludes B*, so all but B1 are in it. CLEAR clears the
    // header line; `IN lr` still reads the body (B ≤ BX ≤ C).
    assert_eq!(out, "1 I EQ A\n2 I EQ C\nAC ACD 2 1\nform 1 []");
}

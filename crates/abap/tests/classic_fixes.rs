//! Language details real libraries rely on: assigning a table to a sorted or hashed table
//! orders the rows by the target's key and checks its unique key; classic exceptions of
//! methods and constructors; a flat character-like structure converted from and to text.

use abap::RunError;

use crate::harness::{class_source, dump, run_class};

const TYPES: &str = r"    TYPES: BEGIN OF ty_row,
             k TYPE i,
             v TYPE string,
           END OF ty_row,
           tt_std TYPE STANDARD TABLE OF ty_row WITH EMPTY KEY,
           tt_sorted_u TYPE SORTED TABLE OF ty_row WITH UNIQUE KEY k,
           tt_sorted_n TYPE SORTED TABLE OF ty_row WITH NON-UNIQUE KEY k,
           tt_hashed TYPE HASHED TABLE OF ty_row WITH UNIQUE KEY k.
    METHODS keys_of IMPORTING it TYPE tt_sorted_n RETURNING VALUE(r) TYPE string.
    METHODS by_value IMPORTING VALUE(it) TYPE tt_sorted_n RETURNING VALUE(r) TYPE string.";

const METHODS: &str = r"  METHOD keys_of.
    LOOP AT it INTO DATA(row).
      r = r && |{ row-k }{ row-v } |.
    ENDLOOP.
  ENDMETHOD.
  METHOD by_value.
    LOOP AT it INTO DATA(row).
      r = r && |{ row-k }{ row-v } |.
    ENDLOOP.
  ENDMETHOD.";

fn run(main: &str) -> Result<String, RunError> {
    run_class(&class_source(TYPES, main, METHODS))
}

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

const SOURCE_ROWS: &str = "    DATA(st) = VALUE tt_std( ( k = 3 v = `a` ) ( k = 1 v = `b` ) ( k = 3 v = `c` ) ( k = 2 v = `d` ) ).";

#[test]
fn standard_to_sorted_non_unique_sorts_stably() {
    let o = out(&format!(
        "{SOURCE_ROWS}
    DATA so TYPE tt_sorted_n.
    so = st.
    DATA(s) = ``.
    LOOP AT so INTO DATA(row).
      s = s && |{{ row-k }}{{ row-v }} |.
    ENDLOOP.
    out->write( s ).
    DATA so2 TYPE tt_sorted_n.
    MOVE st TO so2.
    out->write( keys_of( so2 ) ).
    out->write( by_value( st ) )."
    ));
    assert_eq!(o, "1b 2d 3a 3c \n1b 2d 3a 3c \n1b 2d 3a 3c ");
}

#[test]
fn standard_to_sorted_then_read_binary_finds_rows() {
    let o = out(&format!(
        "{SOURCE_ROWS}
    DATA so TYPE tt_sorted_n.
    so = st.
    DATA row TYPE ty_row.
    READ TABLE so INTO row WITH TABLE KEY k = 2.
    out->write( |{{ sy-subrc }} {{ row-v }}| )."
    ));
    assert_eq!(o, "0 d");
}

#[test]
fn standard_to_sorted_unique_with_duplicates_dumps() {
    let (id, _) = dump(run(&format!(
        "{SOURCE_ROWS}
    DATA so TYPE tt_sorted_u.
    so = st."
    )));
    assert_eq!(id, "ITAB_DUPLICATE_KEY");
}

#[test]
fn standard_to_hashed_with_duplicates_dumps() {
    let (id, _) = dump(run(&format!(
        "{SOURCE_ROWS}
    DATA ha TYPE tt_hashed.
    ha = st."
    )));
    assert_eq!(id, "ITAB_DUPLICATE_KEY");
}

#[test]
fn standard_to_sorted_unique_without_duplicates_sorts() {
    let o = out(
        "    DATA(st) = VALUE tt_std( ( k = 3 v = `a` ) ( k = 1 v = `b` ) ( k = 2 v = `d` ) ).
    DATA so TYPE tt_sorted_u.
    so = st.
    DATA(s) = ``.
    LOOP AT so INTO DATA(row).
      s = s && |{ row-k }{ row-v } |.
    ENDLOOP.
    DATA ha TYPE tt_hashed.
    ha = st.
    out->write( s && |{ lines( ha ) }| ).",
    );
    assert_eq!(o, "1b 2d 3a 3");
}

/// A class whose constructor and static method raise classic exceptions.
const CLASSIC: &str = r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    DATA n TYPE i.
    METHODS constructor IMPORTING iv TYPE i DEFAULT 0 EXCEPTIONS negative.
    CLASS-METHODS check IMPORTING iv TYPE i RETURNING VALUE(r) TYPE i EXCEPTIONS negative too_big.
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    DATA o TYPE REF TO zcl_t.
    CREATE OBJECT o EXPORTING iv = 4 EXCEPTIONS negative = 3.
    out->write( |{ sy-subrc } { o->n }| ).
    DATA(first) = o.
    CREATE OBJECT o EXPORTING iv = -1 EXCEPTIONS negative = 3.
    out->write( |{ sy-subrc } { o->n } { xsdbool( o = first ) }| ).
    DATA r TYPE i VALUE 7.
    r = zcl_t=>check( EXPORTING iv = 5 EXCEPTIONS negative = 1 too_big = 2 ).
    out->write( |{ sy-subrc } { r }| ).
    CALL METHOD zcl_t=>check EXPORTING iv = -5 RECEIVING r = r EXCEPTIONS negative = 1 too_big = 2.
    out->write( |{ sy-subrc } { r }| ).
    CALL METHOD zcl_t=>check EXPORTING iv = 500 RECEIVING r = r EXCEPTIONS OTHERS = 9.
    out->write( |{ sy-subrc } { r }| ).
    CALL METHOD zcl_t=>check EXPORTING iv = 6 RECEIVING r = r EXCEPTIONS OTHERS = 9.
    out->write( |{ sy-subrc } { r }| ).
  ENDMETHOD.
  METHOD constructor.
    IF iv < 0.
      RAISE negative.
    ENDIF.
    n = iv.
  ENDMETHOD.
  METHOD check.
    IF iv < 0.
      RAISE negative.
    ENDIF.
    IF iv > 100.
      MESSAGE e001(zz) RAISING too_big.
    ENDIF.
    r = iv * 2.
  ENDMETHOD.
ENDCLASS.
";

#[test]
fn classic_exceptions_of_constructors_and_static_methods_set_subrc() {
    let o = match run_class(CLASSIC) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    };
    // A constructor ended by a classic exception creates no object: `o` keeps the first one.
    assert_eq!(o, "0 4\n3 4 X\n0 10\n1 10\n9 10\n0 12");
}

#[test]
fn unhandled_classic_exception_of_a_constructor_is_raise_exception() {
    let src = CLASSIC.replace(
        "CREATE OBJECT o EXPORTING iv = -1 EXCEPTIONS negative = 3.",
        "CREATE OBJECT o EXPORTING iv = -1.",
    );
    let (id, text) = dump(run_class(&src));
    assert_eq!(id, "RAISE_EXCEPTION");
    assert!(text.contains("NEGATIVE"), "{text}");
}

#[test]
fn unhandled_classic_exception_of_a_static_method_is_raise_exception() {
    let src = CLASSIC.replace(
        "EXPORTING iv = -5 RECEIVING r = r EXCEPTIONS negative = 1 too_big = 2.",
        "EXPORTING iv = -5 RECEIVING r = r EXCEPTIONS too_big = 2.",
    );
    let (id, _) = dump(run_class(&src));
    assert_eq!(id, "RAISE_EXCEPTION");
}

const TEXT_STRUCT: &str = r"    TYPES: BEGIN OF ty_text,
             a TYPE c LENGTH 3,
             n TYPE n LENGTH 2,
             b TYPE c LENGTH 4,
           END OF ty_text.";

#[test]
fn string_to_flat_character_structure_fills_it_as_one_c_field() {
    let o = run_class(&class_source(
        TEXT_STRUCT,
        "    DATA s TYPE ty_text.
    s = `abc12defgh`.
    out->write( |[{ s-a }][{ s-n }][{ s-b }]| ).
    DATA back TYPE c LENGTH 9.
    s = `xy`.
    back = s.
    out->write( |[{ back }]| ).
    DATA c TYPE c LENGTH 5 VALUE 'pq9'.
    s = c.
    back = s.
    out->write( |[{ back }]| ).",
        "",
    ));
    // Truncated after the structure's 9 characters; a shorter text is padded with blanks,
    // the n component too (its characters are taken as they are, not converted as digits:
    // read back as one c field, the structure shows no zeros).
    assert_eq!(
        o.as_deref().map_err(|e| format!("{e:?}")),
        Ok("[abc][12][defg]\n[xy]\n[pq9]")
    );
}

#[test]
fn flat_character_structure_to_string_drops_trailing_blanks() {
    let o = run_class(&class_source(
        TEXT_STRUCT,
        "    DATA s TYPE ty_text.
    s-a = 'a'.
    s-n = '07'.
    s-b = 'bc'.
    DATA(str) = ``.
    str = s.
    out->write( |[{ str }] { strlen( str ) }| ).
    DATA c TYPE c LENGTH 6.
    c = s.
    out->write( |[{ c }]| ).",
        "",
    ));
    assert_eq!(
        o.as_deref().map_err(|e| format!("{e:?}")),
        Ok("[a  07bc] 7\n[a  07b]")
    );
}

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

//! Table expressions as write targets (`itab[ 1 ]-c = …`, `+=`, through `ASSIGN`), chained
//! (`matrix[ i ][ j ]`, `itab[ 1 ]-sub[ 2 ]-f`), with `KEY k INDEX n` and `KEY k COMPONENTS`,
//! and initial rows in `VALUE #( ( ) )`.

use crate::harness::{dump, run};

/// `ROWS` followed by `main`.
fn rows(main: &str) -> String {
    format!("{ROWS}\n{main}")
}

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

const ROWS: &str = "TYPES: BEGIN OF ty, k TYPE i, v TYPE string, END OF ty.
DATA t TYPE STANDARD TABLE OF ty WITH EMPTY KEY.
t = VALUE #( ( k = 1 v = `a` ) ( k = 2 v = `b` ) ).";

#[test]
fn a_row_and_its_components_are_written_where_they_are() {
    let o = out(&rows(
        "t[ 1 ]-v = `x`.
t[ k = 2 ]-v &&= `y`.
t[ 2 ]-k += 40.
out->write( |{ t[ 1 ]-v } { t[ 2 ]-v } { t[ 2 ]-k }| ).
t[ 1 ] = VALUE #( k = 9 v = `z` ).
out->write( |{ t[ 1 ]-k } { t[ 1 ]-v } { lines( t ) }| ).",
    ));
    assert_eq!(o, "x by 42\n9 z 2");
}

#[test]
fn writing_a_missing_row_raises_line_not_found() {
    let o = out(&rows(
        "TRY.
    t[ 3 ]-v = `x`.
  CATCH cx_sy_itab_line_not_found.
    out->write( `no row 3` ).
ENDTRY.
TRY.
    t[ k = 7 ] = VALUE #( ).
  CATCH cx_sy_itab_line_not_found.
    out->write( `no row k = 7` ).
ENDTRY.
out->write( lines( t ) ).",
    ));
    assert_eq!(o, "no row 3\nno row k = 7\n2 ");
    let (id, _) = dump(run(&rows("t[ 5 ]-k = 1.")));
    assert_eq!(id, "ITAB_LINE_NOT_FOUND");
}

#[test]
fn assign_of_a_table_expression_sets_subrc() {
    let o = out(&rows(
        "ASSIGN t[ 2 ] TO FIELD-SYMBOL(<r>).
out->write( sy-subrc ).
<r>-v = `w`.
ASSIGN t[ 5 ] TO <r>.
out->write( |{ sy-subrc } { t[ 2 ]-v }| ).",
    ));
    assert_eq!(o, "0 \n4 w");
}

#[test]
fn chained_table_expressions_read_write_and_assign() {
    let o = out("TYPES ty_row TYPE STANDARD TABLE OF i WITH EMPTY KEY.
TYPES ty_matrix TYPE STANDARD TABLE OF ty_row WITH EMPTY KEY.
DATA m TYPE ty_matrix.
m = VALUE #( ( VALUE #( ( 1 ) ( 2 ) ) ) ( VALUE #( ( 3 ) ( 4 ) ) ) ).
m[ 1 ][ 2 ] = 20.
m[ 2 ][ 2 ] *= 10.
ASSIGN m[ 2 ][ 1 ] TO FIELD-SYMBOL(<c>).
<c> = 30.
out->write( |{ m[ 1 ][ 1 ] } { m[ 1 ][ 2 ] } { m[ 2 ][ 1 ] } { m[ 2 ][ 2 ] }| ).
ASSIGN m[ 1 ][ 3 ] TO <c>.
out->write( sy-subrc ).
TRY.
    m[ 1 ][ 3 ] = 5.
  CATCH cx_sy_itab_line_not_found.
    out->write( `no column 3` ).
ENDTRY.");
    assert_eq!(o, "1 20 30 40\n4 \nno column 3");
}

#[test]
fn components_between_chained_table_expressions() {
    let o = out("TYPES: BEGIN OF ty_sub, f TYPE i, END OF ty_sub.
TYPES ty_subs TYPE STANDARD TABLE OF ty_sub WITH EMPTY KEY.
TYPES: BEGIN OF ty, k TYPE i, sub TYPE ty_subs, END OF ty.
DATA s TYPE STANDARD TABLE OF ty WITH EMPTY KEY.
s = VALUE #( ( k = 1 sub = VALUE #( ( f = 1 ) ( f = 2 ) ) ) ).
s[ 1 ]-sub[ 2 ]-f = 7.
s[ k = 1 ]-sub[ f = 1 ]-f -= 6.
out->write( |{ s[ 1 ]-sub[ 1 ]-f } { s[ 1 ]-sub[ 2 ]-f }| ).");
    assert_eq!(o, "-5 7");
}

#[test]
fn key_index_and_key_components_follow_the_keys_order() {
    let o = out("TYPES: BEGIN OF ty, k TYPE i, n TYPE string, END OF ty.
DATA t TYPE STANDARD TABLE OF ty WITH EMPTY KEY
  WITH NON-UNIQUE SORTED KEY by_n COMPONENTS n.
t = VALUE #( ( k = 1 n = `c` ) ( k = 2 n = `b` ) ( k = 3 n = `a` ) ).
out->write( |{ t[ KEY by_n INDEX 1 ]-k } { t[ KEY by_n INDEX 3 ]-k }| ).
out->write( |{ t[ KEY primary_key INDEX 1 ]-k } { t[ KEY by_n n = `b` ]-k }| ).
out->write( |{ t[ KEY by_n COMPONENTS n = `a` ]-k }| ).
t[ KEY by_n INDEX 3 ]-n = `z`.
out->write( t[ 1 ]-n ).
TRY.
    out->write( t[ KEY by_n INDEX 4 ]-k ).
  CATCH cx_sy_itab_line_not_found.
    out->write( `no fourth row` ).
ENDTRY.");
    assert_eq!(o, "3 1\n1 2\n3\nz\nno fourth row");
}

#[test]
fn writing_the_key_of_a_sorted_table_is_not_guessed() {
    let (id, text) = dump(run(
        "DATA t TYPE SORTED TABLE OF i WITH UNIQUE KEY table_line.
t = VALUE #( ( 1 ) ( 2 ) ).
t[ 1 ] = 5.",
    ));
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED", "{text}");
}

#[test]
fn value_rows_may_be_initial() {
    let o = out(&rows(
        "t = VALUE #( ( ) ( k = 1 ) ( ) ).
DATA n TYPE STANDARD TABLE OF i WITH EMPTY KEY.
n = VALUE #( ( ) ( 5 ) ).
out->write( |{ lines( t ) } { t[ 1 ]-k } { t[ 2 ]-k } { t[ 3 ]-v }/{ n[ 1 ] } { n[ 2 ] }| ).",
    ));
    assert_eq!(o, "3 0 1 /0 5");
}

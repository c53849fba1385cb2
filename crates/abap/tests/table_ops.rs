//! Internal table statements beyond the basics: `APPEND|INSERT LINES OF`, `COLLECT`, `MODIFY
//! … TRANSPORTING [WHERE]`, `MODIFY TABLE`, key reads with linear and binary search,
//! `DESCRIBE TABLE`, `DELETE TABLE`, `SORT … AS TEXT`.

use abap::{NoDebugger, Repository, RunError};

use crate::harness::run_class;

const TYPES: &str = r"    TYPES: BEGIN OF ty_row,
             name TYPE string,
             qty  TYPE i,
             amt  TYPE p LENGTH 8 DECIMALS 2,
           END OF ty_row,
           tt_rows TYPE STANDARD TABLE OF ty_row WITH DEFAULT KEY,
           tt_sorted TYPE SORTED TABLE OF ty_row WITH UNIQUE KEY name,
           tt_ints TYPE STANDARD TABLE OF i WITH EMPTY KEY.";

fn class(main: &str) -> String {
    format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
{TYPES}
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{main}
  ENDMETHOD.
ENDCLASS.
"
    )
}

fn run(main: &str) -> Result<String, RunError> {
    run_class(&class(main))
}

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

fn dump_id(main: &str) -> String {
    match run(main) {
        Err(RunError::Dump { id, .. }) => id,
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn append_lines_of_with_range_sets_tabix() {
    let o = out(
        "    DATA(src) = VALUE tt_ints( ( 1 ) ( 2 ) ( 3 ) ( 4 ) ( 5 ) ).
    DATA dst TYPE tt_ints.
    APPEND 9 TO dst.
    APPEND LINES OF src FROM 2 TO 4 TO dst.
    out->write( |{ lines( dst ) } { sy-tabix }| ).
    APPEND LINES OF src FROM 4 TO dst.
    APPEND LINES OF src TO 1 TO dst.
    APPEND LINES OF src FROM 9 TO dst.
    DATA s TYPE string.
    LOOP AT dst INTO DATA(x).
      s = |{ s }{ x }|.
    ENDLOOP.
    out->write( s ).",
    );
    assert_eq!(o, "4 4\n9234451");
}

#[test]
fn insert_lines_of_into_table_and_index() {
    let o = out(
        "    DATA(src) = VALUE tt_rows( ( name = `b` qty = 2 ) ( name = `a` qty = 1 ) ).
    DATA sorted TYPE tt_sorted.
    INSERT VALUE #( name = `c` qty = 3 ) INTO TABLE sorted.
    INSERT LINES OF src INTO TABLE sorted.
    LOOP AT sorted INTO DATA(r).
      out->write( |{ sy-tabix } { r-name } { r-qty }| ).
    ENDLOOP.
    DATA(ints) = VALUE tt_ints( ( 1 ) ( 4 ) ).
    INSERT LINES OF VALUE tt_ints( ( 2 ) ( 3 ) ) INTO ints INDEX 2.
    DATA s TYPE string.
    LOOP AT ints INTO DATA(x).
      s = |{ s }{ x }|.
    ENDLOOP.
    out->write( s ).",
    );
    assert_eq!(
        o,
        r"1 a 1
2 b 2
3 c 3
1234"
    );
}

#[test]
fn insert_lines_of_duplicate_unique_key_dumps() {
    let id = dump_id(
        "    DATA sorted TYPE tt_sorted.
    DATA(src) = VALUE tt_rows( ( name = `a` ) ( name = `a` ) ).
    INSERT LINES OF src INTO TABLE sorted.",
    );
    assert_eq!(id, "ITAB_DUPLICATE_KEY");
}

#[test]
fn append_lines_of_out_of_order_to_sorted_dumps() {
    let id = dump_id(
        "    DATA sorted TYPE tt_sorted.
    DATA(src) = VALUE tt_rows( ( name = `b` ) ( name = `a` ) ).
    APPEND LINES OF src TO sorted.",
    );
    assert_eq!(id, "ITAB_ILLEGAL_SORT_ORDER");
}

#[test]
fn collect_sums_numeric_components_by_key() {
    let o = out("    DATA totals TYPE tt_rows.
    COLLECT VALUE ty_row( name = `x` qty = 2 amt = '1.50' ) INTO totals.
    COLLECT VALUE ty_row( name = `y` qty = 1 amt = '2.00' ) INTO totals.
    out->write( |{ sy-tabix }| ).
    COLLECT VALUE ty_row( name = `x` qty = 5 amt = '0.25' ) INTO totals.
    out->write( |{ sy-tabix }| ).
    LOOP AT totals INTO DATA(t).
      out->write( |{ t-name } { t-qty } { t-amt }| ).
    ENDLOOP.");
    assert_eq!(
        o,
        r"2
1
x 7 1.75
y 1 2.00"
    );
}

#[test]
fn modify_transporting_where_and_modify_table() {
    let o = out(
        "    DATA(rows) = VALUE tt_rows( ( name = `a` qty = 1 ) ( name = `b` qty = 2 ) ( name = `c` qty = 3 ) ).
    MODIFY rows FROM VALUE #( qty = 0 amt = 9 ) TRANSPORTING qty WHERE qty >= 2.
    out->write( |{ sy-subrc }| ).
    MODIFY rows FROM VALUE #( qty = 7 ) TRANSPORTING qty WHERE qty > 100.
    out->write( |{ sy-subrc }| ).
    MODIFY rows FROM VALUE #( name = `z` ) INDEX 1 TRANSPORTING name.
    DATA sorted TYPE tt_sorted.
    sorted = VALUE #( ( name = `k` qty = 1 ) ( name = `m` qty = 2 ) ).
    MODIFY TABLE sorted FROM VALUE #( name = `m` qty = 20 amt = 1 ) TRANSPORTING qty.
    out->write( |{ sy-subrc } { sy-tabix }| ).
    MODIFY TABLE sorted FROM VALUE #( name = `q` qty = 5 ).
    out->write( |{ sy-subrc }| ).
    LOOP AT rows INTO DATA(r).
      out->write( |{ r-name } { r-qty } { r-amt }| ).
    ENDLOOP.
    LOOP AT sorted INTO r.
      out->write( |{ r-name } { r-qty } { r-amt }| ).
    ENDLOOP.",
    );
    assert_eq!(
        o,
        r"0
4
0 2
4
z 1 0.00
b 0 0.00
c 0 0.00
k 1 0.00
m 20 0.00"
    );
}

#[test]
fn read_binary_search_subrc_and_tabix() {
    let o = out(
        "    DATA(ints) = VALUE tt_ints( ( 10 ) ( 20 ) ( 20 ) ( 30 ) ).
    DATA n TYPE i.
    READ TABLE ints INTO n WITH KEY table_line = 20 BINARY SEARCH.
    out->write( |{ sy-subrc } { sy-tabix } { n }| ).
    n = -1.
    READ TABLE ints INTO n WITH KEY table_line = 25 BINARY SEARCH.
    out->write( |{ sy-subrc } { sy-tabix } { n }| ).
    READ TABLE ints INTO n WITH KEY table_line = 5 BINARY SEARCH.
    out->write( |{ sy-subrc } { sy-tabix } { n }| ).
    READ TABLE ints TRANSPORTING NO FIELDS WITH KEY table_line = 99 BINARY SEARCH.
    out->write( |{ sy-subrc } { sy-tabix }| ).
    CLEAR ints.
    READ TABLE ints TRANSPORTING NO FIELDS WITH KEY table_line = 1 BINARY SEARCH.
    out->write( |{ sy-subrc } { sy-tabix }| ).",
    );
    assert_eq!(
        o,
        r"0 2 20
4 4 -1
4 1 -1
8 5
8 1"
    );
}

#[test]
fn read_with_table_key_on_sorted_table() {
    let o = out("    DATA sorted TYPE tt_sorted.
    sorted = VALUE #( ( name = `b` qty = 2 ) ( name = `d` qty = 4 ) ).
    READ TABLE sorted INTO DATA(r) WITH TABLE KEY name = `d`.
    out->write( |{ sy-subrc } { sy-tabix } { r-qty }| ).
    READ TABLE sorted INTO r WITH KEY name = `c`.
    out->write( |{ sy-subrc } { sy-tabix }| ).
    READ TABLE sorted INTO r WITH KEY name = `e`.
    out->write( |{ sy-subrc } { sy-tabix }| ).
    READ TABLE sorted INTO r WITH KEY qty = 2.
    out->write( |{ sy-subrc } { sy-tabix } { r-name }| ).
    READ TABLE sorted INTO r WITH KEY qty = 3.
    out->write( |{ sy-subrc }| ).");
    assert_eq!(
        o,
        r"0 2 4
4 2
8 3
0 1 b
4"
    );
}

#[test]
fn describe_table_lines_kind_and_tfill() {
    let o = out("    DATA sorted TYPE tt_sorted.
    sorted = VALUE #( ( name = `b` ) ( name = `d` ) ( name = `e` ) ).
    DATA n TYPE i.
    DATA k TYPE c LENGTH 1.
    DESCRIBE TABLE sorted LINES n KIND k.
    out->write( |{ n } { k } { sy-tfill }| ).
    DELETE sorted INDEX 1.
    DESCRIBE TABLE sorted KIND DATA(k2) LINES DATA(n2).
    n2 = n2 * 2.
    k2 = 'XY'.
    out->write( |{ n2 } { k2 }| ).");
    // Inline targets: LINES an i, KIND a c of length 1.
    assert_eq!(o, "3 S 3\n4 X");
}

#[test]
fn delete_table_from_wa_and_with_table_key() {
    let o = out("    DATA sorted TYPE tt_sorted.
    sorted = VALUE #( ( name = `b` qty = 1 ) ( name = `d` qty = 2 ) ( name = `e` qty = 3 ) ).
    DELETE TABLE sorted FROM VALUE #( name = `d` qty = 99 ).
    out->write( |{ sy-subrc }| ).
    DELETE TABLE sorted WITH TABLE KEY name = `x`.
    out->write( |{ sy-subrc }| ).
    DELETE TABLE sorted WITH TABLE KEY name = `b`.
    out->write( |{ sy-subrc } { lines( sorted ) }| ).");
    assert_eq!(
        o,
        r"0
4
0 1"
    );
}

#[test]
fn sort_as_text_sorts() {
    let o = out(
        "    DATA(rows) = VALUE tt_rows( ( name = `b` ) ( name = `c` ) ( name = `a` ) ).
    SORT rows BY name AS TEXT DESCENDING.
    DATA s TYPE string.
    LOOP AT rows INTO DATA(r).
      s = s && r-name.
    ENDLOOP.
    out->write( s ).",
    );
    assert_eq!(o, "cba");
}

#[test]
fn delete_by_index_range() {
    let o = out(
        "    DATA(ints) = VALUE tt_ints( ( 1 ) ( 2 ) ( 3 ) ( 4 ) ( 5 ) ( 6 ) ).
    DELETE ints FROM 2 TO 3.
    DELETE ints FROM 3 WHERE table_line > 4.
    DATA s TYPE string.
    LOOP AT ints INTO DATA(x).
      s = |{ s }{ x }|.
    ENDLOOP.
    out->write( |{ s } { sy-subrc }| ).
    DELETE ints TO 1.
    DELETE ints FROM 9.
    out->write( |{ lines( ints ) } { sy-subrc }| ).",
    );
    assert_eq!(o, "14 0\n1 4");
}

#[test]
fn statements_in_loop_bodies_are_stop_points() {
    let mut r = Repository::new();
    r.add_file(
        "zcl_t.clas.abap",
        &class(
            "    DATA(ints) = VALUE tt_ints( ( 1 ) ).
    LOOP AT ints INTO DATA(x).
      out->write( |{ x }| ).
    ENDLOOP.",
        ),
    )
    .expect("loads");
    let src = class("");
    let method_line = src
        .lines()
        .position(|l| l.contains("METHOD if_oo_adt_classrun~main"))
        .expect("method line");
    let line = u32::try_from(method_line + 4).expect("small");
    assert!(
        r.stop_point("ZCL_T", abap::SourcePart::Main, line)
            .is_some(),
        "line {line} inside LOOP"
    );
}

#[test]
fn table_body_operator() {
    let o = out("    DATA(a) = VALUE tt_ints( ( 1 ) ).
    DATA(b) = VALUE tt_ints( ( 2 ) ( 3 ) ).
    a[] = b[].
    out->write( |{ lines( a[] ) }| ).
    LOOP AT a[] INTO DATA(x).
      out->write( |{ x }| ).
    ENDLOOP.
    CLEAR a[].
    IF a[] IS INITIAL.
      out->write( `empty` ).
    ENDIF.");
    assert_eq!(
        o,
        r"2
2
3
empty"
    );
}

#[test]
fn read_table_from_work_area() {
    let o = out("    DATA sorted TYPE tt_sorted.
    sorted = VALUE #( ( name = `b` qty = 2 ) ( name = `d` qty = 4 ) ).
    DATA(wa) = VALUE ty_row( name = `d` ).
    READ TABLE sorted FROM wa INTO DATA(r).
    out->write( |{ sy-subrc } { sy-tabix } { r-qty }| ).
    wa-name = `z`.
    READ TABLE sorted FROM wa TRANSPORTING NO FIELDS.
    out->write( |{ sy-subrc } { sy-tabix }| ).
    wa-name = `b`.
    READ TABLE sorted FROM wa REFERENCE INTO DATA(ref).
    out->write( |{ sy-subrc } { ref->qty }| ).");
    assert_eq!(
        o,
        r"0 2 4
8 3
0 2"
    );
}

#[test]
fn loop_using_the_primary_key() {
    let o = out("    DATA(ints) = VALUE tt_ints( ( 3 ) ( 1 ) ).
    DATA s TYPE string.
    LOOP AT ints INTO DATA(x) USING KEY primary_key WHERE table_line > 0.
      s = |{ s }{ x }|.
    ENDLOOP.
    out->write( s ).");
    assert_eq!(o, "31");
}

#[test]
fn secondary_keys() {
    let o = out(
        "    TYPES tt_keyed TYPE STANDARD TABLE OF ty_row WITH NON-UNIQUE KEY name
                       WITH NON-UNIQUE SORTED KEY by_qty COMPONENTS qty
                       WITH UNIQUE HASHED KEY by_name COMPONENTS name.
    DATA(rows) = VALUE tt_keyed( ( name = `c` qty = 3 ) ( name = `a` qty = 9 ) ( name = `b` qty = 1 ) ).
    DATA s TYPE string.
    LOOP AT rows INTO DATA(r) USING KEY by_qty WHERE qty > 1.
      s = |{ s } { r-name }{ sy-tabix }|.
    ENDLOOP.
    out->write( s ).
    READ TABLE rows INTO r WITH KEY by_qty COMPONENTS qty = 3.
    out->write( |{ sy-subrc } { sy-tabix } { r-name }| ).
    READ TABLE rows INTO r WITH KEY by_qty COMPONENTS qty = 5.
    out->write( |{ sy-subrc } { sy-tabix }| ).
    READ TABLE rows INTO r WITH TABLE KEY by_name COMPONENTS name = `a`.
    out->write( |{ sy-subrc } { sy-tabix } { r-qty }| ).
    out->write( |{ rows[ KEY by_name name = `b` ]-qty } { rows[ KEY by_qty COMPONENTS qty = 9 ]-name }| ).",
    );
    assert_eq!(
        o,
        r" c2 a3
0 2 c
4 3
0 0 9
1 a"
    );
}

#[test]
fn insert_with_assigning_and_reference_into() {
    let o = out("    DATA sorted TYPE tt_sorted.
    INSERT VALUE #( name = `m` qty = 1 ) INTO TABLE sorted ASSIGNING FIELD-SYMBOL(<r>).
    <r>-qty = 5.
    INSERT VALUE #( name = `a` ) INTO TABLE sorted REFERENCE INTO DATA(ref).
    ref->qty = 7.
    INSERT INITIAL LINE INTO TABLE sorted ASSIGNING <r>.
    out->write( |{ sy-tabix } [{ <r>-name }]| ).
    DATA(ints) = VALUE tt_ints( ( 1 ) ( 3 ) ).
    INSERT 2 INTO ints INDEX 2 ASSIGNING FIELD-SYMBOL(<i>).
    <i> = 20.
    DATA s TYPE string.
    LOOP AT sorted INTO DATA(x).
      s = |{ s } { x-name }{ x-qty }|.
    ENDLOOP.
    LOOP AT ints INTO DATA(n).
      s = |{ s } { n }|.
    ENDLOOP.
    out->write( s ).");
    assert_eq!(o, "1 []\n 0 a7 m5 1 20 3");
}

/// `LOOP AT` an expression: the table is evaluated once (a functional call, a table
/// expression, a constructor), and nested loops over expressions keep their own tables.
#[test]
fn loop_at_an_expression_evaluates_it_once() {
    assert_eq!(
        out("    DATA(lt) = VALUE tt_ints( ( 1 ) ( 2 ) ( 3 ) ).
    DATA lv_n TYPE i.
    LOOP AT VALUE tt_ints( FOR i = 1 UNTIL i > lines( lt ) ( i * 10 ) ) INTO DATA(x) WHERE table_line > 10.
      APPEND x TO lt.
      LOOP AT VALUE tt_ints( ( 7 ) ( 8 ) ) INTO DATA(y).
        lv_n = lv_n + y.
      ENDLOOP.
    ENDLOOP.
    out->write( |{ lines( lt ) } { lv_n } { lt[ 4 ] } { lt[ 5 ] }| )."),
        "5 30 20 30"
    );
    assert_eq!(
        out(
            "    DATA(lt) = VALUE tt_rows( ( name = `a` qty = 1 ) ( name = `b` qty = 2 ) ).
    LOOP AT CORRESPONDING tt_sorted( lt ) ASSIGNING FIELD-SYMBOL(<r>) FROM 2.
      out->write( |{ <r>-name } { sy-tabix }| ).
    ENDLOOP."
        ),
        "b 2"
    );
}

/// A table expression on the table a method call returns: `meth( )[ n ]`, `meth( )[ k = v
/// ]-comp`, also in `line_exists( )` and `line_index( )`.
#[test]
fn table_expressions_on_call_results() {
    let src = format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
{TYPES}
    METHODS rows RETURNING VALUE(rt) TYPE tt_rows.
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    out->write( |{{ rows( )[ 2 ]-name }} {{ rows( )[ name = `c` ]-qty }} {{ xsdbool( line_exists( rows( )[ name = `z` ] ) ) }}/{{ line_index( rows( )[ qty = 3 ] ) }}| ).
    TRY.
        DATA(ls) = rows( )[ 9 ].
      CATCH cx_sy_itab_line_not_found.
        out->write( `none` ).
    ENDTRY.
  ENDMETHOD.
  METHOD rows.
    rt = VALUE #( ( name = `a` qty = 1 ) ( name = `b` qty = 2 ) ( name = `c` qty = 3 ) ).
  ENDMETHOD.
ENDCLASS.
"
    );
    let mut r = Repository::new();
    r.add_file("zcl_t.clas.abap", &src).expect("loads");
    assert_eq!(
        r.run_classrun("ZCL_T", &mut NoDebugger).expect("runs"),
        "b 3 /3\nnone"
    );
}

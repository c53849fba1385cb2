//! Constructor expressions: `VALUE` with `BASE`, `FOR`, `LET`, `LINES OF`; `REDUCE`;
//! `CORRESPONDING`; `CAST` and `?=`.

use abap::{NoDebugger, Repository, RunError};

const DECL: &str = "    TYPES: BEGIN OF ty_row,
             name TYPE string,
             qty  TYPE i,
           END OF ty_row,
           tt_rows TYPE STANDARD TABLE OF ty_row WITH EMPTY KEY,
           BEGIN OF ty_other,
             qty   TYPE i,
             label TYPE string,
             extra TYPE c LENGTH 3,
           END OF ty_other,
           tt_other TYPE STANDARD TABLE OF ty_other WITH EMPTY KEY,
           tt_ints TYPE STANDARD TABLE OF i WITH EMPTY KEY,
           tt_strings TYPE STANDARD TABLE OF string WITH EMPTY KEY.";

const LOCALS: &str = "CLASS lcl_util DEFINITION.
  PUBLIC SECTION.
    CLASS-METHODS total IMPORTING it TYPE zcl_t=>tt_rows RETURNING VALUE(r) TYPE i.
    CLASS-METHODS label IMPORTING is TYPE zcl_t=>ty_other RETURNING VALUE(r) TYPE string.
ENDCLASS.
CLASS lcl_util IMPLEMENTATION.
  METHOD total.
    r = REDUCE #( INIT s = 0 FOR w IN it NEXT s = s + w-qty ).
  ENDMETHOD.
  METHOD label.
    r = |{ is-label }/{ is-qty }|.
  ENDMETHOD.
ENDCLASS.
CLASS lcl_animal DEFINITION.
  PUBLIC SECTION.
    METHODS name RETURNING VALUE(r) TYPE string.
ENDCLASS.
CLASS lcl_animal IMPLEMENTATION.
  METHOD name.
    r = `animal`.
  ENDMETHOD.
ENDCLASS.
CLASS lcl_dog DEFINITION INHERITING FROM lcl_animal.
  PUBLIC SECTION.
    METHODS bark RETURNING VALUE(r) TYPE string.
ENDCLASS.
CLASS lcl_dog IMPLEMENTATION.
  METHOD bark.
    r = `woof`.
  ENDMETHOD.
ENDCLASS.
";

fn run(main: &str) -> Result<String, RunError> {
    let src = format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
{DECL}
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{main}
  ENDMETHOD.
ENDCLASS.
"
    );
    let mut r = Repository::new();
    r.add_file("zcl_t.clas.abap", &src).expect("loads");
    r.add_file("zcl_t.clas.locals_imp.abap", LOCALS)
        .expect("locals load");
    r.run_classrun("ZCL_T", &mut NoDebugger)
}

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn value_base_and_lines_of() {
    let o = out("    DATA(a) = VALUE tt_ints( ( 1 ) ( 2 ) ).
    a = VALUE #( BASE a ( 3 ) ).
    DATA(b) = VALUE tt_ints( ( 0 ) ( LINES OF a ) ( 9 ) ).
    DATA s TYPE string.
    LOOP AT b INTO DATA(x).
      s = |{ s }{ x }|.
    ENDLOOP.
    DATA(r) = VALUE ty_row( name = `n` qty = 1 ).
    r = VALUE #( BASE r qty = 5 ).
    out->write( |{ s } { r-name } { r-qty }| ).");
    assert_eq!(o, "01239 n 5");
}

#[test]
fn value_for_in_with_where_index_and_let() {
    let o = out(
        "    DATA(rows) = VALUE tt_rows( ( name = `a` qty = 1 ) ( name = `b` qty = 5 ) ( name = `c` qty = 7 ) ).
    DATA(big) = VALUE tt_strings( FOR r IN rows INDEX INTO i WHERE ( qty > 2 )
                                  LET t = r-qty * 10 IN ( |{ i }:{ r-name }:{ t }| ) ).
    LOOP AT big INTO DATA(s).
      out->write( s ).
    ENDLOOP.
    DATA(copy) = VALUE tt_other( FOR <r> IN rows ( qty = <r>-qty label = <r>-name ) ).
    out->write( |{ lines( copy ) } { copy[ 3 ]-label }| ).",
    );
    assert_eq!(
        o,
        r"2:b:50
3:c:70
3 c"
    );
}

#[test]
fn value_for_conditional_iterations() {
    let o = out(
        "    DATA(sq) = VALUE tt_ints( FOR i = 1 UNTIL i > 4 ( i * i ) ).
    DATA(ev) = VALUE tt_ints( FOR j = 0 THEN j + 2 WHILE j < 7 ( j ) ).
    DATA(none) = VALUE tt_ints( FOR k = 5 WHILE k < 3 ( k ) ).
    DATA(once) = VALUE tt_ints( FOR k = 5 UNTIL k > 3 ( k ) ).
    DATA(grid) = VALUE tt_strings( FOR x = 1 UNTIL x > 2 FOR y = 1 UNTIL y > 2 ( |{ x }{ y }| ) ).
    DATA s TYPE string.
    LOOP AT sq INTO DATA(n).
      s = |{ s } { n }|.
    ENDLOOP.
    LOOP AT ev INTO n.
      s = |{ s } { n }|.
    ENDLOOP.
    LOOP AT grid INTO DATA(g).
      s = |{ s } { g }|.
    ENDLOOP.
    out->write( |{ s } / { lines( none ) } { lines( once ) }| ).",
    );
    assert_eq!(o, " 1 4 9 16 0 2 4 6 11 12 21 22 / 0 1");
}

#[test]
fn reduce_sums_and_concatenates() {
    let o = out(
        "    DATA(rows) = VALUE tt_rows( ( name = `a` qty = 1 ) ( name = `b` qty = 5 ) ( name = `c` qty = 7 ) ).
    DATA(total) = REDUCE i( INIT sum = 0 FOR r IN rows NEXT sum = sum + r-qty ).
    DATA(names) = REDUCE string( INIT txt = `` sep = `` FOR r IN rows
                                 NEXT txt = txt && sep && r-name sep = `,` ).
    DATA(fact) = REDUCE i( INIT f = 1 FOR i = 1 UNTIL i > 5 NEXT f = f * i ).
    DATA count TYPE i.
    count = REDUCE #( INIT c = 0 FOR r IN rows WHERE ( qty > 1 ) NEXT c += 1 ).
    out->write( |{ total } { names } { fact } { count }| ).",
    );
    assert_eq!(o, "13 a,b,c 120 2");
}

#[test]
fn helper_variables_do_not_leak() {
    let o = out("    DATA i TYPE i VALUE 42.
    DATA(l) = VALUE tt_ints( FOR i = 1 UNTIL i > 3 ( i ) ).
    DATA(l2) = VALUE tt_ints( FOR i = 7 UNTIL i > 8 ( i ) ).
    out->write( |{ i } { lines( l ) } { lines( l2 ) }| ).");
    assert_eq!(o, "42 3 2");
}

#[test]
fn corresponding_structures_and_tables() {
    let o = out("    DATA(r) = VALUE ty_row( name = `x` qty = 3 ).
    DATA o TYPE ty_other.
    o = CORRESPONDING #( r ).
    out->write( |{ o-qty } { o-label }| ).
    o = CORRESPONDING #( r MAPPING label = name ).
    out->write( |{ o-qty } { o-label }| ).
    o = CORRESPONDING #( r MAPPING label = name EXCEPT qty ).
    out->write( |{ o-qty } { o-label }| ).
    DATA(base) = VALUE ty_other( extra = 'abc' qty = 9 ).
    o = CORRESPONDING #( BASE ( base ) r ).
    out->write( |{ o-qty } { o-extra }| ).
    DATA(rows) = VALUE tt_rows( ( name = `a` qty = 1 ) ( name = `b` qty = 2 ) ).
    DATA(others) = CORRESPONDING tt_other( rows MAPPING label = name ).
    out->write( |{ lines( others ) } { others[ 2 ]-label } { others[ 2 ]-qty }| ).");
    assert_eq!(
        o,
        r"3 
3 x
0 x
3 abc
2 b 2"
    );
}

#[test]
fn cast_and_down_cast_assignment() {
    let o = out("    DATA animal TYPE REF TO lcl_animal.
    DATA dog TYPE REF TO lcl_dog.
    animal = NEW lcl_dog( ).
    dog ?= animal.
    out->write( dog->bark( ) ).
    out->write( CAST lcl_dog( animal )->bark( ) ).
    animal = NEW lcl_animal( ).
    TRY.
        dog ?= animal.
        out->write( `no error` ).
      CATCH cx_sy_move_cast_error INTO DATA(e).
        out->write( `cast error` ).
    ENDTRY.
    CLEAR animal.
    dog ?= animal.
    IF dog IS INITIAL.
      out->write( `initial` ).
    ENDIF.");
    assert_eq!(
        o,
        r"woof
woof
cast error
initial"
    );
}

#[test]
fn failed_cast_without_handler_dumps() {
    match run("    DATA dog TYPE REF TO lcl_dog.
    DATA(animal) = NEW lcl_animal( ).
    dog = CAST #( animal ).")
    {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "MOVE_CAST_ERROR"),
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn calls_chained_on_new_and_cast() {
    let o = out("    out->write( NEW lcl_dog( )->bark( ) ).
    DATA(a) = CAST lcl_animal( NEW lcl_dog( ) ).
    out->write( a->name( ) ).
    NEW lcl_dog( )->bark( ).
    out->write( NEW lcl_dog( )->name( ) && `!` ).");
    assert_eq!(
        o,
        r"woof
animal
animal!"
    );
}

#[test]
fn typeless_constructors_take_the_parameter_type() {
    let o = out(
        "    out->write( |{ lcl_util=>total( VALUE #( ( qty = 2 ) ( qty = 3 ) ) ) }| ).
    DATA(r) = VALUE ty_row( name = `n` qty = 4 ).
    out->write( lcl_util=>label( is = CORRESPONDING #( r MAPPING label = name ) ) ).
    out->write( lcl_util=>label( VALUE #( label = `v` ) ) ).",
    );
    assert_eq!(
        o,
        r"5
n/4
v/0"
    );
}

#[test]
fn move_corresponding_keeps_other_components() {
    let o = out("    DATA(r) = VALUE ty_row( name = `n` qty = 4 ).
    DATA(t) = VALUE ty_other( label = `keep` extra = 'abc' qty = 1 ).
    MOVE-CORRESPONDING r TO t.
    out->write( |{ t-qty } { t-label } { t-extra }| ).
    DATA(rows) = VALUE tt_rows( ( qty = 1 ) ( qty = 2 ) ).
    DATA(others) = VALUE tt_other( ( qty = 9 ) ).
    MOVE-CORRESPONDING rows TO others KEEPING TARGET LINES.
    out->write( |{ lines( others ) }| ).
    MOVE-CORRESPONDING rows TO others.
    out->write( |{ lines( others ) } { others[ 1 ]-qty }| ).");
    assert_eq!(
        o,
        r"4 keep abc
3
2 1"
    );
}

#[test]
fn let_in_cond_switch_conv() {
    let o = out(
        "    DATA(n) = 7.
    DATA(s) = COND string( LET half = n / 2 IN WHEN half > 3 THEN |big { half }| ELSE |small { half }| ).
    DATA(w) = SWITCH string( LET m = n MOD 3 IN m WHEN 1 THEN `one` ELSE `other` ).
    DATA(c) = CONV string( LET a = `x` b = `y` IN a && b ).
    out->write( |{ s } { w } { c }| ).",
    );
    assert_eq!(o, "big 4 one xy");
}

#[test]
fn filter_with_where_except_and_in() {
    let o = out(
        "    DATA(rows) = VALUE tt_rows( ( name = `a` qty = 1 ) ( name = `b` qty = 5 ) ( name = `c` qty = 7 ) ).
    DATA(big) = FILTER #( rows WHERE qty > 2 ).
    DATA(small) = FILTER tt_rows( rows EXCEPT WHERE qty > 2 ).
    DATA(names) = VALUE tt_other( ( label = `c` ) ( label = `a` ) ).
    DATA(picked) = FILTER #( rows IN names WHERE name = label ).
    DATA(rest) = FILTER #( rows EXCEPT IN names WHERE name = label ).
    out->write( |{ lines( big ) } { lines( small ) } { picked[ 1 ]-name }{ picked[ 2 ]-name } { rest[ 1 ]-name }| ).",
    );
    assert_eq!(o, "2 1 ac b");
}

#[test]
fn constructor_keywords_as_data_object_names() {
    let o = out("    DATA value TYPE i VALUE 3.
    DATA ref TYPE i VALUE 4.
    DATA cast TYPE string VALUE `c`.
    DATA(sum) = value + ref.
    value = value * 2.
    out->write( |{ sum } { value } { cast }| ).");
    assert_eq!(o, "7 6 c");
}

#[test]
fn value_lines_of_with_a_row_range() {
    let o = out("    DATA(a) = VALUE tt_ints( ( 1 ) ( 2 ) ( 3 ) ( 4 ) ).
    DATA(b) = VALUE tt_ints( ( LINES OF a FROM 2 TO 3 ) ( LINES OF a FROM 4 ) ( LINES OF a TO 1 ) ).
    DATA s TYPE string.
    LOOP AT b INTO DATA(x).
      s = |{ s }{ x }|.
    ENDLOOP.
    out->write( s ).");
    assert_eq!(o, "2341");
}

/// `CONV`, `COND` and `SWITCH` name types declared with `TYPES` (also a component `ty-comp`),
/// and `REDUCE`/`VALUE` a component type, as they name built-in ones.
#[test]
fn constructors_name_declared_types_and_component_types() {
    assert_eq!(
        out("    TYPES ty_code TYPE c LENGTH 3.
    DATA(lv_code) = CONV ty_code( `ABCDE` ).
    DATA(lv_qty) = CONV ty_row-qty( '7.6' ).
    DATA(lv_none) = COND ty_code( WHEN 1 = 2 THEN `X` ).
    DATA(lv_pick) = SWITCH ty_other-extra( lv_qty WHEN 8 THEN `eight!` ELSE `?` ).
    DATA(lv_sum) = REDUCE ty_row-qty( INIT s = 0 FOR i = 1 UNTIL i > 4 NEXT s = s + i ).
    out->write( |{ lv_code }/{ lv_qty }/{ strlen( lv_none ) }/{ lv_pick }/{ lv_sum }| )."),
        "ABC/8/0/eig/10"
    );
}

/// `VALUE #( itab[ … ] OPTIONAL )` / `… DEFAULT def )`: the row, its component, or when there
/// is none the initial value or the default, in the row's type.
#[test]
fn value_of_a_table_expression_with_optional_and_default() {
    assert_eq!(
        out(
            "    DATA(lt) = VALUE tt_rows( ( name = `a` qty = 1 ) ( name = `b` qty = 2 ) ).
    DATA(ls_none) = VALUE #( lt[ name = `z` ] OPTIONAL ).
    DATA(ls_b) = VALUE #( lt[ name = `b` ] OPTIONAL ).
    DATA(lv_qty) = VALUE #( lt[ name = `z` ]-qty DEFAULT '7.6' ).
    DATA(ls_def) = VALUE ty_row( lt[ 5 ] DEFAULT VALUE #( name = `none` ) ).
    out->write( |[{ ls_none-name }/{ ls_none-qty }] { ls_b-qty } { lv_qty } { ls_def-name }| )."
        ),
        "[/0] 2 8 none"
    );
}

/// `THROW cx( … )` in a branch of `COND`/`SWITCH` raises the exception when the branch is the
/// one chosen, and only then.
#[test]
fn cond_and_switch_branches_can_throw() {
    assert_eq!(
        out("    DATA(lv_a) = COND i( WHEN 1 = 1 THEN 5 ELSE THROW cx_sy_zerodivide( ) ).
    TRY.
        DATA(lv_b) = SWITCH string( lv_a WHEN 1 THEN `one` ELSE THROW cx_sy_itab_line_not_found( ) ).
      CATCH cx_sy_itab_line_not_found INTO DATA(lx).
        out->write( |{ lv_a } caught, { xsdbool( lx IS BOUND ) }| ).
    ENDTRY."),
        "5 caught, X"
    );
}

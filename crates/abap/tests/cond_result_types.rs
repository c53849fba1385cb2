//! The type of `COND #( … )` and `SWITCH #( … )` where the operand position fixes none (an
//! inline declaration, a string template): the type of the operand after the first THEN
//! (ABAP documentation, COND and SWITCH: "an operand with a statically identifiable type must
//! be specified after the first THEN. This type is then used"), to which the chosen operand
//! is converted. Values worked out by hand next to each test.

use crate::harness::{class_source, dump, run, run_class};

fn out(main: &str) -> String {
    run(main).unwrap_or_else(|e| panic!("run failed: {e:?}"))
}

#[test]
fn a_text_literal_after_the_first_then_fixes_c_of_its_length() {
    // `'ab '` is c LENGTH 3: the ELSE text `abcdef` becomes `abc`, in a declaration and in a
    // template alike; `' x'` keeps its leading blank; SWITCH with `'a'` first is c LENGTH 1.
    let o = out("DATA(s) = COND #( WHEN 1 = 2 THEN 'ab ' ELSE 'abcdef' ).
out->write( |[{ s }] [{ COND #( WHEN 1 = 2 THEN 'ab ' ELSE 'abcdef' ) }] [{ COND #( WHEN 1 = 1 THEN ' x' ) }]| ).
DATA(w) = SWITCH #( 2 WHEN 1 THEN 'a' ELSE 'bcd' ).
out->write( |[{ w }]| ).");
    assert_eq!(o, "[abc] [abc] [ x]\n[b]");
}

#[test]
fn a_number_or_a_data_object_after_the_first_then_fixes_its_type() {
    // `1` is i: the text '2.7' becomes 3 (rounded). `c3` is c LENGTH 3: `long text` becomes
    // `lon`. `a - b` of two i is i: '4.6' becomes 5.
    let o = out("DATA(n) = COND #( WHEN 1 = 2 THEN 1 ELSE '2.7' ).
DATA c3 TYPE c LENGTH 3 VALUE 'a'.
DATA(t) = COND #( WHEN 1 = 2 THEN c3 ELSE `long text` ).
DATA(a) = 7.
DATA(b) = 2.
DATA(d) = COND #( WHEN 1 = 2 THEN a - b ELSE '4.6' ).
out->write( |{ n } [{ t }] { d }| ).");
    assert_eq!(o, "3 [lon] 5");
}

#[test]
fn a_template_first_makes_a_string_without_the_trailing_blanks_of_a_text_field() {
    // The first THEN is a string: the c field `'c  '` loses its trailing blanks.
    let o = out("DATA(s) = COND #( WHEN 1 = 2 THEN |t| ELSE 'c  ' ).
out->write( |[{ s }]{ strlen( s ) }| ).");
    assert_eq!(o, "[c]1");
}

#[test]
fn no_branch_taken_gives_the_initial_value_of_that_type() {
    // c LENGTH 3 initial is three blanks (strlen 0, none in a template); string initial is
    // empty; i initial is 0.
    let o = out("DATA(c) = COND #( WHEN 1 = 2 THEN 'xyz' ).
DATA(s) = COND #( WHEN 1 = 2 THEN `x` ).
DATA(i) = SWITCH #( 3 WHEN 1 THEN 10 ).
out->write( |[{ c }]{ strlen( c ) }[{ s }]{ i }| ).");
    assert_eq!(o, "[]0[]0");
}

#[test]
fn a_named_type_passes_itself_to_value_hash_after_then() {
    // `COND ty( … THEN VALUE #( … ) )`: VALUE # takes ty.
    let o = out("TYPES: BEGIN OF ty,
         id TYPE i,
       END OF ty.
DATA(v) = COND ty( WHEN 1 = 1 THEN VALUE #( id = 4 ) ).
out->write( |{ v-id }| ).");
    assert_eq!(o, "4");
}

#[test]
fn a_known_target_type_still_wins() {
    // The target is a string: the ELSE text stays whole.
    let o = out("DATA s TYPE string.
s = COND #( WHEN 1 = 2 THEN 'ab ' ELSE 'abcdef' ).
out->write( s ).");
    assert_eq!(o, "abcdef");
}

#[test]
fn a_call_first_has_its_result_type() {
    // strlen( ) gives i: '7.5' becomes 8 (rounded half up). m( ) returns c LENGTH 2:
    // `xyz` becomes `xy`. to_upper( ) gives a string: the c field loses its trailing blanks.
    let source = class_source(
        "TYPES ty_c2 TYPE c LENGTH 2.
    METHODS m RETURNING VALUE(r) TYPE ty_c2.",
        "DATA(a) = COND #( WHEN 1 = 2 THEN strlen( `x` ) ELSE '7.5' ).
DATA(b) = COND #( WHEN 1 = 2 THEN m( ) ELSE `xyz` ).
DATA(c) = COND #( WHEN 1 = 2 THEN to_upper( `q` ) ELSE 'r  ' ).
out->write( |{ a } [{ b }] [{ c }]{ strlen( c ) }| ).",
        "METHOD m.
    r = 'mm'.
  ENDMETHOD.",
    );
    let o = run_class(&source).unwrap_or_else(|e| panic!("run failed: {e:?}"));
    assert_eq!(o, "8 [xy] [r]1");
}

#[test]
fn a_table_row_first_has_the_line_type_and_new_hash_the_reference_type() {
    // The line type of string_table is string: the ELSE text `x  ` loses its trailing
    // blanks. `o` is REF TO zcl_t: `NEW #( )` in the ELSE creates a zcl_t.
    let o = out("DATA(t) = VALUE string_table( ( `a` ) ).
DATA(s) = COND #( WHEN 1 = 2 THEN t[ 1 ] ELSE 'x  ' ).
DATA o TYPE REF TO zcl_t.
DATA(r) = COND #( WHEN 1 = 2 THEN o ELSE NEW #( ) ).
out->write( |[{ s }] { xsdbool( r IS BOUND ) }| ).");
    assert_eq!(o, "[x] X");
}

#[test]
fn a_first_operand_whose_type_only_running_tells_is_not_supported() {
    // A p calculation takes its decimals from the values: refused rather than typed by the
    // chosen operand.
    let (id, text) = dump(run("DATA p TYPE p LENGTH 8 DECIMALS 2 VALUE '1.5'.
DATA(s) = COND #( WHEN 1 = 2 THEN p * 2 ELSE 5 )."));
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
    assert!(text.contains("first THEN"), "{text}");
    // When the first operand is the one chosen, its own type is the result's.
    assert_eq!(
        out("DATA p TYPE p LENGTH 8 DECIMALS 2 VALUE '1.5'.
DATA(s) = COND #( WHEN 1 = 1 THEN p * 2 ELSE 5 ).
out->write( |{ s }| )."),
        "3.00"
    );
}

//! Signs on operands: `+`/`-` before any operand (a literal, a variable, a functional call,
//! a parenthesised expression), and numeric literals written with their sign (`+1`, `-1`:
//! the ABAP documentation's numeric literals "can be prefixed with a plus or minus sign").

use crate::harness::{class_source, run, run_class};

fn out(main: &str) -> String {
    run(main).unwrap_or_else(|e| panic!("run failed: {e:?}"))
}

#[test]
fn a_literal_with_a_plus_sign_is_a_number() {
    // `+1` is 1; `2 - +1` is 1; `2 * -3` is -6.
    let o = out("DATA(a) = +1.
DATA(b) = 2 - +1.
DATA(c) = 2 * -3.
out->write( |{ a } { b } { c }| ).");
    assert_eq!(o, "1 1 -6");
}

#[test]
fn signs_before_variables_calls_and_parentheses() {
    // x = 4: `- - x` is 4, `+ x` 4; `- lines( t )` with two rows is -2; `- ( 2 + 3 ) * 2`
    // is -10; `- p` of the packed 1.25 is -1.25.
    let o = out("DATA(x) = 4.
DATA(t) = VALUE string_table( ( `a` ) ( `b` ) ).
DATA p TYPE p LENGTH 8 DECIMALS 2 VALUE '1.25'.
DATA(a) = - - x.
DATA(b) = + x.
DATA(c) = - lines( t ).
DATA(d) = - ( 2 + 3 ) * 2.
DATA(e) = - p.
out->write( |{ a } { b } { c } { d } { e }| ).");
    assert_eq!(o, "4 4 -2 -10 -1.25");
}

#[test]
fn signed_actual_parameters() {
    // m returns exp * 10: `exp = +1` gives 10, `exp = -1` -10, `- v` with v = 5 gives -50.
    let source = class_source(
        "METHODS m IMPORTING exp TYPE i RETURNING VALUE(r) TYPE i.",
        "DATA(v) = 5.
out->write( |{ m( exp = +1 ) } { m( exp = -1 ) } { m( - v ) }| ).",
        "METHOD m.
  r = exp * 10.
ENDMETHOD.",
    );
    assert_eq!(
        run_class(&source).unwrap_or_else(|e| panic!("{e:?}")),
        "10 -10 -50"
    );
}

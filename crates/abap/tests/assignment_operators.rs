//! The assignment operators `+=` `-=` `*=` `/=` `&&=`: `a op= b` calculates `a op b` in the
//! calculation type of both operands and converts the result to `a`'s type.

use crate::harness::run;

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn arithmetic_operators_convert_to_the_target() {
    let o = out("DATA i TYPE i VALUE 5.
DATA p TYPE p LENGTH 8 DECIMALS 2 VALUE '1.5'.
DATA n TYPE n LENGTH 4 VALUE '0012'.
i += 3.
i -= 1.
i *= 3.
i /= 5.
p /= 4.
n += 5.
out->write( |{ i } { p } { n }| ).");
    // 5 + 3 - 1 = 7, * 3 = 21, / 5 = 4.2 rounds to 4; 1.5 / 4 = 0.375 rounds to 0.38.
    assert_eq!(o, "4 0.38 0017");
}

#[test]
fn division_by_zero_and_overflow_raise() {
    let o = out("DATA i TYPE i VALUE 7.
DATA z TYPE i.
TRY.
    i /= z.
  CATCH cx_sy_zerodivide.
    out->write( `zero divide` ).
ENDTRY.
z /= 0.
out->write( |{ i } { z }| ).
i = 2147483647.
TRY.
    i += 1.
  CATCH cx_sy_arithmetic_overflow.
    out->write( `overflow` ).
ENDTRY.");
    // 0 / 0 is 0 in ABAP; the target keeps its value when the calculation fails.
    assert_eq!(o, "zero divide\n7 0\noverflow");
}

#[test]
fn concatenation_operator_appends() {
    let o = out("DATA s TYPE string VALUE `ab`.
DATA c TYPE c LENGTH 4 VALUE 'ab'.
s &&= `cd`.
s &&= `e`.
c &&= 'xyz'.
out->write( |{ s }/{ c }/| ).");
    // Trailing blanks of c operands do not count; the result is cut to c's length.
    assert_eq!(o, "abcde/abxy/");
}

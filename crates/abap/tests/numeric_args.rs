//! Numeric built-in functions with named arguments: `nmax`/`nmin`, `ipow` and `round( val
//! dec|prec mode )`, run through `Repository::run_classrun`.

use crate::harness::run;

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn numeric_extremes_and_integer_power() {
    let main = "DATA p TYPE p LENGTH 8 DECIMALS 2 VALUE '2.50'.\nout->write( |{ nmax( val1 = 3 val2 = 7 val3 = -1 ) } { nmin( val1 = 3 val2 = 7 val3 = -1 ) } { nmax( val1 = 2 val2 = p ) } { ipow( base = 2 exp = 10 ) } { ipow( base = p exp = 2 ) }| ).";
    assert_eq!(out(main), "7 -1 2.50 1024 6.25");
}

#[test]
fn round_with_decimals_precision_and_modes() {
    let main = r"DATA p TYPE p LENGTH 8 DECIMALS 3 VALUE '1234.565'.
out->write( |{ round( val = p dec = 2 ) }| ).
out->write( |{ round( val = p dec = 2 mode = cl_abap_math=>round_half_even ) }| ).
out->write( |{ round( val = p dec = 2 mode = cl_abap_math=>round_down ) }| ).
out->write( |{ round( val = p prec = 3 ) }| ).
out->write( |{ round( val = p dec = -2 mode = cl_abap_math=>round_up ) }| ).
out->write( |{ round( val = -1 * p dec = 1 mode = cl_abap_math=>round_floor ) }| ).";
    assert_eq!(
        out(main),
        r"1234.570
1234.560
1234.560
1230.000
1300.000
-1234.600"
    );
}

#[test]
fn ipow_with_huge_exponents_ends_quickly() {
    let main = r"DATA one TYPE p LENGTH 8 DECIMALS 2 VALUE '-1'.
DATA zero TYPE p LENGTH 8 DECIMALS 2.
out->write( |{ ipow( base = one exp = 2000000001 ) } { ipow( base = zero exp = 2000000000 ) }| ).
DATA two TYPE p LENGTH 8 DECIMALS 2 VALUE 2.
TRY.
    out->write( ipow( base = two exp = 2000000000 ) ).
  CATCH cx_sy_arithmetic_overflow.
    out->write( `overflow` ).
ENDTRY.";
    assert_eq!(out(main), "-1.00 0.00\noverflow");
}

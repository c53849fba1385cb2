//! Bit expressions (`BIT-AND`, `BIT-OR`, `BIT-XOR`, `BIT-NOT`) on `x` and `xstring`, and the
//! relational operators for bit patterns (`O`, `Z`, `M`).

use crate::harness::{dump, run};

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

const FIELDS: &str = "DATA a TYPE x LENGTH 1 VALUE 'F0'.
DATA b TYPE x LENGTH 1 VALUE '3C'.
DATA c TYPE x LENGTH 1.
";

#[test]
fn bit_operators_combine_bytes() {
    let o = out(&format!(
        "{FIELDS}c = a BIT-AND b.
out->write( c ).
c = a BIT-OR b.
out->write( c ).
c = a BIT-XOR b.
out->write( c ).
c = BIT-NOT a.
out->write( c ).
DATA h1 TYPE x LENGTH 1 VALUE 'B5'.
DATA h2 TYPE x LENGTH 1 VALUE '5B'.
c = BIT-NOT ( h1 BIT-XOR h2 ).
out->write( c )."
    ));
    // F0 & 3C, F0 | 3C, F0 ^ 3C, ~F0; ~(B5 ^ 5B) = ~EE.
    assert_eq!(o, "30\nFC\nCC\n0F\n11");
}

#[test]
fn bit_not_binds_tightest_and_bit_or_weakest() {
    let o = out(&format!(
        "{FIELDS}DATA m TYPE x LENGTH 1 VALUE '0F'.
c = a BIT-OR b BIT-AND m.
out->write( c ).
c = BIT-NOT a BIT-AND b.
out->write( c ).
c = a BIT-XOR b BIT-OR m.
out->write( c )."
    ));
    // F0 | (3C & 0F) = FC; (~F0) & 3C = 0C; (F0 ^ 3C) | 0F = CF.
    assert_eq!(o, "FC\n0C\nCF");
}

#[test]
fn the_longest_operand_gives_the_length() {
    let o = out(&format!(
        "{FIELDS}DATA l TYPE x LENGTH 2 VALUE '1234'.
DATA(r) = l BIT-OR a.
DATA xs TYPE xstring.
xs = BIT-NOT a BIT-AND l.
c = l BIT-XOR b.
out->write( |{{ r }} {{ xstrlen( r ) }} {{ xs }} {{ c }}| )."
    ));
    // a is padded to F000: 1234 | F000; ~F000 & 1234 = 0FFF & 1234; c takes the first byte.
    assert_eq!(o, "F234 2 0234 2E");
}

#[test]
fn bit_pattern_comparisons() {
    let o = out(&format!(
        "{FIELDS}CONSTANTS: high TYPE x LENGTH 1 VALUE 'C0',
           high_low TYPE x LENGTH 1 VALUE 'C1',
           low TYPE x LENGTH 1 VALUE '0F',
           across TYPE x LENGTH 1 VALUE '18',
           none TYPE x LENGTH 1 VALUE '00',
           two TYPE x LENGTH 2 VALUE 'F0FF'.
DATA(r) = ``.
r = r && boolc( a O high ) && boolc( a O high_low ) && boolc( a Z low ).
r = r && boolc( a M across ) && boolc( a M high ) && boolc( a M none ).
r = r && boolc( a O none ) && boolc( a Z none ) && boolc( a Z two ).
out->write( r )."
    ));
    // a = F0. Past a's length the mask meets hexadecimal 0: a Z F0FF is false (F0 meets F0).
    assert_eq!(o, "X XX  XX ");
}

#[test]
fn operands_that_are_not_byte_like_are_not_guessed() {
    let (id, text) = dump(run("DATA i TYPE i VALUE 3.
DATA x TYPE x LENGTH 1.
x = i BIT-AND i."));
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED", "{text}");
}

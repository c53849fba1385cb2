//! `WRITE source TO destination`: list formatting into a `c` field (numbers right-aligned with
//! sign column and thousands separators when they fit, the cutoff rules, dates and times in
//! the user's format, justification options), run through `Repository::run_classrun`.

use abap::RunError;

use crate::harness::run;

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn numbers_are_right_aligned_grouped_and_cut_from_the_left() {
    let main = r"DATA text TYPE c LENGTH 40.
DATA num TYPE i VALUE -1234.
WRITE num TO text.
out->write( |[{ text }]| ).
DATA c11 TYPE c LENGTH 11.
WRITE 1234567 TO c11.
out->write( |[{ c11 }]| ).
DATA c8 TYPE c LENGTH 8.
WRITE 1234567 TO c8.
out->write( |[{ c8 }]| ).
DATA c5 TYPE c LENGTH 5.
WRITE 1234567 TO c5.
out->write( |[{ c5 }]| ).
DATA p TYPE p LENGTH 8 DECIMALS 2 VALUE '1234.5'.
DATA c12 TYPE c LENGTH 12.
WRITE p TO c12.
out->write( |[{ c12 }]| ).
WRITE p TO c12 LEFT-JUSTIFIED.
out->write( |[{ c12 }]| ).
WRITE p TO c12 NO-GROUPING.
out->write( |[{ c12 }]| ).
WRITE 0 TO c12 NO-ZERO.
out->write( |[{ c12 }]| ).";
    assert_eq!(
        out(main),
        format!(
            r"[{}1,234-]
[ 1,234,567]
[1234567]
[*4567]
[   1,234.50]
[1,234.50]
[    1234.50]
[]",
            " ".repeat(34)
        )
    );
}

#[test]
fn text_dates_and_times() {
    let main = r"DATA c10 TYPE c LENGTH 10.
DATA d TYPE d VALUE '20240315'.
WRITE d TO c10.
out->write( |[{ c10 }]| ).
DATA t TYPE t VALUE '235930'.
WRITE t TO c10.
out->write( |[{ c10 }]| ).
WRITE 'ab' TO c10 RIGHT-JUSTIFIED.
out->write( |[{ c10 }]| ).
WRITE `abcdefghijkl` TO c10.
out->write( |[{ c10 }]| ).
WRITE 'ab' TO c10 CENTERED.
out->write( |[{ c10 }]| ).";
    assert_eq!(
        out(main),
        r"[15.03.2024]
[23:59:30]
[        ab]
[abcdefghij]
[    ab]"
    );
}

#[test]
fn decimals_round_and_date_masks_use_the_users_separator() {
    let main = r"DATA p TYPE p LENGTH 8 DECIMALS 3 VALUE '1234.5678'.
DATA c12 TYPE c LENGTH 12.
WRITE p TO c12 DECIMALS 1.
out->write( |[{ c12 }]| ).
WRITE p TO c12 DECIMALS 0.
out->write( |[{ c12 }]| ).
DATA d TYPE d VALUE '20240315'.
DATA c8 TYPE c LENGTH 8.
WRITE d TO c8 DD/MM/YY.
out->write( |[{ c8 }]| ).
WRITE d TO c12 MM/DD/YYYY.
out->write( |[{ c12 }]| ).
WRITE d TO c8 YYMMDD.
out->write( |[{ c8 }]| ).";
    assert_eq!(
        out(main),
        r"[    1,234.6]
[      1,235]
[15.03.24]
[03.15.2024]
[240315]"
    );
}

#[test]
fn other_destinations_and_options_are_not_supported() {
    for main in [
        "DATA s TYPE string.\nWRITE 5 TO s.",
        r"DATA c TYPE c LENGTH 8.
DATA d TYPE d VALUE '20240315'.
WRITE d TO c.",
        "DATA c TYPE c LENGTH 8.\nWRITE 5 TO c CURRENCY 'EUR'.",
        "DATA c TYPE c LENGTH 8.\nWRITE 5 TO c DECIMALS 2.",
    ] {
        match run(main) {
            Err(RunError::Dump { id, .. }) => assert_eq!(id, "SIMULATOR_NOT_SUPPORTED"),
            other => panic!("expected a dump, got {other:?}"),
        }
    }
}

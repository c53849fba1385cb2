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
    let main = "DATA text TYPE c LENGTH 40.\nDATA num TYPE i VALUE -1234.\nWRITE num TO text.\nout->write( |[{ text }]| ).\nDATA c11 TYPE c LENGTH 11.\nWRITE 1234567 TO c11.\nout->write( |[{ c11 }]| ).\nDATA c8 TYPE c LENGTH 8.\nWRITE 1234567 TO c8.\nout->write( |[{ c8 }]| ).\nDATA c5 TYPE c LENGTH 5.\nWRITE 1234567 TO c5.\nout->write( |[{ c5 }]| ).\nDATA p TYPE p LENGTH 8 DECIMALS 2 VALUE '1234.5'.\nDATA c12 TYPE c LENGTH 12.\nWRITE p TO c12.\nout->write( |[{ c12 }]| ).\nWRITE p TO c12 LEFT-JUSTIFIED.\nout->write( |[{ c12 }]| ).\nWRITE p TO c12 NO-GROUPING.\nout->write( |[{ c12 }]| ).\nWRITE 0 TO c12 NO-ZERO.\nout->write( |[{ c12 }]| ).";
    assert_eq!(
        out(main),
        format!(
            "[{}1,234-]\n[ 1,234,567]\n[1234567]\n[*4567]\n[   1,234.50]\n[1,234.50]\n[    1234.50]\n[]",
            " ".repeat(34)
        )
    );
}

#[test]
fn text_dates_and_times() {
    let main = "DATA c10 TYPE c LENGTH 10.\nDATA d TYPE d VALUE '20240315'.\nWRITE d TO c10.\nout->write( |[{ c10 }]| ).\nDATA t TYPE t VALUE '235930'.\nWRITE t TO c10.\nout->write( |[{ c10 }]| ).\nWRITE 'ab' TO c10 RIGHT-JUSTIFIED.\nout->write( |[{ c10 }]| ).\nWRITE `abcdefghijkl` TO c10.\nout->write( |[{ c10 }]| ).\nWRITE 'ab' TO c10 CENTERED.\nout->write( |[{ c10 }]| ).";
    assert_eq!(
        out(main),
        "[15.03.2024]\n[23:59:30]\n[        ab]\n[abcdefghij]\n[    ab]"
    );
}

#[test]
fn decimals_round_and_date_masks_use_the_users_separator() {
    let main = "DATA p TYPE p LENGTH 8 DECIMALS 3 VALUE '1234.5678'.\nDATA c12 TYPE c LENGTH 12.\nWRITE p TO c12 DECIMALS 1.\nout->write( |[{ c12 }]| ).\nWRITE p TO c12 DECIMALS 0.\nout->write( |[{ c12 }]| ).\nDATA d TYPE d VALUE '20240315'.\nDATA c8 TYPE c LENGTH 8.\nWRITE d TO c8 DD/MM/YY.\nout->write( |[{ c8 }]| ).\nWRITE d TO c12 MM/DD/YYYY.\nout->write( |[{ c12 }]| ).\nWRITE d TO c8 YYMMDD.\nout->write( |[{ c8 }]| ).";
    assert_eq!(
        out(main),
        "[    1,234.6]\n[      1,235]\n[15.03.24]\n[03.15.2024]\n[240315]"
    );
}

#[test]
fn other_destinations_and_options_are_not_supported() {
    for main in [
        "DATA s TYPE string.\nWRITE 5 TO s.",
        "DATA c TYPE c LENGTH 8.\nDATA d TYPE d VALUE '20240315'.\nWRITE d TO c.",
        "DATA c TYPE c LENGTH 8.\nWRITE 5 TO c CURRENCY 'EUR'.",
        "DATA c TYPE c LENGTH 8.\nWRITE 5 TO c DECIMALS 2.",
    ] {
        match run(main) {
            Err(RunError::Dump { id, .. }) => assert_eq!(id, "SIMULATOR_NOT_SUPPORTED"),
            other => panic!("expected a dump, got {other:?}"),
        }
    }
}

//! `WRITE` to a report's list: output lengths, positions, `NO-GAP`, formatting options,
//! `FORMAT` and `TOP-OF-PAGE`, and the additions outside the subset.

use abap::{NoDebugger, Repository, RunError};

fn run(body: &str) -> Result<String, RunError> {
    let mut r = Repository::new();
    r.add_file(
        "zr.prog.abap",
        &format!(
            r"REPORT zr.
{body}
"
        ),
    )
    .expect("loads");
    r.run_report("ZR", &mut NoDebugger)
}

fn list(body: &str) -> String {
    match run(body) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn outputs_follow_each_other_after_one_blank_in_their_output_length() {
    assert_eq!(
        list(
            r"DATA lv_c TYPE c LENGTH 6 VALUE 'ab'.
DATA lv_i TYPE i VALUE -42.
DATA lv_p TYPE p LENGTH 4 DECIMALS 2 VALUE '1234.5'.
START-OF-SELECTION.
  WRITE: lv_c, lv_i, lv_p, 'x'.
  WRITE: / 'a' NO-GAP, 'b', 'c'."
        ),
        // c(6), i (11 places, sign last), p(4) with 2 decimals (9 places), then the literal.
        "ab             42- 1,234.50  x\nab c"
    );
}

#[test]
fn positions_and_output_lengths() {
    assert_eq!(
        list(
            r"START-OF-SELECTION.
  WRITE: /5 'Name', 20 'Amount'.
  WRITE: /(4) 'truncated', AT 3 'X'.
  WRITE: /3(5) 12345678, sy-uline(6), sy-vline."
        ),
        r"    Name           Amount
trXn
  *5678 ------ |"
    );
}

#[test]
fn formatting_options_of_write() {
    assert_eq!(
        list(
            r"DATA lv_p TYPE p LENGTH 8 DECIMALS 2 VALUE '-1234567.891'.
DATA lv_d TYPE d VALUE '20240229'.
DATA lv_z TYPE i.
START-OF-SELECTION.
  WRITE: / lv_p LEFT-JUSTIFIED, / lv_p NO-GROUPING NO-SIGN, / lv_p DECIMALS 0.
  WRITE: / lv_d, lv_d DD/MM/YY, / '[' NO-GAP, lv_z NO-ZERO NO-GAP, ']'.
  WRITE: / 'abc' RIGHT-JUSTIFIED COLOR COL_HEADING INTENSIFIED ON."
        ),
        r"1,234,567.89-
      1234567.89
       1,234,568-
29.02.2024 29.02.24
[           ]
abc"
    );
}

#[test]
fn format_changes_nothing_and_top_of_page_comes_first() {
    assert_eq!(
        list(
            r"TOP-OF-PAGE.
  WRITE / 'Header'.
  ULINE.
START-OF-SELECTION.
  FORMAT COLOR COL_HEADING INTENSIFIED OFF.
  WRITE 'body'.
  FORMAT RESET.
  SKIP.
  WRITE / 'end'."
        ),
        format!(
            r"Header
{}
body

end",
            "-".repeat(83)
        )
    );
}

#[test]
fn additions_outside_the_subset_end_the_run() {
    for body in [
        "START-OF-SELECTION.\n  WRITE 'a' UNDER 'b'.",
        r"DATA lv_p TYPE p DECIMALS 2.
START-OF-SELECTION.
  WRITE lv_p CURRENCY 'EUR'.",
        "START-OF-SELECTION.\n  WRITE 'X' AS CHECKBOX.",
        "START-OF-SELECTION.\n  FORMAT HOTSPOT ON COLOR 5 FOO.",
    ] {
        match run(body) {
            Err(RunError::Dump { id, .. }) => assert_eq!(id, "SIMULATOR_NOT_SUPPORTED", "{body}"),
            other => panic!("{body}: expected a dump, got {other:?}"),
        }
    }
}

#[test]
fn positions_and_lengths_beyond_the_line_size_are_refused() {
    for body in [
        "START-OF-SELECTION.\n  WRITE /99999999999 'x'.",
        "START-OF-SELECTION.\n  WRITE AT 1024 'x'.",
        "START-OF-SELECTION.\n  WRITE /(5000000) 'x'.",
    ] {
        match run(body) {
            Err(RunError::Dump { id, .. }) => assert_eq!(id, "SIMULATOR_NOT_SUPPORTED", "{body}"),
            other => panic!("{body}: expected a dump, got {other:?}"),
        }
    }
    assert_eq!(
        list("START-OF-SELECTION.\n  WRITE AT 1023 'x'."),
        format!("{}x", " ".repeat(1022))
    );
}

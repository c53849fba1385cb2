//! `PARAMETERS` of a report: global variables that start with their `DEFAULT` value, as when
//! the report is submitted without showing its selection screen (the simulator shows none).
#![allow(clippy::result_large_err)] // RunError is the crate's contract type

use abap::{NoDebugger, Repository};

fn report(src: &str) -> String {
    let mut r = Repository::new();
    r.add_file("zr.prog.abap", src).expect("loads");
    match r.run_report("ZR", &mut NoDebugger) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn parameters_start_with_their_default_converted_to_their_type() {
    let out = report(
        "REPORT zr.
PARAMETERS p_top TYPE i DEFAULT 3 OBLIGATORY.
PARAMETERS: p_name(5) TYPE c DEFAULT 'abcdefg' LOWER CASE,
            p_date TYPE d DEFAULT '20240229' MEMORY ID dat,
            p_none TYPE string,
            p_amt TYPE p LENGTH 8 DECIMALS 2 DEFAULT '12.345'.
START-OF-SELECTION.
  p_top = p_top + 1.
  WRITE: / |{ p_top } { p_name } { p_date DATE = ISO } [{ p_none }] { p_amt }|.",
    );
    assert_eq!(out, "4 abcde 2024-02-29 [] 12.35");
}

#[test]
fn checkboxes_and_radio_buttons_are_flags() {
    let out = report(
        "REPORT zr.
PARAMETERS: p_test AS CHECKBOX DEFAULT 'X',
            p_log AS CHECKBOX USER-COMMAND log,
            p_a RADIOBUTTON GROUP one,
            p_b RADIOBUTTON GROUP one,
            p_x RADIOBUTTON GROUP two,
            p_y RADIOBUTTON GROUP two DEFAULT 'X'.
START-OF-SELECTION.
  WRITE: / |[{ p_test }][{ p_log }][{ p_a }][{ p_b }][{ p_x }][{ p_y }]|.",
    );
    // (A blank `c` field is empty in a template.)
    assert_eq!(out, "[X][][X][][][X]");
}

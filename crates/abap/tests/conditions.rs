//! Debugger conditions (`abap::check_condition`, `StopContext::condition_holds`): parsed by
//! the interpreter's expression parser and judged by its comparison rules, so values that an
//! `f64` cannot hold (`int8` beyond 2^53, `p` with 18 digits) compare exactly.

use abap::Resume;

use crate::harness::{on_stop, repo};

const PROGRAM: &str = r#"CLASS zcl_cond DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    CLASS-METHODS inner IMPORTING iv_depth TYPE i.
    CLASS-METHODS side_effect RETURNING VALUE(rv) TYPE i.
    CLASS-DATA gv_calls TYPE i.
ENDCLASS.

CLASS zcl_cond IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    DATA lv_big TYPE int8 VALUE 9007199254740993.
    DATA lv_amount TYPE p LENGTH 16 DECIMALS 2 VALUE '1234567890123456.79'.
    DATA lv_count TYPE i VALUE 2.
    DATA lv_code TYPE c LENGTH 10 VALUE 'A001'.
    DATA lv_rate TYPE p LENGTH 8 DECIMALS 2 VALUE '12.50'.
    DATA lt_rows TYPE STANDARD TABLE OF i WITH EMPTY KEY.
    APPEND 7 TO lt_rows.
    out->write( lv_count ).
    inner( 1 ).
  ENDMETHOD.

  METHOD inner.
    DATA lv_count TYPE i VALUE 40.
    RETURN.
  ENDMETHOD.

  METHOD side_effect.
    gv_calls = gv_calls + 1.
    rv = gv_calls.
  ENDMETHOD.
ENDCLASS.
"#;

/// Judges `conditions` at the first stop on line `line`, in frame `frame`.
fn judged(line: u32, frame: usize, conditions: &[&str]) -> Vec<Result<bool, String>> {
    let mut verdicts = Vec::new();
    let mut hook = on_stop(|ctx| {
        if ctx.location().line == line && verdicts.is_empty() {
            verdicts = conditions
                .iter()
                .map(|c| ctx.condition_holds(frame, c))
                .collect();
        }
        Resume::Run
    });
    repo(&[("zcl_cond.clas.abap", PROGRAM)])
        .run_classrun("ZCL_COND", &mut hook)
        .expect("runs");
    assert_eq!(verdicts.len(), conditions.len(), "never stopped on {line}");
    verdicts
}

/// Line of `out->write( lv_count )` in `PROGRAM`.
const WRITE_LINE: u32 = 18;
/// Line of `RETURN.` in `inner`.
const INNER_LINE: u32 = 24;

#[test]
fn conditions_are_judged_as_abap_judges_them() {
    let cases: &[(&str, bool)] = &[
        ("LV_COUNT = 2", true),
        ("lv_count > 1 AND lv_count < 3", true),
        ("LV_COUNT GE 3 OR lv_count LT -40", false),
        ("LV_CODE = 'A001'", true),
        ("LV_CODE <> `A001`", false),
        ("LV_RATE >= '12.5'", true),
        ("lv_count IS INITIAL", false),
        ("NOT ( lv_count IS NOT INITIAL )", false),
        ("lines( lt_rows ) = 1", true),
        ("sy-subrc = 0", true),
        // 2^53 + 1 and 2^53 are the same f64; ABAP tells them apart.
        ("lv_big = 9007199254740992", false),
        ("lv_big > 9007199254740992", true),
        ("lv_big = 9007199254740993", true),
        // 18 significant digits: beyond an f64.
        ("lv_amount = '1234567890123456.78'", false),
        ("lv_amount > '1234567890123456.78'", true),
        ("lv_amount = '1234567890123456.79'", true),
    ];
    let conditions: Vec<&str> = cases.iter().map(|(c, _)| *c).collect();
    let verdicts = judged(WRITE_LINE, 0, &conditions);
    for ((c, want), got) in cases.iter().zip(verdicts) {
        assert_eq!(got, Ok(*want), "{c}");
    }
}

#[test]
fn a_condition_is_judged_in_the_frame_it_names() {
    let verdicts = judged(INNER_LINE, 0, &["lv_count = 40", "iv_depth = 1"]);
    assert_eq!(verdicts, [Ok(true), Ok(true)]);
    let verdicts = judged(INNER_LINE, 1, &["lv_count = 2", "lv_big > 0"]);
    assert_eq!(verdicts, [Ok(true), Ok(true)]);
    let verdicts = judged(INNER_LINE, 2, &["lv_count = 2"]);
    assert!(verdicts[0].is_err(), "{verdicts:?}");
}

/// Judging runs no ABAP code: method calls and `NEW` are refused, and nothing changes.
#[test]
fn conditions_that_cannot_be_judged_are_errors_and_change_nothing() {
    let verdicts = judged(
        WRITE_LINE,
        0,
        &[
            "lv_nope = 1",
            "zcl_cond=>side_effect( ) = 1",
            "side_effect( ) = 1",
            "NEW zcl_cond( ) IS BOUND",
            "lv_count = 'abc'",
            "zcl_cond=>gv_calls = 0",
        ],
    );
    for v in &verdicts[..5] {
        assert!(v.is_err(), "{verdicts:?}");
    }
    assert_eq!(verdicts[5], Ok(true), "{verdicts:?}");
}

#[test]
fn malformed_conditions_are_refused() {
    for bad in [
        "",
        "LV_COUNT =",
        "= 1",
        "( LV_COUNT = 1",
        "'abc",
        "LV_COUNT = 1 LV_CODE",
    ] {
        assert!(abap::check_condition(bad).is_err(), "{bad:?}");
    }
    assert!(abap::check_condition(&format!("lv_s = '{}'", "x".repeat(1000))).is_err());
    assert_eq!(
        abap::check_condition("ME->MV_X = 1 AND <fs> IS INITIAL"),
        Ok(())
    );
}

/// Nesting is refused beyond the expression parser's bound, with an error and without
/// overflowing the stack; nesting within it is accepted.
#[test]
fn deep_nesting_is_refused() {
    let parens = |n: usize| format!("{}lv_count = 1{}", "( ".repeat(n), " )".repeat(n));
    let nots = |n: usize| format!("{}lv_count = 1", "NOT ".repeat(n));
    assert_eq!(abap::check_condition(&parens(10)), Ok(()));
    assert_eq!(abap::check_condition(&nots(10)), Ok(()));
    let refused = abap::check_condition(&parens(200)).expect_err("200 parentheses");
    assert!(refused.contains("nested too deeply"), "{refused}");
    let refused = abap::check_condition(&nots(200)).expect_err("200 NOTs");
    assert!(refused.contains("nested too deeply"), "{refused}");
}

//! String template formatting options: WIDTH, ALIGN, PAD, CASE, DECIMALS, SIGN, NUMBER, ZERO
//! and ALPHA, with exact results, and the cases outside the subset.

use abap::RunError;

use crate::harness::run;

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

fn dump_text(main: &str) -> String {
    match run(main) {
        Err(RunError::Dump { id, text, .. }) => format!("{id}: {text}"),
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn width_align_pad() {
    let main = r"    DATA w TYPE i VALUE 7.
    out->write( |[{ `ab` WIDTH = 5 }]| ).
    out->write( |[{ `ab` WIDTH = 5 ALIGN = RIGHT }]| ).
    out->write( |[{ `ab` ALIGN = CENTER WIDTH = 6 }]| ).
    out->write( |[{ `ab` WIDTH = 5 ALIGN = RIGHT PAD = '*' }]| ).
    out->write( |[{ `abcdef` WIDTH = 3 }]| ).
    out->write( |[{ `ab` PAD = '*' ALIGN = RIGHT }]| ).
    out->write( |[{ `ab` WIDTH = w PAD = '.' }]| ).
    out->write( |[{ 42 WIDTH = 5 }]| ).
    out->write( |[{ 42 WIDTH = 6 ALIGN = RIGHT PAD = '0' }]| ).";
    assert_eq!(
        out(main),
        r"[ab   ]
[   ab]
[  ab  ]
[***ab]
[abcdef]
[ab]
[ab.....]
[42   ]
[000042]"
    );
}

#[test]
fn case_option() {
    let main = "    out->write( |{ `Hello` CASE = UPPER } { `Hello` CASE = LOWER } { `Hello` CASE = RAW }| ).";
    assert_eq!(out(main), "HELLO hello Hello");
}

#[test]
fn decimals_sign_number_zero() {
    let main = r"    DATA p TYPE p LENGTH 8 DECIMALS 3 VALUE '-2.345'.
    DATA big TYPE p LENGTH 10 DECIMALS 2 VALUE '-1234567.5'.
    DATA n TYPE i VALUE 5.
    DATA z TYPE i.
    out->write( |{ n DECIMALS = 2 } { p DECIMALS = 2 } { p DECIMALS = 0 }| ).
    out->write( |{ 1234567 NUMBER = USER } { big NUMBER = USER } { big NUMBER = RAW }| ).
    out->write( |[{ n SIGN = LEFTPLUS }][{ n SIGN = LEFTSPACE }][{ n SIGN = RIGHTPLUS }][{ n SIGN = RIGHTSPACE }][{ n SIGN = RIGHT }]| ).
    out->write( |[{ p SIGN = RIGHT }][{ p SIGN = LEFTPLUS }][{ n SIGN = RIGHTSPACE DECIMALS = 1 }]| ).
    out->write( |[{ z ZERO = NO }][{ z ZERO = YES }][{ n ZERO = NO }][{ z ZERO = NO WIDTH = 3 }]| ).";
    assert_eq!(
        out(main),
        r"5.00 -2.35 -2
1,234,567 -1,234,567.50 -1234567.50
[+5][ 5][5+][5 ][5]
[2.345-][-2.345][5.0 ]
[][0][5][   ]"
    );
}

#[test]
fn decimals_on_binary_floats() {
    let main = r"    DATA f TYPE f VALUE '1.5'.
    DATA g TYPE f VALUE '-1234.5678'.
    out->write( |{ f DECIMALS = 2 } { g DECIMALS = 2 } { g DECIMALS = 0 NUMBER = USER }| ).";
    assert_eq!(out(main), "1.50 -1234.57 -1,235");
}

#[test]
fn xsd_format() {
    let main = r"    DATA d TYPE d VALUE '20240301'.
    DATA t TYPE t VALUE '235930'.
    out->write( |{ d XSD = YES } { t XSD = YES } { -5 XSD = YES } { `a b` XSD = YES } { d XSD = NO }| ).";
    assert_eq!(out(main), "2024-03-01 23:59:30 -5 a b 20240301");
}

#[test]
fn alpha_conversion() {
    let main = r"    DATA kunnr TYPE c LENGTH 10 VALUE '4711'.
    DATA padded TYPE c LENGTH 10 VALUE '0000004711'.
    DATA name TYPE c LENGTH 6 VALUE 'AB12'.
    out->write( |{ kunnr ALPHA = IN } { padded ALPHA = OUT } { name ALPHA = IN } { kunnr ALPHA = RAW }| ).
    out->write( |[{ `00815` ALPHA = OUT }][{ `815` ALPHA = IN WIDTH = 6 }][{ `00815` ALPHA = OUT WIDTH = 2 }]| ).";
    assert_eq!(
        out(main),
        "0000004711 4711       AB12   4711\n[815  ][000815][815]"
    );
}

#[test]
fn options_from_data_objects() {
    let main = "    DATA a TYPE string VALUE `RIGHT`.\n    out->write( |[{ `x` WIDTH = 3 ALIGN = (a) }]| ).";
    assert_eq!(out(main), "[  x]");
}

#[test]
fn unpinned_cases_are_not_supported() {
    for main in [
        "    out->write( |{ `ab` WIDTH = 5 ALIGN = CENTER }| ).",
        "    DATA z TYPE i.\n    out->write( |{ z SIGN = LEFTPLUS }| ).",
        "    out->write( |[{ ` 12a` ALPHA = IN }]| ).",
        "    DATA n TYPE i VALUE -5.\n    out->write( |{ n SIGN = RIGHTSPACE }| ).",
        "    out->write( |{ `ab` DECIMALS = 2 }| ).",
        "    DATA p TYPE p LENGTH 8 DECIMALS 2.\n    out->write( |{ p XSD = YES }| ).",
        "    out->write( |{ 5 CURRENCY = 'EUR' }| ).",
    ] {
        let t = dump_text(main);
        assert!(
            t.starts_with("SIMULATOR_NOT_SUPPORTED: not supported by the simulator:"),
            "{main}: {t}"
        );
    }
}

#[test]
fn huge_width_is_refused() {
    assert!(
        dump_text("    out->write( |{ `a` WIDTH = 2000000000 }| ).")
            .starts_with("STRING_SIZE_TOO_LARGE")
    );
}

mod never_panic {
    use super::run;
    use proptest::prelude::*;

    const TYPES: &[&str] = &[
        "i",
        "int8",
        "p LENGTH 8 DECIMALS 2",
        "f",
        "decfloat34",
        "c LENGTH 6",
        "string",
        "n LENGTH 4",
        "d",
        "t",
        "x LENGTH 2",
    ];
    const SOURCES: &[&str] = &["0", "-1234567", "`12.345`", "`0042`", "`AbC`", "'20240301'"];
    const OPTS: &[&str] = &[
        "WIDTH = 8",
        "WIDTH = -3",
        "ALIGN = CENTER",
        "ALIGN = RIGHT",
        "PAD = '0'",
        "CASE = UPPER",
        "DECIMALS = 3",
        "DECIMALS = -1",
        "DECIMALS = 99",
        "SIGN = RIGHTPLUS",
        "SIGN = LEFTSPACE",
        "NUMBER = USER",
        "ZERO = NO",
        "ALPHA = IN",
        "ALPHA = OUT",
        "XSD = YES",
        "STYLE = SCIENTIFIC",
        "DATE = ISO",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Any combination of formatting options on any elementary type ends normally or
        /// with a runtime error, never with a panic.
        #[test]
        fn template_options_never_panic(
            ty in prop::sample::select(TYPES),
            src in prop::sample::select(SOURCES),
            o1 in prop::sample::select(OPTS),
            o2 in prop::sample::select(OPTS),
            o3 in prop::sample::select(OPTS),
        ) {
            let main = format!(
                r"    DATA a TYPE {ty}.
    TRY.
        a = {src}.
      CATCH cx_root.
    ENDTRY.
    out->write( |[{{ a {o1} {o2} {o3} }}]| )."
            );
            let _ = run(&main);
        }
    }
}

#[test]
fn alpha_as_the_whole_template_takes_the_target_length() {
    let main = r"    DATA c10 TYPE c LENGTH 10.
    DATA c3 TYPE c LENGTH 3.
    DATA s TYPE string.
    DATA nr TYPE string VALUE `4711`.
    c10 = |{ nr ALPHA = IN }|.
    s = |{ nr ALPHA = IN }|.
    out->write( |[{ c10 }][{ s }]| ).
    c3 = |{ `0042` ALPHA = OUT }|.
    c10 = |{ `0042` ALPHA = OUT }|.
    out->write( |[{ c3 }][{ c10 }]| ).
    out->write( |{ nr ALPHA = IN }| ).";
    assert_eq!(
        out(main),
        r"[0000004711][4711]
[42][42]
4711"
    );
}

#[test]
fn timestamp_option() {
    assert_eq!(
        out(
            "DATA lv_ts TYPE timestamp VALUE '20240229073005'.\nout->write( |{ lv_ts TIMESTAMP = ISO }/{ lv_ts TIMESTAMP = SPACE }/{ lv_ts TIMESTAMP = USER }| )."
        ),
        "2024-02-29T07:30:05/2024-02-29 07:30:05/29.02.2024 07:30:05"
    );
    assert!(
        dump_text("DATA lv_i TYPE i.\nout->write( |{ lv_i TIMESTAMP = ISO }| ).")
            .starts_with("SIMULATOR_NOT_SUPPORTED")
    );
}

//! Elementary types beyond `c`, `string`, `i` and `p`: `d`, `t`, `n`, `x`, `xstring`, `int8`,
//! `f`, `decfloat16/34` — declarations, conversions, calculation types, `**`, and what the
//! debugger shows for them.

use abap::{Repository, Resume, RunError, VarRecord};

use crate::harness::{self, class_source, on_stop, run};

fn repo(main: &str) -> Repository {
    harness::repo(&[("zcl_t.clas.abap", &class_source("", main, ""))])
}

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

fn dump(main: &str) -> (String, String) {
    match run(main) {
        Err(RunError::Dump { id, output, .. }) => (id, output),
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn date_arithmetic_counts_days() {
    let main = r"    DATA d TYPE d VALUE '20240228'.
    d = d + 1.
    out->write( |{ d }| ).
    d = d + 1.
    out->write( |{ d }| ).
    DATA(days) = CONV d( '20240301' ) - CONV d( '20240101' ).
    out->write( |{ days }| ).
    DATA i TYPE i.
    i = CONV d( '00010102' ).
    out->write( |{ i }| ).
    d = 730121.
    out->write( |{ d }| ).
    d = d - 730121.
    out->write( |{ d }| ).
    IF d IS INITIAL.
      out->write( `initial` ).
    ENDIF.
    d = '20241231'.
    IF d > '20240101'.
      out->write( `later` ).
    ENDIF.";
    assert_eq!(
        out(main),
        r"20240229
20240301
60
1
20000101
00000000
initial
later"
    );
}

#[test]
fn time_arithmetic_wraps_at_midnight() {
    let main = r"    DATA t TYPE t VALUE '235930'.
    t = t + 45.
    out->write( |{ t }| ).
    t = t - 60.
    out->write( |{ t }| ).
    DATA secs TYPE i.
    secs = CONV t( '010203' ).
    out->write( |{ secs }| ).
    DATA(diff) = CONV t( '120000' ) - CONV t( '113000' ).
    out->write( |{ diff }| ).
    DATA t0 TYPE t.
    out->write( |{ t0 }| ).";
    assert_eq!(
        out(main),
        r"000015
235915
3723
1800
000000"
    );
}

#[test]
fn numeric_text_keeps_digits_right_aligned() {
    let main = r"    DATA n TYPE n LENGTH 6.
    n = 'A12B3'.
    out->write( |{ n }| ).
    n = 42.
    out->write( |{ n }| ).
    n = -42.
    out->write( |{ n }| ).
    n = 1234567.
    out->write( |{ n }| ).
    DATA n2(4) TYPE n VALUE '12'.
    n2 = n2 + 1.
    out->write( |{ n2 }| ).
    DATA n3 TYPE n LENGTH 3.
    IF n3 IS INITIAL.
      out->write( |{ n3 } initial| ).
    ENDIF.
    DATA c TYPE c LENGTH 6.
    c = n2.
    out->write( |<{ c }>| ).";
    assert_eq!(
        out(main),
        r"000123
000042
000042
234567
0013
000 initial
<0013>"
    );
}

#[test]
fn bytes_convert_to_and_from_hex_text_and_integers() {
    let main = r"    DATA x TYPE x LENGTH 4 VALUE 'FF'.
    out->write( |{ x }| ).
    DATA i TYPE i.
    i = x.
    out->write( |{ i }| ).
    x = 255.
    out->write( |{ x }| ).
    x = -2.
    out->write( |{ x }| ).
    DATA h(1) TYPE x VALUE 'A0'.
    i = h.
    out->write( |{ i }| ).
    DATA xs TYPE xstring.
    xs = `48656C6C6F`.
    out->write( |{ xs }| ).
    DATA s TYPE string.
    s = xs.
    out->write( s ).
    xs = 'ABZ'.
    out->write( |{ xs }| ).
    IF xs IS NOT INITIAL.
      out->write( `set` ).
    ENDIF.";
    assert_eq!(
        out(main),
        r"FF000000
-16777216
000000FF
FFFFFFFE
160
48656C6C6F
48656C6C6F
AB
set"
    );
}

#[test]
fn int8_calculates_beyond_the_range_of_i() {
    let main = r"    DATA big TYPE int8 VALUE 2147483647.
    big = big + 1.
    out->write( |{ big }| ).
    DATA(twice) = big * 2.
    out->write( |{ twice }| ).
    big = '-9223372036854775808'.
    out->write( |{ big }| ).
    DATA s TYPE string.
    s = CONV int8( -5 ).
    out->write( |<{ s }>| ).";
    assert_eq!(
        out(main),
        r"2147483648
4294967296
-9223372036854775808
<5->"
    );
}

#[test]
fn int8_and_i_overflow_dump() {
    let (id, output) = dump(
        r"    DATA i TYPE i VALUE 2147483647.
    out->write( `before` ).
    i = i + 1.",
    );
    assert_eq!(
        (id.as_str(), output.as_str()),
        ("COMPUTE_INT_PLUS_OVERFLOW", "before")
    );
    let (id, _) = dump("    DATA big TYPE int8 VALUE 9223372036854775807.\n    big = big + 1.");
    assert_eq!(id, "COMPUTE_INT_PLUS_OVERFLOW");
    let (id, _) = dump(
        r"    DATA i TYPE i.
    DATA big TYPE int8 VALUE 3000000000.
    i = big.",
    );
    assert_eq!(id, "CONVT_OVERFLOW");
}

#[test]
fn float_calculation_and_text_forms() {
    let main = r"    DATA f TYPE f VALUE '1.5'.
    f = f * 2.
    out->write( |{ f }| ).
    DATA s TYPE string.
    s = f.
    out->write( s ).
    f = 1 / 3.
    out->write( |{ f }| ).
    f = '-6.25E-2'.
    out->write( |{ f }| ).
    DATA i TYPE i.
    i = CONV f( '2.5' ).
    out->write( |{ i }| ).
    DATA p TYPE p LENGTH 8 DECIMALS 2.
    p = CONV f( '0.125' ).
    out->write( |{ p }| ).";
    assert_eq!(
        out(main),
        r"3
3.0000000000000000E+00
0.33333333333333331
-0.0625
3
0.13"
    );
}

#[test]
fn power_operator_is_right_associative_and_float() {
    let main = r"    DATA(r) = 2 ** 10.
    out->write( |{ r }| ).
    DATA i TYPE i.
    i = 2 ** 3 ** 2.
    out->write( |{ i }| ).
    i = 3 * 2 ** 2.
    out->write( |{ i }| ).
    DATA p TYPE p LENGTH 8 DECIMALS 3.
    p = 2 ** -1.
    out->write( |{ p }| ).
    DATA df TYPE decfloat34.
    df = '1.1' ** 2.
    out->write( |{ df }| ).";
    assert_eq!(
        out(main),
        r"1024
512
12
0.500
1.21"
    );
}

#[test]
fn decfloat_keeps_34_digits() {
    let main = r"    DATA df TYPE decfloat34.
    df = 1 / 3.
    out->write( |{ df }| ).
    df = '1.5E2'.
    out->write( |{ df }| ).
    DATA(sum) = df + CONV decfloat34( '0.25' ).
    out->write( |{ sum }| ).
    DATA d16 TYPE decfloat16.
    d16 = 2 / 3.
    out->write( |{ d16 }| ).
    DATA s TYPE string.
    s = CONV decfloat34( '-12.50' ).
    out->write( s ).";
    assert_eq!(
        out(main),
        format!(
            r"0.{}
150
150.25
0.6666666666666667
-12.50",
            "3".repeat(34)
        )
    );
}

#[test]
fn system_date_and_ddic_names() {
    let main = r"    DATA d TYPE datum.
    DATA t TYPE uzeit.
    d = sy-datum.
    t = sy-uzeit.
    d = d + 1.
    out->write( |{ d } { t }| ).
    DATA d2 TYPE sydatum.
    d2 = d - 366.
    out->write( |{ d2 }| ).";
    assert_eq!(out(main), "20240102 120000\n20230101");
}

/// At `ENDMETHOD`: sets `set` (id, text) when given, then reads the records of `names`.
fn at_endmethod(
    main: &str,
    names: &[&str],
    set: Option<(&str, &str)>,
) -> (Vec<VarRecord>, Option<Result<VarRecord, String>>) {
    let ids: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let (mut records, mut set_result) = (Vec::new(), None);
    let mut hook = on_stop(|ctx| {
        if ctx.statement() == "ENDMETHOD" {
            if let Some((id, v)) = set {
                set_result = Some(ctx.set_value(0, id, v));
            }
            records = ctx.variables(0, &ids);
        }
        Resume::Run
    });
    if let Err(e) = repo(main).run_classrun("ZCL_T", &mut hook) {
        panic!("run failed: {e:?}");
    }
    (records, set_result)
}

fn records(main: &str, names: &[&str]) -> Vec<VarRecord> {
    at_endmethod(main, names, None).0
}

/// `(VALUE, HEX_VALUE, TECHNICAL_TYPE, META_TYPE, LENGTH)` of each record.
fn shown(r: &[VarRecord]) -> Vec<(String, String, String, String, u32)> {
    r.iter()
        .map(|r| {
            (
                r.value.clone(),
                r.hex_value.clone(),
                r.technical_type.clone(),
                r.meta_type.clone(),
                r.length,
            )
        })
        .collect()
}

fn row(v: &str, h: &str, t: &str, m: &str, l: u32) -> (String, String, String, String, u32) {
    (v.into(), h.into(), t.into(), m.into(), l)
}

#[test]
fn debugger_shows_each_type() {
    let main = r"    DATA d TYPE d VALUE '20260111'.
    DATA t TYPE t VALUE '123456'.
    DATA n TYPE n LENGTH 4 VALUE '42'.
    DATA x TYPE x LENGTH 2 VALUE 'AB01'.
    DATA xs TYPE xstring.
    DATA big TYPE int8 VALUE -42.
    DATA f TYPE f VALUE '12.5'.
    DATA df TYPE decfloat34 VALUE '-1.25'.
    xs = 'CAFE'.";
    let r = records(main, &["D", "T", "N", "X", "XS", "BIG", "F", "DF"]);
    assert_eq!(
        shown(&r),
        vec![
            row(
                "20260111",
                "32003000320036003000310031003100",
                "D",
                "simple",
                8
            ),
            row("123456", "310032003300340035003600", "T", "simple", 6),
            row("0042", "3000300034003200", "N", "simple", 4),
            row("AB01", "AB01", "X", "simple", 2),
            row("CAFE", "CAFE", "XString", "string", 2),
            row("42-", "D6FFFFFFFFFFFFFF", "INT8", "simple", 8),
            row(
                "1.2500000000000000E+01",
                "0000000000002940",
                "F",
                "simple",
                8
            ),
            row("-1.25", "", "DECFLOAT34", "simple", 16),
        ]
    );
}

#[test]
fn setting_a_value_converts_with_move_rules() {
    let main = r"    DATA d TYPE d VALUE '20260111'.
    DATA n TYPE n LENGTH 4.
    out->write( |{ d }| ).";
    for (id, text, value) in [("D", "20261231", "20261231"), ("N", "x7y", "0007")] {
        match at_endmethod(main, &[], Some((id, text))).1 {
            Some(Ok(r)) => assert_eq!(r.value, value),
            other => panic!("set_value failed: {other:?}"),
        }
    }
    assert!(matches!(
        at_endmethod(main, &[], Some(("N", ""))).1,
        Some(Ok(_))
    ));
}

#[test]
fn template_date_and_time_options() {
    let main = r"    DATA d TYPE d VALUE '20240301'.
    DATA t TYPE t VALUE '074505'.
    DATA style TYPE string VALUE `ISO`.
    out->write( |{ d DATE = ISO } { d DATE = RAW } { d DATE = USER }| ).
    out->write( |{ t TIME = ISO } { t TIME = RAW } { t time = (style) }| ).
    out->write( |{ CONV decfloat34( '1.50' ) STYLE = SCALE_PRESERVING } { CONV f( 8 ) STYLE = SCIENTIFIC }| ).";
    assert_eq!(
        out(main),
        r"2024-03-01 20240301 01.03.2024
07:45:05 074505 07:45:05
1.50 8.0000000000000000E+00"
    );
}

#[test]
fn unknown_template_options_are_not_supported() {
    let (id, _) = dump("    DATA d TYPE d.\n    out->write( |{ d DATE = BOGUS }| ).");
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
    let (id, _) = dump("    DATA i TYPE i.\n    out->write( |{ i DATE = ISO }| ).");
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
}

#[test]
fn numeric_functions_keep_the_argument_type() {
    let main = r"    DATA p TYPE p LENGTH 8 DECIMALS 2 VALUE '-2.50'.
    DATA f TYPE f VALUE '2.5'.
    DATA i TYPE i VALUE -7.
    out->write( |{ ceil( p ) } { floor( p ) } { trunc( p ) } { frac( p ) } { abs( p ) } { sign( p ) }| ).
    out->write( |{ ceil( f ) } { floor( f ) } { abs( CONV f( -3 ) ) } { sqrt( CONV f( 16 ) ) }| ).
    out->write( |{ abs( i ) } { sign( i ) } { ceil( i ) }| ).
    out->write( |{ round( val = p dec = 0 ) } { round( val = CONV f( '1.25' ) dec = 1 ) } { round( val = 1250 dec = -2 ) }| ).
    DATA big TYPE int8 VALUE -5.
    out->write( |{ abs( big ) } { sqrt( 2 ) }| ).";
    assert_eq!(
        out(main),
        r"-2.00 -3.00 -2.00 -0.50 2.50 -1
3 2 3 4
7 -1 -7
-3.00 1.3 1300
5 1.4142135623730951"
    );
}

#[test]
fn math_domain_errors_are_catchable() {
    let main = r"    TRY.
        DATA(r) = sqrt( -1 ).
      CATCH cx_sy_arg_out_of_domain.
        out->write( `domain` ).
    ENDTRY.";
    assert_eq!(out(main), "domain");
}

#[test]
fn clock_statements_use_the_run_clock_in_utc() {
    let main = r"    DATA ts TYPE timestamp.
    DATA tsl TYPE timestampl.
    DATA t TYPE t.
    GET TIME STAMP FIELD ts.
    GET TIME STAMP FIELD tsl.
    GET TIME FIELD t.
    out->write( |{ ts } { tsl } { t }| ).
    CONVERT TIME STAMP ts TIME ZONE 'UTC' INTO DATE DATA(d) TIME DATA(tm) DAYLIGHT SAVING TIME DATA(dst).
    out->write( |{ d } { tm } <{ dst }> { sy-subrc }| ).
    d = d + 1.
    CONVERT DATE d TIME '235959' INTO TIME STAMP ts TIME ZONE space.
    out->write( |{ ts }| ).
    ts = 20241332000000.
    CONVERT TIME STAMP ts TIME ZONE 'UTC' INTO DATE d.
    out->write( |{ sy-subrc } { d }| ).
    GET TIME.";
    assert_eq!(
        out(main),
        r"20240101120000 20240101120000.0000000 120000
20240101 120000 <> 0
20240102235959
12 20240102"
    );
    let (id, _) = dump(
        "    DATA ts TYPE timestamp.\n    CONVERT TIME STAMP ts TIME ZONE 'CET' INTO DATE DATA(d).",
    );
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
}

#[test]
fn context_info_gives_the_run_clock() {
    let main = r"    DATA(today) = cl_abap_context_info=>get_system_date( ).
    DATA(now) = cl_abap_context_info=>get_system_time( ).
    today = today + 1.
    out->write( |{ today } { now TIME = ISO } { cl_abap_context_info=>get_user_time_zone( ) }| ).";
    assert_eq!(out(main), "20240102 12:00:00 UTC");
}

mod never_panic {
    use super::*;
    use proptest::prelude::*;

    const TYPES: &[&str] = &[
        "d",
        "t",
        "n LENGTH 3",
        "x LENGTH 2",
        "xstring",
        "int8",
        "f",
        "decfloat16",
        "decfloat34",
        "i",
        "p LENGTH 3 DECIMALS 1",
        "c LENGTH 4",
        "string",
    ];

    const SOURCES: &[&str] = &[
        "'20240229'",
        "'99991231'",
        "'ABCDEFGH'",
        "'FF'",
        "`-1.5E300`",
        "`1E-400`",
        "'  12- '",
        "`9223372036854775807`",
        "-2147483648",
        "99999999999",
        "`0.000000000000000000000000000000000000001`",
        "`123456789012345678901234567890123456`",
        "''",
        "`abc`",
    ];

    const OPS: &[&str] = &["+", "-", "*", "/", "DIV", "MOD", "**"];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any move, calculation, comparison and template of the elementary types ends
        /// normally or with a runtime error, never with a panic.
        #[test]
        fn conversions_and_calculations_never_panic(
            t1 in prop::sample::select(TYPES),
            t2 in prop::sample::select(TYPES),
            src in prop::sample::select(SOURCES),
            op in prop::sample::select(OPS),
            opt in prop::sample::select(&["", " DATE = ISO", " TIME = ISO", " STYLE = SCIENTIFIC"][..]),
        ) {
            let main = format!(
                r"    DATA a TYPE {t1}.
    DATA b TYPE {t2}.
    TRY.
        a = {src}.
      CATCH cx_root.
    ENDTRY.
    TRY.
        b = a.
      CATCH cx_root.
    ENDTRY.
    TRY.
        b = a {op} b.
      CATCH cx_root.
    ENDTRY.
    TRY.
        DATA(c) = b {op} a.
        out->write( |{{ c{opt} }}{{ abs( b ) }}{{ ceil( a ) }}| ).
      CATCH cx_root.
    ENDTRY.
    IF a > b OR a IS INITIAL.
      out->write( b ).
    ENDIF."
            );
            let _ = run(&main);
        }
    }
}

#[test]
fn never_panic_program_shape_runs() {
    let main = r"    DATA a TYPE d.
    DATA b TYPE int8.
    TRY.
        a = '20240229'.
      CATCH cx_root.
    ENDTRY.
    TRY.
        b = a.
      CATCH cx_root.
    ENDTRY.
    TRY.
        b = a - b.
      CATCH cx_root.
    ENDTRY.
    TRY.
        DATA(c) = b + a.
        out->write( |{ c }{ abs( b ) }{ ceil( a ) }| ).
      CATCH cx_root.
    ENDTRY.
    IF a > b OR a IS INITIAL.
      out->write( b ).
    ENDIF.";
    assert_eq!(out(main), "7389460738946\n0 ");
}

#[test]
fn comparisons_calculate_in_the_type_of_all_operands() {
    let main = r"    DATA p TYPE p LENGTH 8 DECIMALS 1 VALUE '3.5'.
    DATA i TYPE i VALUE 7.
    IF i / 2 = p.
      out->write( `p: 3.5` ).
    ENDIF.
    IF i / 2 = 4.
      out->write( `i: 4` ).
    ENDIF.
    IF i / 2 > CONV f( '3.4' ).
      out->write( `f: 3.5` ).
    ENDIF.
    IF 2 ** 3 = 8.
      out->write( `power` ).
    ENDIF.";
    assert_eq!(
        out(main),
        r"p: 3.5
i: 4
f: 3.5
power"
    );
}

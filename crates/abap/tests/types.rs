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
    let main = "    DATA d TYPE d VALUE '20240228'.\n    d = d + 1.\n    out->write( |{ d }| ).\n    d = d + 1.\n    out->write( |{ d }| ).\n    DATA(days) = CONV d( '20240301' ) - CONV d( '20240101' ).\n    out->write( |{ days }| ).\n    DATA i TYPE i.\n    i = CONV d( '00010102' ).\n    out->write( |{ i }| ).\n    d = 730121.\n    out->write( |{ d }| ).\n    d = d - 730121.\n    out->write( |{ d }| ).\n    IF d IS INITIAL.\n      out->write( `initial` ).\n    ENDIF.\n    d = '20241231'.\n    IF d > '20240101'.\n      out->write( `later` ).\n    ENDIF.";
    assert_eq!(
        out(main),
        "20240229\n20240301\n60\n1\n20000101\n00000000\ninitial\nlater"
    );
}

#[test]
fn time_arithmetic_wraps_at_midnight() {
    let main = "    DATA t TYPE t VALUE '235930'.\n    t = t + 45.\n    out->write( |{ t }| ).\n    t = t - 60.\n    out->write( |{ t }| ).\n    DATA secs TYPE i.\n    secs = CONV t( '010203' ).\n    out->write( |{ secs }| ).\n    DATA(diff) = CONV t( '120000' ) - CONV t( '113000' ).\n    out->write( |{ diff }| ).\n    DATA t0 TYPE t.\n    out->write( |{ t0 }| ).";
    assert_eq!(out(main), "000015\n235915\n3723\n1800\n000000");
}

#[test]
fn numeric_text_keeps_digits_right_aligned() {
    let main = "    DATA n TYPE n LENGTH 6.\n    n = 'A12B3'.\n    out->write( |{ n }| ).\n    n = 42.\n    out->write( |{ n }| ).\n    n = -42.\n    out->write( |{ n }| ).\n    n = 1234567.\n    out->write( |{ n }| ).\n    DATA n2(4) TYPE n VALUE '12'.\n    n2 = n2 + 1.\n    out->write( |{ n2 }| ).\n    DATA n3 TYPE n LENGTH 3.\n    IF n3 IS INITIAL.\n      out->write( |{ n3 } initial| ).\n    ENDIF.\n    DATA c TYPE c LENGTH 6.\n    c = n2.\n    out->write( |<{ c }>| ).";
    assert_eq!(
        out(main),
        "000123\n000042\n000042\n234567\n0013\n000 initial\n<0013>"
    );
}

#[test]
fn bytes_convert_to_and_from_hex_text_and_integers() {
    let main = "    DATA x TYPE x LENGTH 4 VALUE 'FF'.\n    out->write( |{ x }| ).\n    DATA i TYPE i.\n    i = x.\n    out->write( |{ i }| ).\n    x = 255.\n    out->write( |{ x }| ).\n    x = -2.\n    out->write( |{ x }| ).\n    DATA h(1) TYPE x VALUE 'A0'.\n    i = h.\n    out->write( |{ i }| ).\n    DATA xs TYPE xstring.\n    xs = `48656C6C6F`.\n    out->write( |{ xs }| ).\n    DATA s TYPE string.\n    s = xs.\n    out->write( s ).\n    xs = 'ABZ'.\n    out->write( |{ xs }| ).\n    IF xs IS NOT INITIAL.\n      out->write( `set` ).\n    ENDIF.";
    assert_eq!(
        out(main),
        "FF000000\n-16777216\n000000FF\nFFFFFFFE\n160\n48656C6C6F\n48656C6C6F\nAB\nset"
    );
}

#[test]
fn int8_calculates_beyond_the_range_of_i() {
    let main = "    DATA big TYPE int8 VALUE 2147483647.\n    big = big + 1.\n    out->write( |{ big }| ).\n    DATA(twice) = big * 2.\n    out->write( |{ twice }| ).\n    big = '-9223372036854775808'.\n    out->write( |{ big }| ).\n    DATA s TYPE string.\n    s = CONV int8( -5 ).\n    out->write( |<{ s }>| ).";
    assert_eq!(
        out(main),
        "2147483648\n4294967296\n-9223372036854775808\n<5->"
    );
}

#[test]
fn int8_and_i_overflow_dump() {
    let (id, output) =
        dump("    DATA i TYPE i VALUE 2147483647.\n    out->write( `before` ).\n    i = i + 1.");
    assert_eq!(
        (id.as_str(), output.as_str()),
        ("COMPUTE_INT_PLUS_OVERFLOW", "before")
    );
    let (id, _) = dump("    DATA big TYPE int8 VALUE 9223372036854775807.\n    big = big + 1.");
    assert_eq!(id, "COMPUTE_INT_PLUS_OVERFLOW");
    let (id, _) =
        dump("    DATA i TYPE i.\n    DATA big TYPE int8 VALUE 3000000000.\n    i = big.");
    assert_eq!(id, "CONVT_OVERFLOW");
}

#[test]
fn float_calculation_and_text_forms() {
    let main = "    DATA f TYPE f VALUE '1.5'.\n    f = f * 2.\n    out->write( |{ f }| ).\n    DATA s TYPE string.\n    s = f.\n    out->write( s ).\n    f = 1 / 3.\n    out->write( |{ f }| ).\n    f = '-6.25E-2'.\n    out->write( |{ f }| ).\n    DATA i TYPE i.\n    i = CONV f( '2.5' ).\n    out->write( |{ i }| ).\n    DATA p TYPE p LENGTH 8 DECIMALS 2.\n    p = CONV f( '0.125' ).\n    out->write( |{ p }| ).";
    assert_eq!(
        out(main),
        "3\n3.0000000000000000E+00\n0.33333333333333331\n-0.0625\n3\n0.13"
    );
}

#[test]
fn power_operator_is_right_associative_and_float() {
    let main = "    DATA(r) = 2 ** 10.\n    out->write( |{ r }| ).\n    DATA i TYPE i.\n    i = 2 ** 3 ** 2.\n    out->write( |{ i }| ).\n    i = 3 * 2 ** 2.\n    out->write( |{ i }| ).\n    DATA p TYPE p LENGTH 8 DECIMALS 3.\n    p = 2 ** -1.\n    out->write( |{ p }| ).\n    DATA df TYPE decfloat34.\n    df = '1.1' ** 2.\n    out->write( |{ df }| ).";
    assert_eq!(out(main), "1024\n512\n12\n0.500\n1.21");
}

#[test]
fn decfloat_keeps_34_digits() {
    let main = "    DATA df TYPE decfloat34.\n    df = 1 / 3.\n    out->write( |{ df }| ).\n    df = '1.5E2'.\n    out->write( |{ df }| ).\n    DATA(sum) = df + CONV decfloat34( '0.25' ).\n    out->write( |{ sum }| ).\n    DATA d16 TYPE decfloat16.\n    d16 = 2 / 3.\n    out->write( |{ d16 }| ).\n    DATA s TYPE string.\n    s = CONV decfloat34( '-12.50' ).\n    out->write( s ).";
    assert_eq!(
        out(main),
        format!(
            "0.{}\n150\n150.25\n0.6666666666666667\n-12.50",
            "3".repeat(34)
        )
    );
}

#[test]
fn system_date_and_ddic_names() {
    let main = "    DATA d TYPE datum.\n    DATA t TYPE uzeit.\n    d = sy-datum.\n    t = sy-uzeit.\n    d = d + 1.\n    out->write( |{ d } { t }| ).\n    DATA d2 TYPE sydatum.\n    d2 = d - 366.\n    out->write( |{ d2 }| ).";
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
    let main = "    DATA d TYPE d VALUE '20260111'.\n    DATA t TYPE t VALUE '123456'.\n    DATA n TYPE n LENGTH 4 VALUE '42'.\n    DATA x TYPE x LENGTH 2 VALUE 'AB01'.\n    DATA xs TYPE xstring.\n    DATA big TYPE int8 VALUE -42.\n    DATA f TYPE f VALUE '12.5'.\n    DATA df TYPE decfloat34 VALUE '-1.25'.\n    xs = 'CAFE'.";
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
    let main = "    DATA d TYPE d VALUE '20260111'.\n    DATA n TYPE n LENGTH 4.\n    out->write( |{ d }| ).";
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
    let main = "    DATA d TYPE d VALUE '20240301'.\n    DATA t TYPE t VALUE '074505'.\n    DATA style TYPE string VALUE `ISO`.\n    out->write( |{ d DATE = ISO } { d DATE = RAW } { d DATE = USER }| ).\n    out->write( |{ t TIME = ISO } { t TIME = RAW } { t time = (style) }| ).\n    out->write( |{ CONV decfloat34( '1.50' ) STYLE = SCALE_PRESERVING } { CONV f( 8 ) STYLE = SCIENTIFIC }| ).";
    assert_eq!(
        out(main),
        "2024-03-01 20240301 01.03.2024\n07:45:05 074505 07:45:05\n1.50 8.0000000000000000E+00"
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
    let main = "    DATA p TYPE p LENGTH 8 DECIMALS 2 VALUE '-2.50'.\n    DATA f TYPE f VALUE '2.5'.\n    DATA i TYPE i VALUE -7.\n    out->write( |{ ceil( p ) } { floor( p ) } { trunc( p ) } { frac( p ) } { abs( p ) } { sign( p ) }| ).\n    out->write( |{ ceil( f ) } { floor( f ) } { abs( CONV f( -3 ) ) } { sqrt( CONV f( 16 ) ) }| ).\n    out->write( |{ abs( i ) } { sign( i ) } { ceil( i ) }| ).\n    out->write( |{ round( val = p dec = 0 ) } { round( val = CONV f( '1.25' ) dec = 1 ) } { round( val = 1250 dec = -2 ) }| ).\n    DATA big TYPE int8 VALUE -5.\n    out->write( |{ abs( big ) } { sqrt( 2 ) }| ).";
    assert_eq!(
        out(main),
        "-2.00 -3.00 -2.00 -0.50 2.50 -1\n3 2 3 4\n7 -1 -7\n-3.00 1.3 1300\n5 1.4142135623730951"
    );
}

#[test]
fn math_domain_errors_are_catchable() {
    let main = "    TRY.\n        DATA(r) = sqrt( -1 ).\n      CATCH cx_sy_arg_out_of_domain.\n        out->write( `domain` ).\n    ENDTRY.";
    assert_eq!(out(main), "domain");
}

#[test]
fn clock_statements_use_the_run_clock_in_utc() {
    let main = "    DATA ts TYPE timestamp.\n    DATA tsl TYPE timestampl.\n    DATA t TYPE t.\n    GET TIME STAMP FIELD ts.\n    GET TIME STAMP FIELD tsl.\n    GET TIME FIELD t.\n    out->write( |{ ts } { tsl } { t }| ).\n    CONVERT TIME STAMP ts TIME ZONE 'UTC' INTO DATE DATA(d) TIME DATA(tm) DAYLIGHT SAVING TIME DATA(dst).\n    out->write( |{ d } { tm } <{ dst }> { sy-subrc }| ).\n    d = d + 1.\n    CONVERT DATE d TIME '235959' INTO TIME STAMP ts TIME ZONE space.\n    out->write( |{ ts }| ).\n    ts = 20241332000000.\n    CONVERT TIME STAMP ts TIME ZONE 'UTC' INTO DATE d.\n    out->write( |{ sy-subrc } { d }| ).\n    GET TIME.";
    assert_eq!(
        out(main),
        "20240101120000 20240101120000.0000000 120000\n20240101 120000 <> 0\n20240102235959\n12 20240102"
    );
    let (id, _) = dump(
        "    DATA ts TYPE timestamp.\n    CONVERT TIME STAMP ts TIME ZONE 'CET' INTO DATE DATA(d).",
    );
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
}

#[test]
fn context_info_gives_the_run_clock() {
    let main = "    DATA(today) = cl_abap_context_info=>get_system_date( ).\n    DATA(now) = cl_abap_context_info=>get_system_time( ).\n    today = today + 1.\n    out->write( |{ today } { now TIME = ISO } { cl_abap_context_info=>get_user_time_zone( ) }| ).";
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
                "    DATA a TYPE {t1}.\n    DATA b TYPE {t2}.\n    TRY.\n        a = {src}.\n      CATCH cx_root.\n    ENDTRY.\n    TRY.\n        b = a.\n      CATCH cx_root.\n    ENDTRY.\n    TRY.\n        b = a {op} b.\n      CATCH cx_root.\n    ENDTRY.\n    TRY.\n        DATA(c) = b {op} a.\n        out->write( |{{ c{opt} }}{{ abs( b ) }}{{ ceil( a ) }}| ).\n      CATCH cx_root.\n    ENDTRY.\n    IF a > b OR a IS INITIAL.\n      out->write( b ).\n    ENDIF."
            );
            let _ = run(&main);
        }
    }
}

#[test]
fn never_panic_program_shape_runs() {
    let main = "    DATA a TYPE d.\n    DATA b TYPE int8.\n    TRY.\n        a = '20240229'.\n      CATCH cx_root.\n    ENDTRY.\n    TRY.\n        b = a.\n      CATCH cx_root.\n    ENDTRY.\n    TRY.\n        b = a - b.\n      CATCH cx_root.\n    ENDTRY.\n    TRY.\n        DATA(c) = b + a.\n        out->write( |{ c }{ abs( b ) }{ ceil( a ) }| ).\n      CATCH cx_root.\n    ENDTRY.\n    IF a > b OR a IS INITIAL.\n      out->write( b ).\n    ENDIF.";
    assert_eq!(out(main), "7389460738946\n0 ");
}

#[test]
fn comparisons_calculate_in_the_type_of_all_operands() {
    let main = "    DATA p TYPE p LENGTH 8 DECIMALS 1 VALUE '3.5'.\n    DATA i TYPE i VALUE 7.\n    IF i / 2 = p.\n      out->write( `p: 3.5` ).\n    ENDIF.\n    IF i / 2 = 4.\n      out->write( `i: 4` ).\n    ENDIF.\n    IF i / 2 > CONV f( '3.4' ).\n      out->write( `f: 3.5` ).\n    ENDIF.\n    IF 2 ** 3 = 8.\n      out->write( `power` ).\n    ENDIF.";
    assert_eq!(out(main), "p: 3.5\ni: 4\nf: 3.5\npower");
}

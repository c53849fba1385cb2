//! Built-in string functions, especially with regular expressions (`find`, `count`, `match`,
//! `matches`, `replace`, `substring_…` with `regex`/`pcre`), and the measured error cases, run
//! through `Repository::run_classrun`.

use abap::RunError;

use crate::harness::run;

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

/// Each line of `exprs` written as `|[{ expr }]|`, one output line each.
fn values(exprs: &[&str]) -> String {
    let main: Vec<String> = exprs
        .iter()
        .map(|e| format!("out->write( |[{{ {e} }}]| )."))
        .collect();
    out(&main.join("\n"))
}

fn dump_id(main: &str) -> String {
    match run(main) {
        Err(RunError::Dump { id, .. }) => id,
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn substring_functions() {
    assert_eq!(
        values(&[
            "substring( val = 'ABCDEFGH' off = 2 len = 2 )",
            "substring( val = 'ABCDEFGH' off = 5 )",
            "substring( val = 'ABCDEFGH' len = 3 )",
            "substring_from( val = 'ABCDEFGH' sub = 'CD' )",
            "substring_after( val = 'ABCDEFGH' sub = 'CD' )",
            "substring_before( val = 'ABCDEFGH' sub = 'CD' )",
            "substring_to( val = 'ABCDEFGH' sub = 'CD' )",
            "substring_after( val = 'a-b-c' sub = '-' occ = -1 )",
            "substring_after( val = 'a-b-c' sub = '-' occ = 3 )",
            "substring_after( val = 'abCDef' sub = 'cd' case = abap_false )",
            "substring_after( val = 'ABCDEFGH' sub = 'CD' len = 2 )",
            "substring_after( val = 'a1b2c3' regex = '[0-9]' occ = 2 )",
            "substring_before( val = 'a1b22c3' regex = '[0-9]+' occ = 2 len = 1 )",
            "substring_to( val = 'a1b22c3' regex = '[0-9]+' occ = 2 len = 1 )",
            "substring_from( val = 'a1b22c3' pcre = '[0-9]+' occ = 2 len = 3 )",
        ]),
        r"[CD]
[FGH]
[ABC]
[CDEFGH]
[EFGH]
[AB]
[ABCD]
[c]
[]
[ef]
[EF]
[c3]
[b]
[b22]
[22c]"
    );
}

#[test]
fn substring_errors_are_catchable() {
    let main = r"DATA s TYPE string.
TRY.
    s = substring( val = `abc` off = 2 len = 5 ).
  CATCH cx_sy_range_out_of_bounds.
    out->write( `range` ).
ENDTRY.
TRY.
    s = substring_after( val = `a-b` sub = `-` occ = 0 ).
  CATCH cx_sy_strg_par_val.
    out->write( `occ` ).
ENDTRY.
";
    assert_eq!(out(main), "range\nocc");
    assert_eq!(
        dump_id("DATA(s) = substring( val = `abc` off = 4 )."),
        "STRING_OFFSET_TOO_LARGE"
    );
}

#[test]
fn find_count_match_and_predicates() {
    assert_eq!(
        values(&[
            "find( val = `abcabc` sub = `c` )",
            "find( val = `abcabc` sub = `c` occ = 2 )",
            "find( val = `abcabc` sub = `c` occ = -2 )",
            "find( val = `abcabc` sub = `x` )",
            "find( val = `abcabc` sub = `C` case = abap_false )",
            "find( val = `abcabc` sub = `a` off = 1 )",
            "find_end( val = `xx123yy` regex = `[0-9]+` )",
            "find_any_of( val = `hello world` sub = `ow` )",
            "find_any_not_of( val = `aaab` sub = `a` )",
            "count( val = `axaxa` sub = `x` )",
            "count( val = `aaaa` sub = `aa` )",
            "count( val = `a1b22c333` regex = `[0-9]+` )",
            "count_any_of( val = `hello` sub = `lo` )",
            "count_any_not_of( val = `hello` sub = `l` )",
            "match( val = `order 4711 shipped` regex = `[0-9]+` )",
        ]),
        r"[2]
[5]
[2]
[-1]
[2]
[3]
[5]
[4]
[3]
[2]
[2]
[3]
[3]
[3]
[4711]"
    );
    let main = r"IF matches( val = `4711` regex = `[0-9]+` ).
  out->write( `digits` ).
ENDIF.
IF NOT matches( val = `47a1` regex = `[0-9]+` ).
  out->write( `not only digits` ).
ENDIF.
IF contains( val = `Hello World` sub = `world` case = abap_false ) AND contains( val = `Hello` start = `He` ) AND NOT contains( val = `Hello` end = `x` ).
  out->write( `contains` ).
ENDIF.
IF contains_any_of( val = `abc` sub = `xyc` ) AND NOT contains_any_not_of( val = `aaa` sub = `a` ).
  out->write( `any` ).
ENDIF.
DATA(b) = xsdbool( matches( val = `ab` regex = `a` ) ).
out->write( |[{ b }]| ).";
    assert_eq!(
        out(main),
        r"digits
not only digits
contains
any
[]"
    );
    assert_eq!(
        dump_id("DATA(i) = find( val = `abc` sub = `` )."),
        "STRG_ILLEGAL_PAR"
    );
}

#[test]
fn replace_insert_and_shift_functions() {
    assert_eq!(
        values(&[
            "replace( val = `a-b-c` sub = `-` with = `+` )",
            "replace( val = `a-b-c` sub = `-` with = `+` occ = 0 )",
            "replace( val = `a-b-c` sub = `-` with = `+` occ = -1 )",
            "replace( val = `a-b-c` sub = `-` with = `+` occ = 5 )",
            "replace( val = `aAa` sub = `a` with = `x` case = abap_false occ = 0 )",
            "replace( val = `2024-03-01` regex = `(\\d+)-(\\d+)-(\\d+)` with = `$3.$2.$1` )",
            "replace( val = `abcdef` off = 1 len = 2 with = `XYZ` )",
            "insert( val = `abef` sub = `cd` off = 2 )",
            "shift_left( val = `  ab  ` )",
            "shift_right( val = `  ab  ` )",
            "shift_left( val = `abcdef` places = 2 )",
            "shift_right( val = `abcdef` places = 2 )",
            "shift_left( val = `abcdef` circular = 2 )",
            "shift_right( val = `abcdef` circular = 2 )",
            "shift_left( val = `xxyxab` sub = `x` )",
            "shift_right( val = `abxyxy` sub = `xy` )",
        ]),
        r"[a+b-c]
[a+b+c]
[a-b+c]
[a-b-c]
[xxx]
[01.03.2024]
[aXYZdef]
[abcdef]
[ab  ]
[  ab]
[cdef]
[abcd]
[cdefab]
[efabcd]
[yxab]
[ab]"
    );
    assert_eq!(
        dump_id("DATA(s) = shift_left( val = `abc` places = 4 )."),
        "STRING_LENGTH_TOO_LARGE"
    );
}

#[test]
fn condense_repeat_reverse_segment_and_friends() {
    assert_eq!(
        values(&[
            "condense( `  a   b  ` )",
            "condense( val = `xxaxxbxx` del = `x` from = `x` to = `-` )",
            "condense( val = `  a   b  ` from = `` )",
            "repeat( val = `ab` occ = 3 )",
            "reverse( `abc` )",
            "numofchar( `ab  ` )",
            "strlen( `ab  ` )",
            "segment( val = `a;b;;c` index = 2 sep = `;` )",
            "segment( val = `a;b;;c` index = 3 sep = `;` )",
            "segment( val = `a;b;;c` index = -1 sep = `;` )",
            "segment( val = `a b  c` index = 3 space = ` ` )",
            "to_mixed( val = `ABAP_DOCU_TEXT` )",
            "from_mixed( val = `AbapDocuText` )",
            "translate( val = `abcabc` from = `ab` to = `x` )",
            "cmax( val1 = `abc` val2 = `abd` val3 = `ab` )",
            "cmin( val1 = `abc` val2 = `abd` val3 = `ab` )",
        ]),
        r"[a b]
[a-b]
[a   b]
[ababab]
[cba]
[2]
[4]
[b]
[]
[c]
[c]
[AbapDocuText]
[ABAP_DOCU_TEXT]
[xcxc]
[abd]
[ab]"
    );
    let main = r"TRY.
    DATA(s) = segment( val = `a;b` index = 3 sep = `;` ).
  CATCH cx_sy_strg_par_val.
    out->write( `no segment` ).
ENDTRY.";
    assert_eq!(out(main), "no segment");
}

#[test]
fn concat_lines_of_and_line_index() {
    let main = r"DATA t TYPE string_table.
t = VALUE #( ( `a` ) ( `b` ) ( `c` ) ).
out->write( concat_lines_of( t ) ).
out->write( concat_lines_of( table = t sep = `, ` ) ).
out->write( line_index( t[ table_line = `b` ] ) ).
out->write( line_index( t[ table_line = `x` ] ) ).";
    assert_eq!(
        out(main),
        r"abc
a, b, c
2 
0 "
    );
}

#[test]
fn empty_matches_are_replaced_in_abaps_order() {
    let main = r"DATA s TYPE string VALUE `abbc`.
REPLACE ALL OCCURRENCES OF REGEX `b*` IN s WITH `-`.
out->write( s ).
s = `bb`.
REPLACE ALL OCCURRENCES OF REGEX `b*` IN s WITH `-`.
out->write( s ).
out->write( replace( val = `abc` regex = `x*` with = `-` occ = 0 ) ).
out->write( replace( val = `abbc` pcre = `b*` with = `-` occ = 0 ) ).";
    assert_eq!(
        out(main),
        r"-a--c-
-
-a-b-c-
-a--c-"
    );
}

#[test]
fn an_escaped_trailing_blank_stays_in_a_pattern() {
    let main = r"IF `ab ` CP 'ab# '.
  out->write( |escaped { sy-fdpos }| ).
ENDIF.
IF NOT `ab` CP 'ab# '.
  out->write( `needs the blank` ).
ENDIF.";
    assert_eq!(out(main), "escaped 0\nneeds the blank");
}

#[test]
fn regular_expressions_the_engine_cannot_run_are_not_supported() {
    assert_eq!(
        dump_id("DATA(i) = find( val = `aa` pcre = `a(?=a)` )."),
        "SIMULATOR_NOT_SUPPORTED"
    );
    // Look-ahead is PCRE's; in a POSIX pattern neither engine takes it.
    assert_eq!(
        dump_id("DATA(b) = xsdbool( matches( val = `ab` regex = `a(?=b)b` ) )."),
        "SIMULATOR_NOT_SUPPORTED"
    );
}

mod never_panic {
    use super::run;
    use proptest::prelude::*;

    const VALS: &[&str] = &[
        "``",
        "`abc`",
        "`aaaa`",
        "`  a b  `",
        "'xy  '",
        "`äöü߀`",
        "42",
    ];
    const PATTERNS: &[&str] = &[
        "``",
        "`a*`",
        "`(`",
        "`[0-9]+`",
        "`$`",
        "`^`",
        "`.`",
        "`(a)|b`",
        "`\\d+(x)?`",
        "`ä`",
    ];
    const INTS: &[&str] = &["0", "1", "2", "-1", "-3", "7", "2147483647", "-2147483648"];
    const CALLS: &[&str] = &[
        "find( val = {v} regex = {p} occ = {i} off = {j} )",
        "find_end( val = {v} pcre = {p} occ = {i} )",
        "count( val = {v} regex = {p} off = {i} len = {j} )",
        "match( val = {v} pcre = {p} occ = {i} )",
        "replace( val = {v} regex = {p} with = `$1-$0` occ = {i} )",
        "replace( val = {v} pcre = {p} with = {v} occ = {i} case = abap_false )",
        "substring_after( val = {v} regex = {p} occ = {i} len = {j} )",
        "substring_before( val = {v} pcre = {p} occ = {i} len = {j} )",
        "substring_to( val = {v} regex = {p} occ = {i} )",
        "xsdbool( matches( val = {v} regex = {p} off = {i} len = {j} ) )",
        "xsdbool( contains( val = {v} pcre = {p} occ = {i} ) )",
        "nmax( val1 = {i} val2 = {j} val3 = '1.5' )",
        "nmin( val1 = {i} val2 = {j} )",
        "ipow( base = {i} exp = {j} )",
        "ipow( base = CONV decfloat34( '0.5' ) exp = {j} )",
        "round( val = {v} dec = {i} mode = {j} )",
        "round( val = '12.345' prec = {i} mode = {j} )",
        "escape( val = {v} format = {i} )",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Every function on any of these arguments ends normally or with a runtime error
        /// (caught or not), never with a panic.
        #[test]
        fn regex_and_numeric_functions_never_panic(
            call in prop::sample::select(CALLS),
            v in prop::sample::select(VALS),
            p in prop::sample::select(PATTERNS),
            i in prop::sample::select(INTS),
            j in prop::sample::select(INTS),
        ) {
            let expr = call
                .replace("{v}", v)
                .replace("{p}", p)
                .replace("{i}", i)
                .replace("{j}", j);
            let main = format!(
                r"    TRY.
        out->write( |{{ {expr} }}| ).
      CATCH cx_root.
    ENDTRY."
            );
            let _ = run(&main);
        }
    }
}

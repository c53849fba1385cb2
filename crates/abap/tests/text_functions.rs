//! Built-in string functions: named and positional arguments, exact results, and the
//! exceptions wrong arguments raise.

use abap::RunError;

use crate::harness::run;

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

fn dump_id(main: &str) -> String {
    match run(main) {
        Err(RunError::Dump { id, .. }) => id,
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn substrings() {
    let main = "    DATA s TYPE string VALUE `Hello World`.\n    out->write( |[{ substring( val = s off = 6 len = 3 ) }]| ).\n    out->write( |[{ substring( val = s off = 6 ) }]| ).\n    out->write( |[{ substring( val = s len = 5 ) }]| ).\n    out->write( |[{ substring_after( val = s sub = `o` ) }]| ).\n    out->write( |[{ substring_after( val = s sub = `o` occ = 2 ) }]| ).\n    out->write( |[{ substring_before( val = s sub = `o` occ = -1 ) }]| ).\n    out->write( |[{ substring_from( val = s sub = `W` ) }]| ).\n    out->write( |[{ substring_to( val = s sub = `l` ) }]| ).\n    out->write( |[{ substring_after( val = s sub = `x` ) }]| ).\n    out->write( |[{ substring_after( val = s sub = `WORLD` case = abap_false ) }]| ).\n    out->write( |[{ substring_after( val = s sub = `l` len = 2 ) }]| ).";
    assert_eq!(
        out(main),
        "[Wor]\n[World]\n[Hello]\n[ World]\n[rld]\n[Hello W]\n[World]\n[Hel]\n[]\n[]\n[lo]"
    );
}

#[test]
fn substring_range_errors_are_catchable() {
    let main = "    DATA s TYPE string VALUE `abc`.\n    TRY.\n        out->write( substring( val = s off = 4 ) ).\n      CATCH cx_sy_range_out_of_bounds.\n        out->write( `off` ).\n    ENDTRY.\n    TRY.\n        out->write( substring( val = s off = 1 len = -1 ) ).\n      CATCH cx_sy_range_out_of_bounds INTO DATA(x).\n        out->write( `len` ).\n    ENDTRY.\n    TRY.\n        out->write( substring( val = s off = 2 len = 2 ) ).\n      CATCH cx_root.\n        out->write( `root` ).\n    ENDTRY.";
    assert_eq!(out(main), "off\nlen\nroot");
    assert_eq!(
        dump_id("    out->write( substring( val = `abc` off = 9 ) )."),
        "STRING_OFFSET_TOO_LARGE"
    );
}

#[test]
fn find_count_and_contains() {
    let main = "    DATA s TYPE string VALUE `abcabcab`.\n    out->write( |{ find( val = s sub = `ab` ) }| ).\n    out->write( |{ find( val = s sub = `ab` occ = 2 ) }| ).\n    out->write( |{ find( val = s sub = `ab` occ = -1 ) }| ).\n    out->write( |{ find( val = s sub = `x` ) }| ).\n    out->write( |{ find( val = s sub = `AB` case = abap_false occ = 3 ) }| ).\n    out->write( |{ find( val = s sub = `c` off = 3 ) }| ).\n    out->write( |{ count( val = s sub = `ab` ) }| ).\n    out->write( |{ count( val = s sub = `B` case = abap_false ) }| ).\n    IF contains( val = s sub = `ca` ) AND NOT contains( val = s sub = `x` ).\n      out->write( `sub` ).\n    ENDIF.\n    IF contains( val = s start = `abc` ) AND contains( val = s end = `ab` ) AND NOT contains( val = s start = `b` ).\n      out->write( `start end` ).\n    ENDIF.\n    IF contains( val = s sub = `ab` occ = 3 ) AND NOT contains( val = s sub = `ab` occ = 4 ).\n      out->write( `occ` ).\n    ENDIF.\n    IF contains_any_of( val = s sub = `xyc` ) AND NOT contains_any_not_of( val = `aaa` sub = `a` ).\n      out->write( `any` ).\n    ENDIF.";
    assert_eq!(
        out(main),
        "0\n3\n6\n-1\n6\n5\n3\n3\nsub\nstart end\nocc\nany"
    );
}

#[test]
fn replace_shift_condense() {
    let main = "    DATA s TYPE string VALUE `a-b-c`.\n    out->write( replace( val = s sub = `-` with = `+` ) ).\n    out->write( replace( val = s sub = `-` with = `+` occ = 0 ) ).\n    out->write( replace( val = s sub = `-` with = `` occ = -1 ) ).\n    out->write( replace( val = s off = 1 len = 3 with = `XY` ) ).\n    out->write( replace( val = s off = 1 with = `*` ) ).\n    out->write( |[{ shift_left( val = `  ab ` ) }]| ).\n    out->write( |[{ shift_right( val = ` ab  ` ) }]| ).\n    out->write( shift_left( val = `abcde` places = 2 ) ).\n    out->write( shift_right( val = `abcde` places = 2 ) ).\n    out->write( shift_left( val = `abcde` circular = 2 ) ).\n    out->write( shift_right( val = `abcde` circular = 2 ) ).\n    out->write( shift_left( val = `xxxabc` sub = `x` ) ).\n    out->write( |[{ condense( `  a   b  ` ) }]| ).\n    out->write( |[{ condense( val = `xxaxxbxx` del = `x` from = `x` to = `-` ) }]| ).\n    out->write( |[{ condense( val = ` a  b ` from = ` ` to = `` ) }]| ).";
    assert_eq!(
        out(main),
        "a+b-c\na+b+c\na-bc\naXYc\na*-b-c\n[ab ]\n[ ab]\ncde\nabc\ncdeab\ndeabc\nabc\n[a b]\n[a-b]\n[ab]"
    );
}

#[test]
fn other_functions() {
    let main = "    DATA lt TYPE string_table.\n    APPEND `a` TO lt.\n    APPEND `b` TO lt.\n    APPEND `c` TO lt.\n    out->write( concat_lines_of( table = lt sep = `, ` ) ).\n    out->write( concat_lines_of( lt ) ).\n    out->write( repeat( val = `ab` occ = 3 ) ).\n    out->write( |[{ repeat( val = `ab` occ = 0 ) }]| ).\n    out->write( reverse( `abc` ) ).\n    out->write( segment( val = `a,b,c` index = 2 sep = `,` ) ).\n    out->write( segment( val = `a,b,c` index = -1 sep = `,` ) ).\n    out->write( segment( val = `a  b c` index = 2 space = ` ` ) ).\n    out->write( to_mixed( `THIS_IS_A_TEXT` ) ).\n    out->write( to_mixed( val = `this is` sep = ` ` ) ).\n    out->write( from_mixed( `ThisIsAText` ) ).\n    out->write( from_mixed( val = `helloWorld` sep = `-` ) ).\n    out->write( to_upper( `abc` ) && to_lower( `DEF` ) ).\n    DATA c10 TYPE c LENGTH 10 VALUE 'ab'.\n    out->write( |{ strlen( c10 ) }| ).\n    out->write( |{ strlen( `ab  ` ) }| ).\n    out->write( |{ numofchar( `ab  ` ) }| ).\n    out->write( cmax( val1 = `b` val2 = `c` val3 = `a` ) ).\n    out->write( cmin( val1 = `b` val2 = `c` val3 = `a` ) ).\n    out->write( insert( val = `abc` sub = `XY` off = 1 ) ).\n    out->write( translate( val = `abcabc` from = `ab` to = `x` ) ).";
    assert_eq!(
        out(main),
        "a, b, c\nabc\nababab\n[]\ncba\nb\nc\nb\nThisIsAText\nthisIs\nTHIS_IS_A_TEXT\nHELLO-WORLD\nABCdef\n2\n4\n2\nc\na\naXYbc\nxcxc"
    );
}

#[test]
fn segment_and_repeat_errors() {
    let main = "    TRY.\n        out->write( segment( val = `a,b` index = 3 sep = `,` ) ).\n      CATCH cx_sy_strg_par_val.\n        out->write( `no segment` ).\n    ENDTRY.\n    TRY.\n        out->write( repeat( val = `a` occ = -1 ) ).\n      CATCH cx_sy_strg_par_val.\n        out->write( `negative occ` ).\n    ENDTRY.";
    assert_eq!(out(main), "no segment\nnegative occ");
}

#[test]
fn boolean_functions_take_a_condition() {
    let main = "    DATA a TYPE i VALUE 3.\n    DATA b TYPE i VALUE 2.\n    DATA(x) = xsdbool( a > b ).\n    out->write( |[{ x }][{ xsdbool( a < b ) }][{ boolc( a > b AND b > 1 ) }][{ boolc( a < b ) }]| ).\n    IF xsdbool( a < b ) = abap_false.\n      out->write( `xsdbool false is abap_false` ).\n    ENDIF.\n    out->write( |{ strlen( boolc( a < b ) ) }| ).";
    assert_eq!(out(main), "[X][][X][ ]\nxsdbool false is abap_false\n1");
}

#[test]
fn line_index_is_the_row_number() {
    let main = "    TYPES: BEGIN OF ty, k TYPE i, v TYPE string, END OF ty.\n    DATA lt TYPE STANDARD TABLE OF ty WITH EMPTY KEY.\n    lt = VALUE #( ( k = 1 v = `a` ) ( k = 2 v = `b` ) ( k = 3 v = `c` ) ).\n    out->write( |{ line_index( lt[ k = 3 ] ) }| ).\n    out->write( |{ line_index( lt[ v = `b` ] ) }| ).\n    out->write( |{ line_index( lt[ k = 9 ] ) }| ).";
    assert_eq!(out(main), "3\n2\n0");
}

#[test]
fn unknown_arguments_are_not_supported() {
    assert_eq!(
        dump_id("    out->write( substring( val = `abc` foo = 1 ) )."),
        "SIMULATOR_NOT_SUPPORTED"
    );
}

#[test]
fn character_set_functions_and_distance() {
    let main = "    DATA s TYPE string VALUE `ab12c3`.\n    out->write( |{ find_any_of( val = s sub = `0123456789` ) } { find_any_of( val = s sub = `0123456789` occ = -1 ) } { find_any_not_of( val = s sub = `abc` occ = 2 ) } { find_any_of( val = s sub = `xyz` ) }| ).\n    out->write( |{ count_any_of( val = s sub = `0123456789` ) } { count_any_not_of( val = s sub = `0123456789` ) }| ).\n    out->write( |{ distance( val1 = `kitten` val2 = `sitting` ) } { distance( val1 = '123ABC' val2 = '124ACDE' max = 3 ) } { distance( val1 = `abcdefg` val2 = `aXcdXXg` ) }| ).";
    assert_eq!(out(main), "2 5 3 -1\n3 3\n3 3 3");
}

#[test]
fn line_index_on_sorted_and_hashed_tables() {
    let main = "    DATA st TYPE SORTED TABLE OF i WITH UNIQUE KEY table_line.\n    st = VALUE #( ( 30 ) ( 10 ) ( 20 ) ).\n    out->write( |{ line_index( st[ table_line = 30 ] ) }| ).\n    DATA ht TYPE HASHED TABLE OF i WITH UNIQUE KEY table_line.\n    ht = VALUE #( ( 1 ) ).\n    out->write( |{ line_index( ht[ table_line = 1 ] ) }| ).";
    match run(main) {
        Err(RunError::Dump { id, output, .. }) => {
            assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
            assert_eq!(output, "3");
        }
        other => panic!("expected a dump, got {other:?}"),
    }
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
        "`a,b,,c`",
    ];
    const INTS: &[&str] = &["0", "1", "2", "-1", "-3", "7", "2147483647", "-2147483648"];
    const CALLS: &[&str] = &[
        "substring( val = {v} off = {i} len = {j} )",
        "substring_after( val = {v} sub = {w} occ = {i} len = {j} )",
        "substring_from( val = {v} sub = {w} occ = {i} )",
        "substring_to( val = {v} sub = {w} occ = {i} )",
        "find( val = {v} sub = {w} occ = {i} off = {j} )",
        "count( val = {v} sub = {w} off = {i} len = {j} )",
        "replace( val = {v} sub = {w} with = {v} occ = {i} )",
        "replace( val = {v} off = {i} len = {j} with = {w} )",
        "shift_left( val = {v} places = {i} )",
        "shift_right( val = {v} circular = {i} )",
        "shift_left( val = {v} sub = {w} )",
        "condense( val = {v} del = {w} from = {w} to = {v} )",
        "repeat( val = {v} occ = {i} )",
        "segment( val = {v} index = {i} sep = {w} )",
        "segment( val = {v} index = {i} space = {w} )",
        "to_mixed( val = {v} sep = {w} case = {w} )",
        "from_mixed( val = {v} sep = {w} )",
        "insert( val = {v} sub = {w} off = {i} )",
        "translate( val = {v} from = {w} to = {v} )",
        "find_any_of( val = {v} sub = {w} occ = {i} off = {j} )",
        "count_any_not_of( val = {v} sub = {w} off = {i} len = {j} )",
        "distance( val1 = {v} val2 = {w} )",
        "cmax( val1 = {v} val2 = {w} )",
        "numofchar( {v} )",
        "reverse( {v} )",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Every string function on any of these arguments ends normally or with a runtime
        /// error (caught or not), never with a panic.
        #[test]
        fn string_functions_never_panic(
            call in prop::sample::select(CALLS),
            v in prop::sample::select(VALS),
            w in prop::sample::select(VALS),
            i in prop::sample::select(INTS),
            j in prop::sample::select(INTS),
        ) {
            let expr = call
                .replace("{v}", v)
                .replace("{w}", w)
                .replace("{i}", i)
                .replace("{j}", j);
            let main = format!(
                "    TRY.\n        out->write( |{{ {expr} }}| ).\n      CATCH cx_root.\n    ENDTRY.\n    IF contains( val = {v} sub = {w} occ = {i} ).\n    ENDIF."
            );
            let _ = run(&main);
        }
    }
}

#[test]
fn documented_substring_examples_and_len() {
    let main = "    DATA t TYPE string VALUE `ABCDEFGH`.\n    out->write( |{ substring( val = t off = 2 len = 2 ) } { substring_from( val = t sub = 'CD' ) } { substring_after( val = t sub = 'CD' ) } { substring_before( val = t sub = 'CD' ) } { substring_to( val = t sub = 'CD' ) }| ).\n    out->write( |{ substring_before( val = t sub = 'EF' len = 2 ) } { substring_to( val = t sub = 'EF' len = 2 ) } { substring_from( val = t sub = 'CD' len = 3 ) } { substring_after( val = t sub = 'CD' len = 1 ) }| ).\n    TRY.\n        out->write( substring_before( val = t sub = 'CD' len = 3 ) ).\n      CATCH cx_sy_range_out_of_bounds.\n        out->write( `len before the start` ).\n    ENDTRY.";
    assert_eq!(
        out(main),
        "CD CDEFGH EFGH AB ABCD\nCD CDEF CDE E\nlen before the start"
    );
}

#[test]
fn documented_parameter_errors() {
    let main = "    DATA n TYPE i.\n    TRY.\n        n = find( val = `abc` sub = `` ).\n      CATCH cx_sy_strg_par_val.\n        out->write( `empty sub` ).\n    ENDTRY.\n    TRY.\n        n = find( val = `abc` sub = `b` occ = 0 ).\n      CATCH cx_sy_strg_par_val.\n        out->write( `occ 0` ).\n    ENDTRY.\n    TRY.\n        out->write( shift_left( val = `abc` places = 4 ) ).\n      CATCH cx_sy_range_out_of_bounds.\n        out->write( `places 4` ).\n    ENDTRY.\n    TRY.\n        out->write( to_mixed( val = `a_b` sep = ' ' ) ).\n      CATCH cx_sy_strg_par_val.\n        out->write( `blank sep is empty` ).\n    ENDTRY.\n    out->write( replace( val = `a-b-c` sub = `-` with = `` occ = 0 ) ).";
    assert_eq!(
        out(main),
        "empty sub\nocc 0\nplaces 4\nblank sep is empty\nabc"
    );
    assert_eq!(
        dump_id("    out->write( segment( val = `a b` index = 0 ) )."),
        "STRG_ILLEGAL_PAR"
    );
}

#[test]
fn fixed_length_arguments_drop_trailing_blanks() {
    let main = "    out->write( |[{ condense( val = `  a  b  ` del = ' ' ) }]| ).\n    out->write( |[{ segment( val = `a b c` index = 2 ) }]| ).\n    out->write( |[{ to_mixed( val = `ABAP_DOCU_START` case = 'a' ) }][{ from_mixed( val = `abapDocuStart` sep = '.' min = 5 ) }]| ).";
    assert_eq!(out(main), "[ a b ]\n[b]\n[abapDocuStart][ABAPDOCU.START]");
}

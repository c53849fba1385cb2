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
    let main = r"    DATA s TYPE string VALUE `Hello World`.
    out->write( |[{ substring( val = s off = 6 len = 3 ) }]| ).
    out->write( |[{ substring( val = s off = 6 ) }]| ).
    out->write( |[{ substring( val = s len = 5 ) }]| ).
    out->write( |[{ substring_after( val = s sub = `o` ) }]| ).
    out->write( |[{ substring_after( val = s sub = `o` occ = 2 ) }]| ).
    out->write( |[{ substring_before( val = s sub = `o` occ = -1 ) }]| ).
    out->write( |[{ substring_from( val = s sub = `W` ) }]| ).
    out->write( |[{ substring_to( val = s sub = `l` ) }]| ).
    out->write( |[{ substring_after( val = s sub = `x` ) }]| ).
    out->write( |[{ substring_after( val = s sub = `WORLD` case = abap_false ) }]| ).
    out->write( |[{ substring_after( val = s sub = `l` len = 2 ) }]| ).";
    assert_eq!(
        out(main),
        r"[Wor]
[World]
[Hello]
[ World]
[rld]
[Hello W]
[World]
[Hel]
[]
[]
[lo]"
    );
}

#[test]
fn substring_range_errors_are_catchable() {
    let main = r"    DATA s TYPE string VALUE `abc`.
    TRY.
        out->write( substring( val = s off = 4 ) ).
      CATCH cx_sy_range_out_of_bounds.
        out->write( `off` ).
    ENDTRY.
    TRY.
        out->write( substring( val = s off = 1 len = -1 ) ).
      CATCH cx_sy_range_out_of_bounds INTO DATA(x).
        out->write( `len` ).
    ENDTRY.
    TRY.
        out->write( substring( val = s off = 2 len = 2 ) ).
      CATCH cx_root.
        out->write( `root` ).
    ENDTRY.";
    assert_eq!(
        out(main),
        r"off
len
root"
    );
    assert_eq!(
        dump_id("    out->write( substring( val = `abc` off = 9 ) )."),
        "STRING_OFFSET_TOO_LARGE"
    );
}

#[test]
fn find_count_and_contains() {
    let main = r"    DATA s TYPE string VALUE `abcabcab`.
    out->write( |{ find( val = s sub = `ab` ) }| ).
    out->write( |{ find( val = s sub = `ab` occ = 2 ) }| ).
    out->write( |{ find( val = s sub = `ab` occ = -1 ) }| ).
    out->write( |{ find( val = s sub = `x` ) }| ).
    out->write( |{ find( val = s sub = `AB` case = abap_false occ = 3 ) }| ).
    out->write( |{ find( val = s sub = `c` off = 3 ) }| ).
    out->write( |{ count( val = s sub = `ab` ) }| ).
    out->write( |{ count( val = s sub = `B` case = abap_false ) }| ).
    IF contains( val = s sub = `ca` ) AND NOT contains( val = s sub = `x` ).
      out->write( `sub` ).
    ENDIF.
    IF contains( val = s start = `abc` ) AND contains( val = s end = `ab` ) AND NOT contains( val = s start = `b` ).
      out->write( `start end` ).
    ENDIF.
    IF contains( val = s sub = `ab` occ = 3 ) AND NOT contains( val = s sub = `ab` occ = 4 ).
      out->write( `occ` ).
    ENDIF.
    IF contains_any_of( val = s sub = `xyc` ) AND NOT contains_any_not_of( val = `aaa` sub = `a` ).
      out->write( `any` ).
    ENDIF.";
    assert_eq!(
        out(main),
        r"0
3
6
-1
6
5
3
3
sub
start end
occ
any"
    );
}

#[test]
fn replace_shift_condense() {
    let main = r"    DATA s TYPE string VALUE `a-b-c`.
    out->write( replace( val = s sub = `-` with = `+` ) ).
    out->write( replace( val = s sub = `-` with = `+` occ = 0 ) ).
    out->write( replace( val = s sub = `-` with = `` occ = -1 ) ).
    out->write( replace( val = s off = 1 len = 3 with = `XY` ) ).
    out->write( replace( val = s off = 1 with = `*` ) ).
    out->write( |[{ shift_left( val = `  ab ` ) }]| ).
    out->write( |[{ shift_right( val = ` ab  ` ) }]| ).
    out->write( shift_left( val = `abcde` places = 2 ) ).
    out->write( shift_right( val = `abcde` places = 2 ) ).
    out->write( shift_left( val = `abcde` circular = 2 ) ).
    out->write( shift_right( val = `abcde` circular = 2 ) ).
    out->write( shift_left( val = `xxxabc` sub = `x` ) ).
    out->write( |[{ condense( `  a   b  ` ) }]| ).
    out->write( |[{ condense( val = `xxaxxbxx` del = `x` from = `x` to = `-` ) }]| ).
    out->write( |[{ condense( val = ` a  b ` from = ` ` to = `` ) }]| ).";
    assert_eq!(
        out(main),
        r"a+b-c
a+b+c
a-bc
aXYc
a*-b-c
[ab ]
[ ab]
cde
abc
cdeab
deabc
abc
[a b]
[a-b]
[ab]"
    );
}

#[test]
fn other_functions() {
    let main = r"    DATA lt TYPE string_table.
    APPEND `a` TO lt.
    APPEND `b` TO lt.
    APPEND `c` TO lt.
    out->write( concat_lines_of( table = lt sep = `, ` ) ).
    out->write( concat_lines_of( lt ) ).
    out->write( repeat( val = `ab` occ = 3 ) ).
    out->write( |[{ repeat( val = `ab` occ = 0 ) }]| ).
    out->write( reverse( `abc` ) ).
    out->write( segment( val = `a,b,c` index = 2 sep = `,` ) ).
    out->write( segment( val = `a,b,c` index = -1 sep = `,` ) ).
    out->write( segment( val = `a  b c` index = 2 space = ` ` ) ).
    out->write( to_mixed( `THIS_IS_A_TEXT` ) ).
    out->write( to_mixed( val = `this is` sep = ` ` ) ).
    out->write( from_mixed( `ThisIsAText` ) ).
    out->write( from_mixed( val = `helloWorld` sep = `-` ) ).
    out->write( to_upper( `abc` ) && to_lower( `DEF` ) ).
    DATA c10 TYPE c LENGTH 10 VALUE 'ab'.
    out->write( |{ strlen( c10 ) }| ).
    out->write( |{ strlen( `ab  ` ) }| ).
    out->write( |{ numofchar( `ab  ` ) }| ).
    out->write( cmax( val1 = `b` val2 = `c` val3 = `a` ) ).
    out->write( cmin( val1 = `b` val2 = `c` val3 = `a` ) ).
    out->write( insert( val = `abc` sub = `XY` off = 1 ) ).
    out->write( translate( val = `abcabc` from = `ab` to = `x` ) ).";
    assert_eq!(
        out(main),
        r"a, b, c
abc
ababab
[]
cba
b
c
b
ThisIsAText
thisIs
THIS_IS_A_TEXT
HELLO-WORLD
ABCdef
2
4
2
c
a
aXYbc
xcxc"
    );
}

#[test]
fn segment_and_repeat_errors() {
    let main = r"    TRY.
        out->write( segment( val = `a,b` index = 3 sep = `,` ) ).
      CATCH cx_sy_strg_par_val.
        out->write( `no segment` ).
    ENDTRY.
    TRY.
        out->write( repeat( val = `a` occ = -1 ) ).
      CATCH cx_sy_strg_par_val.
        out->write( `negative occ` ).
    ENDTRY.";
    assert_eq!(out(main), "no segment\nnegative occ");
}

#[test]
fn boolean_functions_take_a_condition() {
    let main = r"    DATA a TYPE i VALUE 3.
    DATA b TYPE i VALUE 2.
    DATA(x) = xsdbool( a > b ).
    out->write( |[{ x }][{ xsdbool( a < b ) }][{ boolc( a > b AND b > 1 ) }][{ boolc( a < b ) }]| ).
    IF xsdbool( a < b ) = abap_false.
      out->write( `xsdbool false is abap_false` ).
    ENDIF.
    out->write( |{ strlen( boolc( a < b ) ) }| ).";
    assert_eq!(
        out(main),
        r"[X][][X][ ]
xsdbool false is abap_false
1"
    );
}

#[test]
fn line_index_is_the_row_number() {
    let main = r"    TYPES: BEGIN OF ty, k TYPE i, v TYPE string, END OF ty.
    DATA lt TYPE STANDARD TABLE OF ty WITH EMPTY KEY.
    lt = VALUE #( ( k = 1 v = `a` ) ( k = 2 v = `b` ) ( k = 3 v = `c` ) ).
    out->write( |{ line_index( lt[ k = 3 ] ) }| ).
    out->write( |{ line_index( lt[ v = `b` ] ) }| ).
    out->write( |{ line_index( lt[ k = 9 ] ) }| ).";
    assert_eq!(
        out(main),
        r"3
2
0"
    );
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
    let main = r"    DATA s TYPE string VALUE `ab12c3`.
    out->write( |{ find_any_of( val = s sub = `0123456789` ) } { find_any_of( val = s sub = `0123456789` occ = -1 ) } { find_any_not_of( val = s sub = `abc` occ = 2 ) } { find_any_of( val = s sub = `xyz` ) }| ).
    out->write( |{ count_any_of( val = s sub = `0123456789` ) } { count_any_not_of( val = s sub = `0123456789` ) }| ).
    out->write( |{ distance( val1 = `kitten` val2 = `sitting` ) } { distance( val1 = '123ABC' val2 = '124ACDE' max = 3 ) } { distance( val1 = `abcdefg` val2 = `aXcdXXg` ) }| ).";
    assert_eq!(
        out(main),
        r"2 5 3 -1
3 3
3 3 3"
    );
}

#[test]
fn line_index_on_sorted_and_hashed_tables() {
    let main = r"    DATA st TYPE SORTED TABLE OF i WITH UNIQUE KEY table_line.
    st = VALUE #( ( 30 ) ( 10 ) ( 20 ) ).
    out->write( |{ line_index( st[ table_line = 30 ] ) }| ).
    DATA ht TYPE HASHED TABLE OF i WITH UNIQUE KEY table_line.
    ht = VALUE #( ( 1 ) ).
    out->write( |{ line_index( ht[ table_line = 1 ] ) }| ).";
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
                r"    TRY.
        out->write( |{{ {expr} }}| ).
      CATCH cx_root.
    ENDTRY.
    IF contains( val = {v} sub = {w} occ = {i} ).
    ENDIF."
            );
            let _ = run(&main);
        }
    }
}

#[test]
fn documented_substring_examples_and_len() {
    let main = r"    DATA t TYPE string VALUE `ABCDEFGH`.
    out->write( |{ substring( val = t off = 2 len = 2 ) } { substring_from( val = t sub = 'CD' ) } { substring_after( val = t sub = 'CD' ) } { substring_before( val = t sub = 'CD' ) } { substring_to( val = t sub = 'CD' ) }| ).
    out->write( |{ substring_before( val = t sub = 'EF' len = 2 ) } { substring_to( val = t sub = 'EF' len = 2 ) } { substring_from( val = t sub = 'CD' len = 3 ) } { substring_after( val = t sub = 'CD' len = 1 ) }| ).
    TRY.
        out->write( substring_before( val = t sub = 'CD' len = 3 ) ).
      CATCH cx_sy_range_out_of_bounds.
        out->write( `len before the start` ).
    ENDTRY.";
    assert_eq!(
        out(main),
        r"CD CDEFGH EFGH AB ABCD
CD CDEF CDE E
len before the start"
    );
}

#[test]
fn documented_parameter_errors() {
    let main = r"    DATA n TYPE i.
    TRY.
        n = find( val = `abc` sub = `` ).
      CATCH cx_sy_strg_par_val.
        out->write( `empty sub` ).
    ENDTRY.
    TRY.
        n = find( val = `abc` sub = `b` occ = 0 ).
      CATCH cx_sy_strg_par_val.
        out->write( `occ 0` ).
    ENDTRY.
    TRY.
        out->write( shift_left( val = `abc` places = 4 ) ).
      CATCH cx_sy_range_out_of_bounds.
        out->write( `places 4` ).
    ENDTRY.
    TRY.
        out->write( to_mixed( val = `a_b` sep = ' ' ) ).
      CATCH cx_sy_strg_par_val.
        out->write( `blank sep is empty` ).
    ENDTRY.
    out->write( replace( val = `a-b-c` sub = `-` with = `` occ = 0 ) ).";
    assert_eq!(
        out(main),
        r"empty sub
occ 0
places 4
blank sep is empty
abc"
    );
    assert_eq!(
        dump_id("    out->write( segment( val = `a b` index = 0 ) )."),
        "STRG_ILLEGAL_PAR"
    );
}

#[test]
fn fixed_length_arguments_drop_trailing_blanks() {
    let main = r"    out->write( |[{ condense( val = `  a  b  ` del = ' ' ) }]| ).
    out->write( |[{ segment( val = `a b c` index = 2 ) }]| ).
    out->write( |[{ to_mixed( val = `ABAP_DOCU_START` case = 'a' ) }][{ from_mixed( val = `abapDocuStart` sep = '.' min = 5 ) }]| ).";
    assert_eq!(
        out(main),
        r"[ a b ]
[b]
[abapDocuStart][ABAPDOCU.START]"
    );
}

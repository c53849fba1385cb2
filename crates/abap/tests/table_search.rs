//! `FIND … IN TABLE` and `REPLACE … IN TABLE`, `FIND|REPLACE … RESULTS` (and `SPLIT … INTO TABLE
//! DATA(t)`, `sy-abcde`, obsolete `SEARCH`), run through `Repository::run_classrun`.

use abap::RunError;

use crate::harness::run;

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

const ROWS: &str = r"DATA t TYPE string_table.
t = VALUE #( ( `apple pie` ) ( `banana` ) ( `cherry pie and apple` ) ).
";

#[test]
fn find_in_table_reports_count_line_offset_and_submatches() {
    let main = [
        ROWS,
        r"FIND FIRST OCCURRENCE OF `apple` IN TABLE t MATCH LINE DATA(ln) MATCH OFFSET DATA(off).
out->write( |first: line { ln } offset { off } rc { sy-subrc }| ).
FIND ALL OCCURRENCES OF `pie` IN TABLE t MATCH COUNT DATA(cnt) MATCH LINE ln MATCH OFFSET off MATCH LENGTH DATA(len).
out->write( |all: { cnt } last line { ln } offset { off } length { len }| ).
FIND `kiwi` IN TABLE t MATCH LINE ln.
out->write( |kiwi: rc { sy-subrc } line { ln }| ).
FIND REGEX `b(an)+a` IN TABLE t MATCH LINE ln SUBMATCHES DATA(sm).
out->write( |regex: line { ln } group { sm }| ).
FIND `APPLE` IN TABLE t IGNORING CASE MATCH LINE ln.
out->write( |case: line { ln }| ).",
    ]
    .concat();
    assert_eq!(
        out(&main),
        r"first: line 1 offset 0 rc 0
all: 2 last line 3 offset 7 length 3
kiwi: rc 4 line 3
regex: line 2 group an
case: line 1"
    );
}

#[test]
fn replace_in_table_changes_rows_and_reports_the_last_replacement() {
    let main = [
        ROWS,
        r"REPLACE ALL OCCURRENCES OF `pie` IN TABLE t WITH `tart` REPLACEMENT COUNT DATA(rc) REPLACEMENT LINE DATA(rl) REPLACEMENT OFFSET DATA(ro).
out->write( |replaced { rc } last line { rl } offset { ro } rc { sy-subrc }| ).
REPLACE FIRST OCCURRENCE OF `A` IN TABLE t WITH `@` IGNORING CASE.
LOOP AT t INTO DATA(row).
  out->write( row ).
ENDLOOP.
REPLACE `kiwi` IN TABLE t WITH `x`.
out->write( |kiwi: rc { sy-subrc }| ).",
    ]
    .concat();
    assert_eq!(
        out(&main),
        r"replaced 2 last line 3 offset 7 rc 0
@pple tart
banana
cherry tart and apple
kiwi: rc 4"
    );
}

#[test]
fn replace_in_a_table_of_fixed_length_lines_cuts_and_says_so() {
    let main = r"DATA ct TYPE TABLE OF char10 WITH EMPTY KEY.
ct = VALUE #( ( 'abcdefgh' ) ( 'xyz' ) ).
REPLACE ALL OCCURRENCES OF `h` IN TABLE ct WITH `HHHH`.
out->write( |rc { sy-subrc } { ct[ 1 ] } { ct[ 2 ] }| ).";
    assert_eq!(out(main), "rc 2 abcdefgHHH xyz");
}

#[test]
fn split_into_an_inline_table() {
    let main = "SPLIT `x;y;z` AT ';' INTO TABLE DATA(parts).\nout->write( |{ lines( parts ) } { parts[ 3 ] }| ).";
    assert_eq!(out(main), "3 z");
}

#[test]
fn tables_of_structures_are_not_searched() {
    let main = r"TYPES: BEGIN OF ty, a TYPE string, END OF ty.
DATA st TYPE TABLE OF ty WITH EMPTY KEY.
FIND `a` IN TABLE st.";
    match run(main) {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "SIMULATOR_NOT_SUPPORTED"),
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn find_results_fill_match_result_tables_and_structures() {
    let main = r"FIND ALL OCCURRENCES OF REGEX `a(b)?` IN `xab a` RESULTS DATA(res).
LOOP AT res INTO DATA(r).
  LOOP AT r-submatches INTO DATA(s).
    out->write( |{ r-line } { r-offset } { r-length } group { s-offset } { s-length }| ).
  ENDLOOP.
ENDLOOP.
FIND FIRST OCCURRENCE OF `b` IN `abcb` RESULTS DATA(one).
out->write( |first { one-offset } { one-length } { lines( one-submatches ) }| ).
DATA t TYPE string_table.
t = VALUE #( ( `ab` ) ( `xab` ) ).
FIND ALL OCCURRENCES OF `ab` IN TABLE t RESULTS DATA(rt).
LOOP AT rt INTO DATA(x).
  out->write( |line { x-line } { x-offset }| ).
ENDLOOP.
DATA mr TYPE match_result.
mr-offset = 7.
FIND `zz` IN `abc` RESULTS mr.
out->write( |none { sy-subrc } { mr-offset }| ).";
    assert_eq!(
        out(main),
        r"0 1 2 group 2 1
0 4 1 group -1 0
first 1 1 0
line 1 0
line 2 1
none 4 7"
    );
}

#[test]
fn sy_abcde_is_the_alphabet() {
    let main = r"IF 'abc' CA sy-abcde.
ELSE.
  out->write( |lower case: { sy-fdpos }| ).
ENDIF.
IF 'aBc' CA sy-abcde.
  out->write( |upper at { sy-fdpos }| ).
ENDIF.";
    assert_eq!(out(main), "lower case: 3\nupper at 1");
}

#[test]
fn replace_results_give_the_places_in_the_changed_text() {
    let main = r"DATA(s) = `hello world`.
REPLACE ALL OCCURRENCES OF REGEX `o` IN s WITH `00` RESULTS DATA(rr).
out->write( s ).
LOOP AT rr INTO DATA(r).
  out->write( |{ r-line } { r-offset } { r-length }| ).
ENDLOOP.
REPLACE FIRST OCCURRENCE OF `l` IN s WITH `L` RESULTS DATA(one).
out->write( |{ s } { one-offset } { one-length }| ).
DATA t TYPE string_table.
t = VALUE #( ( `ab` ) ( `b` ) ).
REPLACE ALL OCCURRENCES OF `b` IN TABLE t WITH `xy` RESULTS DATA(rt).
LOOP AT rt INTO r.
  out->write( |{ r-line } { r-offset } { r-length }| ).
ENDLOOP.";
    assert_eq!(
        out(main),
        r"hell00 w00rld
0 4 2
0 8 2
heLl00 w00rld 2 1
1 1 2
2 0 2"
    );
}

#[test]
fn obsolete_search_finds_without_case() {
    let main = r"DATA s TYPE string VALUE `Hello big World`.
SEARCH s FOR 'WORLD'.
out->write( |{ sy-subrc } { sy-fdpos }| ).
SEARCH s FOR '. big .'.
out->write( |{ sy-subrc } { sy-fdpos }| ).
SEARCH s FOR 'xyz'.
out->write( |{ sy-subrc }| ).";
    assert_eq!(
        out(main),
        r"0 10
0 5
4"
    );
    match run("SEARCH `abc` FOR 'b*'.") {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "SIMULATOR_NOT_SUPPORTED"),
        other => panic!("expected a dump, got {other:?}"),
    }
}

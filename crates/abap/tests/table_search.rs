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

const ROWS: &str = "DATA t TYPE string_table.\nt = VALUE #( ( `apple pie` ) ( `banana` ) ( `cherry pie and apple` ) ).\n";

#[test]
fn find_in_table_reports_count_line_offset_and_submatches() {
    let main = [
        ROWS,
        "FIND FIRST OCCURRENCE OF `apple` IN TABLE t MATCH LINE DATA(ln) MATCH OFFSET DATA(off).\nout->write( |first: line { ln } offset { off } rc { sy-subrc }| ).\nFIND ALL OCCURRENCES OF `pie` IN TABLE t MATCH COUNT DATA(cnt) MATCH LINE ln MATCH OFFSET off MATCH LENGTH DATA(len).\nout->write( |all: { cnt } last line { ln } offset { off } length { len }| ).\nFIND `kiwi` IN TABLE t MATCH LINE ln.\nout->write( |kiwi: rc { sy-subrc } line { ln }| ).\nFIND REGEX `b(an)+a` IN TABLE t MATCH LINE ln SUBMATCHES DATA(sm).\nout->write( |regex: line { ln } group { sm }| ).\nFIND `APPLE` IN TABLE t IGNORING CASE MATCH LINE ln.\nout->write( |case: line { ln }| ).",
    ]
    .concat();
    assert_eq!(
        out(&main),
        "first: line 1 offset 0 rc 0\nall: 2 last line 3 offset 7 length 3\nkiwi: rc 4 line 3\nregex: line 2 group an\ncase: line 1"
    );
}

#[test]
fn replace_in_table_changes_rows_and_reports_the_last_replacement() {
    let main = [
        ROWS,
        "REPLACE ALL OCCURRENCES OF `pie` IN TABLE t WITH `tart` REPLACEMENT COUNT DATA(rc) REPLACEMENT LINE DATA(rl) REPLACEMENT OFFSET DATA(ro).\nout->write( |replaced { rc } last line { rl } offset { ro } rc { sy-subrc }| ).\nREPLACE FIRST OCCURRENCE OF `A` IN TABLE t WITH `@` IGNORING CASE.\nLOOP AT t INTO DATA(row).\n  out->write( row ).\nENDLOOP.\nREPLACE `kiwi` IN TABLE t WITH `x`.\nout->write( |kiwi: rc { sy-subrc }| ).",
    ]
    .concat();
    assert_eq!(
        out(&main),
        "replaced 2 last line 3 offset 7 rc 0\n@pple tart\nbanana\ncherry tart and apple\nkiwi: rc 4"
    );
}

#[test]
fn replace_in_a_table_of_fixed_length_lines_cuts_and_says_so() {
    let main = "DATA ct TYPE TABLE OF char10 WITH EMPTY KEY.\nct = VALUE #( ( 'abcdefgh' ) ( 'xyz' ) ).\nREPLACE ALL OCCURRENCES OF `h` IN TABLE ct WITH `HHHH`.\nout->write( |rc { sy-subrc } { ct[ 1 ] } { ct[ 2 ] }| ).";
    assert_eq!(out(main), "rc 2 abcdefgHHH xyz");
}

#[test]
fn split_into_an_inline_table() {
    let main = "SPLIT `x;y;z` AT ';' INTO TABLE DATA(parts).\nout->write( |{ lines( parts ) } { parts[ 3 ] }| ).";
    assert_eq!(out(main), "3 z");
}

#[test]
fn tables_of_structures_are_not_searched() {
    let main = "TYPES: BEGIN OF ty, a TYPE string, END OF ty.\nDATA st TYPE TABLE OF ty WITH EMPTY KEY.\nFIND `a` IN TABLE st.";
    match run(main) {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "SIMULATOR_NOT_SUPPORTED"),
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn find_results_fill_match_result_tables_and_structures() {
    let main = "FIND ALL OCCURRENCES OF REGEX `a(b)?` IN `xab a` RESULTS DATA(res).\nLOOP AT res INTO DATA(r).\n  LOOP AT r-submatches INTO DATA(s).\n    out->write( |{ r-line } { r-offset } { r-length } group { s-offset } { s-length }| ).\n  ENDLOOP.\nENDLOOP.\nFIND FIRST OCCURRENCE OF `b` IN `abcb` RESULTS DATA(one).\nout->write( |first { one-offset } { one-length } { lines( one-submatches ) }| ).\nDATA t TYPE string_table.\nt = VALUE #( ( `ab` ) ( `xab` ) ).\nFIND ALL OCCURRENCES OF `ab` IN TABLE t RESULTS DATA(rt).\nLOOP AT rt INTO DATA(x).\n  out->write( |line { x-line } { x-offset }| ).\nENDLOOP.\nDATA mr TYPE match_result.\nmr-offset = 7.\nFIND `zz` IN `abc` RESULTS mr.\nout->write( |none { sy-subrc } { mr-offset }| ).";
    assert_eq!(
        out(main),
        "0 1 2 group 2 1\n0 4 1 group -1 0\nfirst 1 1 0\nline 1 0\nline 2 1\nnone 4 7"
    );
}

#[test]
fn sy_abcde_is_the_alphabet() {
    let main = "IF 'abc' CA sy-abcde.\nELSE.\n  out->write( |lower case: { sy-fdpos }| ).\nENDIF.\nIF 'aBc' CA sy-abcde.\n  out->write( |upper at { sy-fdpos }| ).\nENDIF.";
    assert_eq!(out(main), "lower case: 3\nupper at 1");
}

#[test]
fn replace_results_give_the_places_in_the_changed_text() {
    let main = "DATA(s) = `hello world`.\nREPLACE ALL OCCURRENCES OF REGEX `o` IN s WITH `00` RESULTS DATA(rr).\nout->write( s ).\nLOOP AT rr INTO DATA(r).\n  out->write( |{ r-line } { r-offset } { r-length }| ).\nENDLOOP.\nREPLACE FIRST OCCURRENCE OF `l` IN s WITH `L` RESULTS DATA(one).\nout->write( |{ s } { one-offset } { one-length }| ).\nDATA t TYPE string_table.\nt = VALUE #( ( `ab` ) ( `b` ) ).\nREPLACE ALL OCCURRENCES OF `b` IN TABLE t WITH `xy` RESULTS DATA(rt).\nLOOP AT rt INTO r.\n  out->write( |{ r-line } { r-offset } { r-length }| ).\nENDLOOP.";
    assert_eq!(
        out(main),
        "hell00 w00rld\n0 4 2\n0 8 2\nheLl00 w00rld 2 1\n1 1 2\n2 0 2"
    );
}

#[test]
fn obsolete_search_finds_without_case() {
    let main = "DATA s TYPE string VALUE `Hello big World`.\nSEARCH s FOR 'WORLD'.\nout->write( |{ sy-subrc } { sy-fdpos }| ).\nSEARCH s FOR '. big .'.\nout->write( |{ sy-subrc } { sy-fdpos }| ).\nSEARCH s FOR 'xyz'.\nout->write( |{ sy-subrc }| ).";
    assert_eq!(out(main), "0 10\n0 5\n4");
    match run("SEARCH `abc` FOR 'b*'.") {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "SIMULATOR_NOT_SUPPORTED"),
        other => panic!("expected a dump, got {other:?}"),
    }
}

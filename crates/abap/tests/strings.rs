//! String statements (CONCATENATE, SPLIT, CONDENSE, TRANSLATE, SHIFT, FIND, REPLACE, OVERLAY)
//! and the comparison operators for character strings, run through `Repository::run_classrun`.

use abap::RunError;

use crate::harness::run;

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn concatenate_drops_trailing_blanks_of_fixed_fields_unless_asked() {
    assert_eq!(
        out(
            "DATA c10 TYPE c LENGTH 10 VALUE 'ab'.\nDATA s TYPE string.\nCONCATENATE c10 'cd' `ef ` INTO s.\nout->write( |[{ s }]| ).\nCONCATENATE 'a' 'b' INTO s SEPARATED BY space.\nout->write( |[{ s }]| ).\nCONCATENATE c10 'x' INTO s RESPECTING BLANKS.\nout->write( |[{ s }]| ).\nCONCATENATE 'a' 'b' 'c' INTO DATA(lv_new) SEPARATED BY `, `.\nout->write( lv_new )."
        ),
        "[abcdef ]\n[a b]\n[ab        x]\na, b, c"
    );
}

#[test]
fn concatenate_into_a_short_field_cuts_and_says_so() {
    assert_eq!(
        out(
            "DATA c3 TYPE c LENGTH 3.\nCONCATENATE 'abc' 'def' INTO c3.\nout->write( |{ c3 } { sy-subrc }| ).\nCONCATENATE 'a' 'b' INTO c3.\nout->write( |{ c3 } { sy-subrc }| )."
        ),
        "abc 4\nab 0"
    );
}

#[test]
fn concatenate_lines_of_a_table() {
    assert_eq!(
        out(
            "DATA lt TYPE string_table.\nDATA s TYPE string.\nAPPEND `a` TO lt.\nAPPEND `b` TO lt.\nAPPEND `c` TO lt.\nCONCATENATE LINES OF lt INTO s SEPARATED BY ','.\nout->write( s )."
        ),
        "a,b,c"
    );
}

#[test]
fn split_into_a_table_keeps_inner_empty_segments_but_no_trailing_one() {
    assert_eq!(
        out(
            "DATA lt TYPE string_table.\nSPLIT 'a,b,,c' AT ',' INTO TABLE lt.\nout->write( lines( lt ) ).\nout->write( |[{ lt[ 3 ] }]| ).\nSPLIT 'a,b,' AT ',' INTO TABLE lt.\nout->write( lines( lt ) ).\nSPLIT `,x` AT ',' INTO TABLE lt.\nout->write( |{ lines( lt ) } [{ lt[ 1 ] }]| )."
        ),
        "4 \n[]\n2 \n2 []"
    );
}

#[test]
fn split_into_fields_gives_the_rest_to_the_last_and_clears_the_others() {
    assert_eq!(
        out(
            "DATA a TYPE string.\nDATA b TYPE string.\nDATA c TYPE string VALUE `old`.\nSPLIT 'a,b,c' AT ',' INTO a b.\nout->write( |{ a }/{ b }| ).\nSPLIT 'x;y' AT ';' INTO a b c.\nout->write( |{ a }/{ b }/[{ c }] { sy-subrc }| ).\nDATA c1 TYPE c LENGTH 1.\nSPLIT 'ab cd' AT space INTO c1 DATA(lv_rest).\nout->write( |{ c1 }/{ lv_rest } { sy-subrc }| )."
        ),
        "a/b,c\nx/y/[] 0\na/cd 4"
    );
}

#[test]
fn condense_translate_overlay() {
    assert_eq!(
        out(
            "DATA s TYPE string VALUE `  a   b  `.\nDATA c10 TYPE c LENGTH 10 VALUE '  a  b'.\nCONDENSE s.\nCONDENSE c10.\nout->write( |[{ s }][{ c10 }]| ).\ns = ` a b c `.\nCONDENSE s NO-GAPS.\nout->write( s ).\nTRANSLATE s TO UPPER CASE.\nout->write( s ).\nDATA m TYPE string VALUE `a_b_c`.\nTRANSLATE m USING '_ '.\nout->write( |[{ m }]| ).\nTRANSLATE m TO LOWER CASE.\nDATA o TYPE c LENGTH 5 VALUE 'a c e'.\nOVERLAY o WITH 'ABCDE'.\nout->write( |{ o } { sy-subrc }| )."
        ),
        "[a b][a b]\nabc\nABC\n[a b c]\naBcDe 0"
    );
}

#[test]
fn shift_fixed_fields_and_strings() {
    assert_eq!(
        out(
            "DATA c5 TYPE c LENGTH 5 VALUE 'abcde'.\nSHIFT c5.\nout->write( |[{ c5 }]| ).\nc5 = 'abcde'.\nSHIFT c5 BY 2 PLACES RIGHT.\nout->write( |[{ c5 }]| ).\nc5 = 'abcde'.\nSHIFT c5 LEFT BY 2 PLACES CIRCULAR.\nout->write( |[{ c5 }]| ).\nDATA s TYPE string VALUE `abc`.\nSHIFT s RIGHT BY 2 PLACES.\nout->write( |[{ s }]| ).\nSHIFT s LEFT BY 3 PLACES.\nout->write( |[{ s }]| )."
        ),
        "[bcde]\n[  abc]\n[cdeab]\n[  abc]\n[bc]"
    );
}

#[test]
fn shift_deleting_and_up_to() {
    assert_eq!(
        out(
            "DATA c6 TYPE c LENGTH 6 VALUE '000120'.\nSHIFT c6 LEFT DELETING LEADING '0'.\nout->write( |[{ c6 }]| ).\nDATA c10 TYPE c LENGTH 10 VALUE 'ab'.\nSHIFT c10 RIGHT DELETING TRAILING space.\nDATA s TYPE string.\ns = c10.\nout->write( |[{ s }]| ).\ns = `abcde`.\nSHIFT s UP TO 'c'.\nout->write( |{ s } { sy-subrc }| ).\nSHIFT s UP TO 'x'.\nout->write( |{ s } { sy-subrc }| )."
        ),
        "[120]\n[        ab]\ncde 0\ncde 4"
    );
}

#[test]
fn find_first_all_case_and_section() {
    assert_eq!(
        out(
            "DATA o TYPE i.\nDATA l TYPE i.\nFIND FIRST OCCURRENCE OF 'b' IN 'abcabc' MATCH OFFSET o MATCH LENGTH l.\nout->write( |{ sy-subrc } { o } { l }| ).\nFIND ALL OCCURRENCES OF 'bc' IN 'abcabc' MATCH COUNT DATA(n) MATCH OFFSET o.\nout->write( |{ n } { o }| ).\nFIND 'B' IN 'abc'.\nout->write( sy-subrc ).\nFIND 'B' IN 'abc' IGNORING CASE.\nout->write( sy-subrc ).\nFIND 'a' IN SECTION OFFSET 1 OF 'abca' MATCH OFFSET o.\nout->write( o ).\nFIND ALL OCCURRENCES OF 'z' IN 'abc' MATCH COUNT n.\nout->write( |{ n } { sy-subrc }| )."
        ),
        "0 1 1\n2 4\n4 \n0 \n3 \n0 4"
    );
}

#[test]
fn replace_pattern_section_and_obsolete_forms() {
    assert_eq!(
        out(
            "DATA s TYPE string VALUE `banana`.\nREPLACE ALL OCCURRENCES OF 'a' IN s WITH 'xy' REPLACEMENT COUNT DATA(n).\nout->write( |{ s } { n } { sy-subrc }| ).\ns = `banana`.\nREPLACE 'a' IN s WITH 'o'.\nout->write( s ).\nREPLACE 'q' IN s WITH 'o'.\nout->write( |{ s } { sy-subrc }| ).\ns = `Banana`.\nREPLACE ALL OCCURRENCES OF 'b' IN s WITH 'c' IGNORING CASE.\nout->write( s ).\ns = `abcd`.\nREPLACE SECTION OFFSET 1 LENGTH 2 OF s WITH 'XY'.\nout->write( s ).\nREPLACE 'd' WITH 'D' INTO s.\nout->write( s ).\nDATA c5 TYPE c LENGTH 5 VALUE 'aaaaa'.\nREPLACE ALL OCCURRENCES OF 'a' IN c5 WITH 'bb'.\nout->write( |{ c5 } { sy-subrc }| )."
        ),
        "bxynxynxy 3 0\nbonana\nbonana 4\ncanana\naXYd\naXYD\nbbbbb 2"
    );
}

#[test]
fn out_of_range_sections_are_runtime_errors_a_program_can_catch() {
    assert_eq!(
        out(
            "TRY.\n    FIND 'a' IN SECTION OFFSET 9 OF 'abc'.\n  CATCH cx_sy_range_out_of_bounds.\n    out->write( `caught` ).\nENDTRY."
        ),
        "caught"
    );
}

#[test]
fn regular_expressions_the_engine_cannot_run_are_reported_as_not_supported() {
    match run("FIND REGEX `(a)\\1` IN `aa`.") {
        Err(RunError::Dump { id, text, .. }) => {
            assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
            assert!(text.contains("regular expression"), "{text}");
        }
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn comparison_operators_for_character_strings_set_fdpos() {
    assert_eq!(
        out(
            "DATA s TYPE string VALUE `ABCA`.\nIF s CO 'ABC'.\n  out->write( |CO { sy-fdpos }| ).\nENDIF.\nIF s CN 'AB'.\n  out->write( |CN { sy-fdpos }| ).\nENDIF.\nIF s CA 'XC'.\n  out->write( |CA { sy-fdpos }| ).\nENDIF.\nIF s NA 'XYZ'.\n  out->write( |NA { sy-fdpos }| ).\nENDIF.\nIF s CS 'ca'.\n  out->write( |CS { sy-fdpos }| ).\nENDIF.\nIF s NS 'zz'.\n  out->write( |NS { sy-fdpos }| ).\nENDIF.\nIF s CP '*C+'.\n  out->write( |CP { sy-fdpos }| ).\nENDIF.\nIF s NP 'X*'.\n  out->write( |NP { sy-fdpos }| ).\nENDIF.\nIF NOT s CP 'B*'.\n  out->write( `not CP` ).\nENDIF."
        ),
        "CO 4\nCN 2\nCA 2\nNA 4\nCS 2\nNS 4\nCP 2\nNP 4\nnot CP"
    );
}

#[test]
fn text_comparisons_in_where_conditions_see_the_row() {
    assert_eq!(
        out(
            "DATA lt TYPE string_table.\nAPPEND `Anna` TO lt.\nAPPEND `Bob` TO lt.\nAPPEND `Alf` TO lt.\nLOOP AT lt INTO DATA(lv) WHERE table_line CP 'A*'.\n  out->write( lv ).\nENDLOOP."
        ),
        "Anna\nAlf"
    );
}

#[test]
fn offset_and_length_read_sections() {
    assert_eq!(
        out(
            "DATA c10 TYPE c LENGTH 10 VALUE 'ABCDEFGHIJ'.\nDATA s TYPE string VALUE `hello world`.\nDATA d TYPE d VALUE '20240315'.\nDATA off TYPE i VALUE 6.\nout->write( c10+2(3) ).\nout->write( c10(2) ).\nout->write( c10+8 ).\nout->write( s+off ).\nout->write( s+off(3) ).\nout->write( |{ d+4(2) }.{ d(4) }| ).\nDATA lv_month TYPE i.\nlv_month = d+4(2).\nout->write( lv_month )."
        ),
        "CDE\nAB\nIJ\nworld\nwor\n03.2024\n3 "
    );
}

#[test]
fn offset_and_length_write_into_fixed_fields() {
    assert_eq!(
        out(
            "DATA c6 TYPE c LENGTH 6 VALUE 'abcdef'.\nc6+2(2) = 'XYZ'.\nout->write( c6 ).\nc6(1) = 'Q'.\nout->write( c6 ).\nDATA d TYPE d VALUE '20240315'.\nd+6(2) = '01'.\nout->write( |{ d DATE = ISO }| )."
        ),
        "abXYef\nQbXYef\n2024-03-01"
    );
}

#[test]
fn sections_outside_the_field_are_catchable_runtime_errors() {
    assert_eq!(
        out(
            "DATA s TYPE string VALUE `abc`.\nDATA n TYPE i VALUE 5.\nTRY.\n    out->write( s+n ).\n  CATCH cx_sy_range_out_of_bounds.\n    out->write( `offset` ).\nENDTRY.\nDATA c3 TYPE c LENGTH 3 VALUE 'abc'.\nTRY.\n    out->write( c3+1(n) ).\n  CATCH cx_sy_range_out_of_bounds.\n    out->write( `length` ).\nENDTRY.\nout->write( s+3 )."
        ),
        "offset\nlength\n"
    );
}

#[test]
fn find_and_replace_with_regular_expressions() {
    assert_eq!(
        out(
            "DATA s TYPE string VALUE `order 12 of 2024-03-15, item 7`.\nFIND FIRST OCCURRENCE OF PCRE `(\\d{4})-(\\d{2})-(\\d{2})` IN s MATCH OFFSET DATA(o) MATCH LENGTH DATA(l) SUBMATCHES DATA(y) DATA(m) DATA(d).\nout->write( |{ o } { l } { d }.{ m }.{ y }| ).\nFIND ALL OCCURRENCES OF REGEX `[0-9]+` IN s MATCH COUNT DATA(n).\nout->write( n ).\nREPLACE ALL OCCURRENCES OF PCRE `(\\d{4})-(\\d{2})-(\\d{2})` IN s WITH `$3.$2.$1`.\nout->write( s ).\nREPLACE ALL OCCURRENCES OF REGEX `\\s+` IN s WITH `_` REPLACEMENT COUNT DATA(r).\nout->write( |{ s } { r }| ).\nFIND PCRE `ITEM` IN s IGNORING CASE MATCH OFFSET o.\nout->write( o )."
        ),
        "12 10 15.03.2024\n5 \norder 12 of 15.03.2024, item 7\norder_12_of_15.03.2024,_item_7 5\n24 "
    );
}

#[test]
fn posix_alternatives_are_not_run_with_another_matching_rule() {
    match run("FIND REGEX `a|ab` IN `ab`.") {
        Err(RunError::Dump { id, text, .. }) => {
            assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
            assert!(text.contains("alternatives"), "{text}");
        }
        other => panic!("expected a dump, got {other:?}"),
    }
    assert_eq!(
        out("FIND PCRE `a|ab` IN `ab` MATCH LENGTH DATA(l).\nout->write( l )."),
        "1 "
    );
}

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
        out(r"DATA c10 TYPE c LENGTH 10 VALUE 'ab'.
DATA s TYPE string.
CONCATENATE c10 'cd' `ef ` INTO s.
out->write( |[{ s }]| ).
CONCATENATE 'a' 'b' INTO s SEPARATED BY space.
out->write( |[{ s }]| ).
CONCATENATE c10 'x' INTO s RESPECTING BLANKS.
out->write( |[{ s }]| ).
CONCATENATE 'a' 'b' 'c' INTO DATA(lv_new) SEPARATED BY `, `.
out->write( lv_new )."),
        r"[abcdef ]
[a b]
[ab        x]
a, b, c"
    );
}

#[test]
fn concatenate_into_a_short_field_cuts_and_says_so() {
    assert_eq!(
        out(r"DATA c3 TYPE c LENGTH 3.
CONCATENATE 'abc' 'def' INTO c3.
out->write( |{ c3 } { sy-subrc }| ).
CONCATENATE 'a' 'b' INTO c3.
out->write( |{ c3 } { sy-subrc }| )."),
        "abc 4\nab 0"
    );
}

#[test]
fn concatenate_lines_of_a_table() {
    assert_eq!(
        out(r"DATA lt TYPE string_table.
DATA s TYPE string.
APPEND `a` TO lt.
APPEND `b` TO lt.
APPEND `c` TO lt.
CONCATENATE LINES OF lt INTO s SEPARATED BY ','.
out->write( s )."),
        "a,b,c"
    );
}

#[test]
fn split_into_a_table_keeps_inner_empty_segments_but_no_trailing_one() {
    assert_eq!(
        out(r"DATA lt TYPE string_table.
SPLIT 'a,b,,c' AT ',' INTO TABLE lt.
out->write( lines( lt ) ).
out->write( |[{ lt[ 3 ] }]| ).
SPLIT 'a,b,' AT ',' INTO TABLE lt.
out->write( lines( lt ) ).
SPLIT `,x` AT ',' INTO TABLE lt.
out->write( |{ lines( lt ) } [{ lt[ 1 ] }]| )."),
        r"4 
[]
2 
2 []"
    );
}

#[test]
fn split_into_fields_gives_the_rest_to_the_last_and_clears_the_others() {
    assert_eq!(
        out(r"DATA a TYPE string.
DATA b TYPE string.
DATA c TYPE string VALUE `old`.
SPLIT 'a,b,c' AT ',' INTO a b.
out->write( |{ a }/{ b }| ).
SPLIT 'x;y' AT ';' INTO a b c.
out->write( |{ a }/{ b }/[{ c }] { sy-subrc }| ).
DATA c1 TYPE c LENGTH 1.
SPLIT 'ab cd' AT space INTO c1 DATA(lv_rest).
out->write( |{ c1 }/{ lv_rest } { sy-subrc }| )."),
        r"a/b,c
x/y/[] 0
a/cd 4"
    );
}

#[test]
fn condense_translate_overlay() {
    assert_eq!(
        out(r"DATA s TYPE string VALUE `  a   b  `.
DATA c10 TYPE c LENGTH 10 VALUE '  a  b'.
CONDENSE s.
CONDENSE c10.
out->write( |[{ s }][{ c10 }]| ).
s = ` a b c `.
CONDENSE s NO-GAPS.
out->write( s ).
TRANSLATE s TO UPPER CASE.
out->write( s ).
DATA m TYPE string VALUE `a_b_c`.
TRANSLATE m USING '_ '.
out->write( |[{ m }]| ).
TRANSLATE m TO LOWER CASE.
DATA o TYPE c LENGTH 5 VALUE 'a c e'.
OVERLAY o WITH 'ABCDE'.
out->write( |{ o } { sy-subrc }| )."),
        r"[a b][a b]
abc
ABC
[a b c]
aBcDe 0"
    );
}

#[test]
fn shift_fixed_fields_and_strings() {
    assert_eq!(
        out(r"DATA c5 TYPE c LENGTH 5 VALUE 'abcde'.
SHIFT c5.
out->write( |[{ c5 }]| ).
c5 = 'abcde'.
SHIFT c5 BY 2 PLACES RIGHT.
out->write( |[{ c5 }]| ).
c5 = 'abcde'.
SHIFT c5 LEFT BY 2 PLACES CIRCULAR.
out->write( |[{ c5 }]| ).
DATA s TYPE string VALUE `abc`.
SHIFT s RIGHT BY 2 PLACES.
out->write( |[{ s }]| ).
SHIFT s LEFT BY 3 PLACES.
out->write( |[{ s }]| )."),
        r"[bcde]
[  abc]
[cdeab]
[  abc]
[bc]"
    );
}

#[test]
fn shift_deleting_and_up_to() {
    assert_eq!(
        out(r"DATA c6 TYPE c LENGTH 6 VALUE '000120'.
SHIFT c6 LEFT DELETING LEADING '0'.
out->write( |[{ c6 }]| ).
DATA c10 TYPE c LENGTH 10 VALUE 'ab'.
SHIFT c10 RIGHT DELETING TRAILING space.
DATA s TYPE string.
s = c10.
out->write( |[{ s }]| ).
s = `abcde`.
SHIFT s UP TO 'c'.
out->write( |{ s } { sy-subrc }| ).
SHIFT s UP TO 'x'.
out->write( |{ s } { sy-subrc }| )."),
        r"[120]
[        ab]
cde 0
cde 4"
    );
}

#[test]
fn find_first_all_case_and_section() {
    assert_eq!(
        out(r"DATA o TYPE i.
DATA l TYPE i.
FIND FIRST OCCURRENCE OF 'b' IN 'abcabc' MATCH OFFSET o MATCH LENGTH l.
out->write( |{ sy-subrc } { o } { l }| ).
FIND ALL OCCURRENCES OF 'bc' IN 'abcabc' MATCH COUNT DATA(n) MATCH OFFSET o.
out->write( |{ n } { o }| ).
FIND 'B' IN 'abc'.
out->write( sy-subrc ).
FIND 'B' IN 'abc' IGNORING CASE.
out->write( sy-subrc ).
FIND 'a' IN SECTION OFFSET 1 OF 'abca' MATCH OFFSET o.
out->write( o ).
FIND ALL OCCURRENCES OF 'z' IN 'abc' MATCH COUNT n.
out->write( |{ n } { sy-subrc }| )."),
        r"0 1 1
2 4
4 
0 
3 
0 4"
    );
}

#[test]
fn replace_pattern_section_and_obsolete_forms() {
    assert_eq!(
        out(r"DATA s TYPE string VALUE `banana`.
REPLACE ALL OCCURRENCES OF 'a' IN s WITH 'xy' REPLACEMENT COUNT DATA(n).
out->write( |{ s } { n } { sy-subrc }| ).
s = `banana`.
REPLACE 'a' IN s WITH 'o'.
out->write( s ).
REPLACE 'q' IN s WITH 'o'.
out->write( |{ s } { sy-subrc }| ).
s = `Banana`.
REPLACE ALL OCCURRENCES OF 'b' IN s WITH 'c' IGNORING CASE.
out->write( s ).
s = `abcd`.
REPLACE SECTION OFFSET 1 LENGTH 2 OF s WITH 'XY'.
out->write( s ).
REPLACE 'd' WITH 'D' INTO s.
out->write( s ).
DATA c5 TYPE c LENGTH 5 VALUE 'aaaaa'.
REPLACE ALL OCCURRENCES OF 'a' IN c5 WITH 'bb'.
out->write( |{ c5 } { sy-subrc }| )."),
        r"bxynxynxy 3 0
bonana
bonana 4
canana
aXYd
aXYD
bbbbb 2"
    );
}

#[test]
fn out_of_range_sections_are_runtime_errors_a_program_can_catch() {
    assert_eq!(
        out(r"TRY.
    FIND 'a' IN SECTION OFFSET 9 OF 'abc'.
  CATCH cx_sy_range_out_of_bounds.
    out->write( `caught` ).
ENDTRY."),
        "caught"
    );
}

#[test]
fn regular_expressions_the_engine_cannot_run_are_reported_as_not_supported() {
    match run("FIND PCRE `a(?!b)` IN `aa`.") {
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
        out(r"DATA s TYPE string VALUE `ABCA`.
IF s CO 'ABC'.
  out->write( |CO { sy-fdpos }| ).
ENDIF.
IF s CN 'AB'.
  out->write( |CN { sy-fdpos }| ).
ENDIF.
IF s CA 'XC'.
  out->write( |CA { sy-fdpos }| ).
ENDIF.
IF s NA 'XYZ'.
  out->write( |NA { sy-fdpos }| ).
ENDIF.
IF s CS 'ca'.
  out->write( |CS { sy-fdpos }| ).
ENDIF.
IF s NS 'zz'.
  out->write( |NS { sy-fdpos }| ).
ENDIF.
IF s CP '*C+'.
  out->write( |CP { sy-fdpos }| ).
ENDIF.
IF s NP 'X*'.
  out->write( |NP { sy-fdpos }| ).
ENDIF.
IF NOT s CP 'B*'.
  out->write( `not CP` ).
ENDIF."),
        r"CO 4
CN 2
CA 2
NA 4
CS 2
NS 4
CP 2
NP 4
not CP"
    );
}

#[test]
fn text_comparisons_in_where_conditions_see_the_row() {
    assert_eq!(
        out(r"DATA lt TYPE string_table.
APPEND `Anna` TO lt.
APPEND `Bob` TO lt.
APPEND `Alf` TO lt.
LOOP AT lt INTO DATA(lv) WHERE table_line CP 'A*'.
  out->write( lv ).
ENDLOOP."),
        "Anna\nAlf"
    );
}

#[test]
fn offset_and_length_read_sections() {
    assert_eq!(
        out(r"DATA c10 TYPE c LENGTH 10 VALUE 'ABCDEFGHIJ'.
DATA s TYPE string VALUE `hello world`.
DATA d TYPE d VALUE '20240315'.
DATA off TYPE i VALUE 6.
out->write( c10+2(3) ).
out->write( c10(2) ).
out->write( c10+8 ).
out->write( s+off ).
out->write( s+off(3) ).
out->write( |{ d+4(2) }.{ d(4) }| ).
DATA lv_month TYPE i.
lv_month = d+4(2).
out->write( lv_month )."),
        r"CDE
AB
IJ
world
wor
03.2024
3 "
    );
}

#[test]
fn offset_and_length_write_into_fixed_fields() {
    assert_eq!(
        out(r"DATA c6 TYPE c LENGTH 6 VALUE 'abcdef'.
c6+2(2) = 'XYZ'.
out->write( c6 ).
c6(1) = 'Q'.
out->write( c6 ).
DATA d TYPE d VALUE '20240315'.
d+6(2) = '01'.
out->write( |{ d DATE = ISO }| )."),
        r"abXYef
QbXYef
2024-03-01"
    );
}

#[test]
fn sections_outside_the_field_are_catchable_runtime_errors() {
    assert_eq!(
        out(r"DATA s TYPE string VALUE `abc`.
DATA n TYPE i VALUE 5.
TRY.
    out->write( s+n ).
  CATCH cx_sy_range_out_of_bounds.
    out->write( `offset` ).
ENDTRY.
DATA c3 TYPE c LENGTH 3 VALUE 'abc'.
TRY.
    out->write( c3+1(n) ).
  CATCH cx_sy_range_out_of_bounds.
    out->write( `length` ).
ENDTRY.
out->write( s+3 )."),
        r"offset
length
"
    );
}

#[test]
fn find_and_replace_with_regular_expressions() {
    assert_eq!(
        out(r"DATA s TYPE string VALUE `order 12 of 2024-03-15, item 7`.
FIND FIRST OCCURRENCE OF PCRE `(\d{4})-(\d{2})-(\d{2})` IN s MATCH OFFSET DATA(o) MATCH LENGTH DATA(l) SUBMATCHES DATA(y) DATA(m) DATA(d).
out->write( |{ o } { l } { d }.{ m }.{ y }| ).
FIND ALL OCCURRENCES OF REGEX `[0-9]+` IN s MATCH COUNT DATA(n).
out->write( n ).
REPLACE ALL OCCURRENCES OF PCRE `(\d{4})-(\d{2})-(\d{2})` IN s WITH `$3.$2.$1`.
out->write( s ).
REPLACE ALL OCCURRENCES OF REGEX `\s+` IN s WITH `_` REPLACEMENT COUNT DATA(r).
out->write( |{ s } { r }| ).
FIND PCRE `ITEM` IN s IGNORING CASE MATCH OFFSET o.
out->write( o )."),
        r"12 10 15.03.2024
5 
order 12 of 15.03.2024, item 7
order_12_of_15.03.2024,_item_7 5
24 "
    );
}

#[test]
fn posix_alternatives_take_the_longest_match_pcre_the_first() {
    // Both alternatives match at 0: POSIX takes the longer `ab`, PCRE the first written `a`.
    assert_eq!(
        out("FIND REGEX `a|ab` IN `ab` MATCH LENGTH DATA(l).\nout->write( l )."),
        "2 "
    );
    assert_eq!(
        out("FIND PCRE `a|ab` IN `ab` MATCH LENGTH DATA(l).\nout->write( l )."),
        "1 "
    );
}

//! `escape( val format = cl_abap_format=>e_… )`, the methods of `cl_abap_string_utilities` and
//! the regex classes `cl_abap_regex` and `cl_abap_matcher`, run through `Repository::run_classrun`.

use abap::RunError;

use crate::harness::run;

#[test]
fn html_and_json_escaping() {
    let main = r#"out->write( escape( val = `a<b>&"c'` format = cl_abap_format=>e_html_text ) ).
out->write( escape( val = `a<b>&"c'` format = cl_abap_format=>e_html_attr ) ).
out->write( escape( val = |say "hi"\n\\| format = cl_abap_format=>e_json_string ) ).
out->write( cl_abap_format=>e_json_string )."#;
    assert_eq!(
        run(main).expect("runs"),
        r#"a&lt;b&gt;&amp;"c'
a&lt;b&gt;&amp;&quot;c&#39;
say \"hi\"\n\\
24 "#
    );
}

#[test]
fn formats_outside_the_subset_are_reported() {
    match run("out->write( escape( val = `a b` format = cl_abap_format=>e_url ) ).") {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "SIMULATOR_NOT_SUPPORTED"),
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn string_utilities_keep_or_drop_trailing_blanks() {
    let main = r"DATA s TYPE string VALUE `abc   `.
cl_abap_string_utilities=>del_trailing_blanks( CHANGING str = s ).
out->write( |[{ s }]| ).
DATA c TYPE c LENGTH 6 VALUE 'ab'.
cl_abap_string_utilities=>c2str_preserving_blanks( EXPORTING field = c IMPORTING str = s ).
out->write( |[{ s }] { strlen( s ) }| ).
CALL METHOD cl_abap_string_utilities=>del_trailing_blanks CHANGING str = s.
out->write( |[{ s }]| ).";
    assert_eq!(
        run(main).expect("runs"),
        r"[abc]
[ab    ] 6
[ab]"
    );
}

#[test]
fn matcher_class_matches_and_contains() {
    let main = r"IF cl_abap_matcher=>matches( pattern = `[0-9]+` text = `4711` ) = abap_true.
  out->write( `digits` ).
ENDIF.
out->write( |[{ cl_abap_matcher=>matches( pattern = `[0-9]+` text = `47a1` ) }]| ).
out->write( |[{ cl_abap_matcher=>contains( pattern = `A` text = `47a1` ignore_case = abap_true ) }]| ).
DATA b TYPE abap_bool.
CALL METHOD cl_abap_matcher=>matches EXPORTING pattern = 'x.z' text = 'xyz' RECEIVING success = b.
out->write( |[{ b }]| ).";
    assert_eq!(
        run(main).expect("runs"),
        r"digits
[]
[X]
[X]"
    );
}

#[test]
fn regex_and_matcher_objects_walk_through_the_matches() {
    let main = r"DATA(lo_regex) = NEW cl_abap_regex( pattern = `(\d+)-(\d+)` ).
DATA(lo_matcher) = lo_regex->create_matcher( text = `a 12-34 b 5-6` ).
WHILE lo_matcher->find_next( ) = abap_true.
  out->write( |{ lo_matcher->get_offset( ) } { lo_matcher->get_length( ) } { lo_matcher->get_submatch( 1 ) } { lo_matcher->get_submatch( 2 ) }| ).
ENDWHILE.
DATA(lo_m2) = cl_abap_matcher=>create( pattern = `o` text = `foo boo` ).
DATA(lt) = lo_m2->find_all( ).
out->write( |{ lines( lt ) } { lt[ 4 ]-offset }| ).
DATA(n) = lo_m2->replace_all( newtext = `0` ).
out->write( |{ n } { lo_m2->text }| ).
DATA(lo_p) = cl_abap_regex=>create_pcre( pattern = `^a` ignore_case = abap_true )->create_matcher( text = `Abc` ).
out->write( |[{ lo_p->match( ) }]| ).
IF lo_p->find_next( ) = abap_true.
  out->write( |pcre { lo_p->get_offset( ) }| ).
ENDIF.";
    assert_eq!(
        run(main).expect("runs"),
        r"2 5 12 34
10 3 5 6
4 6
4 f00 b00
[]
pcre 0"
    );
}

#[test]
fn char_utilities_charsize_and_endian() {
    let main =
        "out->write( |{ cl_abap_char_utilities=>charsize } { cl_abap_char_utilities=>endian }| ).";
    assert_eq!(run(main).expect("runs"), "2 L");
}

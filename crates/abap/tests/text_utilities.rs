//! `escape( val format = cl_abap_format=>e_… )`, the methods of `cl_abap_string_utilities` and
//! the regex classes `cl_abap_regex` and `cl_abap_matcher`, run through `Repository::run_classrun`.

use abap::RunError;

use crate::harness::run;

#[test]
fn html_and_json_escaping() {
    let main = "out->write( escape( val = `a<b>&\"c'` format = cl_abap_format=>e_html_text ) ).\nout->write( escape( val = `a<b>&\"c'` format = cl_abap_format=>e_html_attr ) ).\nout->write( escape( val = |say \"hi\"\\n\\\\| format = cl_abap_format=>e_json_string ) ).\nout->write( cl_abap_format=>e_json_string ).";
    assert_eq!(
        run(main).expect("runs"),
        "a&lt;b&gt;&amp;\"c'\na&lt;b&gt;&amp;&quot;c&#39;\nsay \\\"hi\\\"\\n\\\\\n24 "
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
    let main = "DATA s TYPE string VALUE `abc   `.\ncl_abap_string_utilities=>del_trailing_blanks( CHANGING str = s ).\nout->write( |[{ s }]| ).\nDATA c TYPE c LENGTH 6 VALUE 'ab'.\ncl_abap_string_utilities=>c2str_preserving_blanks( EXPORTING field = c IMPORTING str = s ).\nout->write( |[{ s }] { strlen( s ) }| ).\nCALL METHOD cl_abap_string_utilities=>del_trailing_blanks CHANGING str = s.\nout->write( |[{ s }]| ).";
    assert_eq!(run(main).expect("runs"), "[abc]\n[ab    ] 6\n[ab]");
}

#[test]
fn matcher_class_matches_and_contains() {
    let main = "IF cl_abap_matcher=>matches( pattern = `[0-9]+` text = `4711` ) = abap_true.\n  out->write( `digits` ).\nENDIF.\nout->write( |[{ cl_abap_matcher=>matches( pattern = `[0-9]+` text = `47a1` ) }]| ).\nout->write( |[{ cl_abap_matcher=>contains( pattern = `A` text = `47a1` ignore_case = abap_true ) }]| ).\nDATA b TYPE abap_bool.\nCALL METHOD cl_abap_matcher=>matches EXPORTING pattern = 'x.z' text = 'xyz' RECEIVING success = b.\nout->write( |[{ b }]| ).";
    assert_eq!(run(main).expect("runs"), "digits\n[]\n[X]\n[X]");
}

#[test]
fn regex_and_matcher_objects_walk_through_the_matches() {
    let main = "DATA(lo_regex) = NEW cl_abap_regex( pattern = `(\\d+)-(\\d+)` ).\nDATA(lo_matcher) = lo_regex->create_matcher( text = `a 12-34 b 5-6` ).\nWHILE lo_matcher->find_next( ) = abap_true.\n  out->write( |{ lo_matcher->get_offset( ) } { lo_matcher->get_length( ) } { lo_matcher->get_submatch( 1 ) } { lo_matcher->get_submatch( 2 ) }| ).\nENDWHILE.\nDATA(lo_m2) = cl_abap_matcher=>create( pattern = `o` text = `foo boo` ).\nDATA(lt) = lo_m2->find_all( ).\nout->write( |{ lines( lt ) } { lt[ 4 ]-offset }| ).\nDATA(n) = lo_m2->replace_all( newtext = `0` ).\nout->write( |{ n } { lo_m2->text }| ).\nDATA(lo_p) = cl_abap_regex=>create_pcre( pattern = `^a` ignore_case = abap_true )->create_matcher( text = `Abc` ).\nout->write( |[{ lo_p->match( ) }]| ).\nIF lo_p->find_next( ) = abap_true.\n  out->write( |pcre { lo_p->get_offset( ) }| ).\nENDIF.";
    assert_eq!(
        run(main).expect("runs"),
        "2 5 12 34\n10 3 5 6\n4 6\n4 f00 b00\n[]\npcre 0"
    );
}

#[test]
fn char_utilities_charsize_and_endian() {
    let main =
        "out->write( |{ cl_abap_char_utilities=>charsize } { cl_abap_char_utilities=>endian }| ).";
    assert_eq!(run(main).expect("runs"), "2 L");
}

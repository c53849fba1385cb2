//! `REPLACE`/`FIND` details as a real system does them: a `c` field is searched with its
//! trailing blanks and cut back to its length (a cut of blanks only is no cut), an empty
//! pattern is found before the first character, `REPLACE ALL OCCURRENCES` of it raises
//! `CX_SY_REPLACE_INFINITE_LOOP`.

use crate::harness::run;

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn fixed_length_fields_are_searched_with_their_trailing_blanks() {
    let main = "DATA c10 TYPE c LENGTH 10 VALUE 'ab'.\nREPLACE ALL OCCURRENCES OF ` ` IN c10 WITH `-`.\nout->write( |[{ c10 }] { sy-subrc }| ).\nDATA c4 TYPE c LENGTH 4 VALUE 'ab'.\nREPLACE ALL OCCURRENCES OF `a` IN c4 WITH `xxx`.\nout->write( |[{ c4 }] { sy-subrc }| ).\nc4 = 'abcd'.\nREPLACE ALL OCCURRENCES OF `a` IN c4 WITH `xxx`.\nout->write( |[{ c4 }] { sy-subrc }| ).\nDATA ct TYPE TABLE OF char4 WITH EMPTY KEY.\nct = VALUE #( ( 'a' ) ).\nREPLACE ALL OCCURRENCES OF ` ` IN TABLE ct WITH `.`.\nout->write( |[{ ct[ 1 ] }] { sy-subrc }| ).";
    assert_eq!(out(main), "[ab--------] 0\n[xxxb] 0\n[xxxb] 2\n[a...] 0");
}

#[test]
fn an_empty_pattern_is_found_before_the_first_character() {
    let main = "DATA s TYPE string VALUE `abc`.\nREPLACE FIRST OCCURRENCE OF `` IN s WITH `x`.\nout->write( |{ s } { sy-subrc }| ).\nFIND `` IN s MATCH OFFSET DATA(o).\nout->write( |{ sy-subrc } { o }| ).\nTRY.\n    REPLACE ALL OCCURRENCES OF `` IN s WITH `x`.\n  CATCH cx_sy_replace_infinite_loop.\n    out->write( `endless` ).\nENDTRY.";
    assert_eq!(out(main), "xabc 0\n0 0\nendless");
}

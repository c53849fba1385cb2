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
    let main = r"DATA c10 TYPE c LENGTH 10 VALUE 'ab'.
REPLACE ALL OCCURRENCES OF ` ` IN c10 WITH `-`.
out->write( |[{ c10 }] { sy-subrc }| ).
DATA c4 TYPE c LENGTH 4 VALUE 'ab'.
REPLACE ALL OCCURRENCES OF `a` IN c4 WITH `xxx`.
out->write( |[{ c4 }] { sy-subrc }| ).
c4 = 'abcd'.
REPLACE ALL OCCURRENCES OF `a` IN c4 WITH `xxx`.
out->write( |[{ c4 }] { sy-subrc }| ).
DATA ct TYPE TABLE OF char4 WITH EMPTY KEY.
ct = VALUE #( ( 'a' ) ).
REPLACE ALL OCCURRENCES OF ` ` IN TABLE ct WITH `.`.
out->write( |[{ ct[ 1 ] }] { sy-subrc }| ).";
    assert_eq!(
        out(main),
        r"[ab--------] 0
[xxxb] 0
[xxxb] 2
[a...] 0"
    );
}

#[test]
fn an_empty_pattern_is_found_before_the_first_character() {
    let main = r"DATA s TYPE string VALUE `abc`.
REPLACE FIRST OCCURRENCE OF `` IN s WITH `x`.
out->write( |{ s } { sy-subrc }| ).
FIND `` IN s MATCH OFFSET DATA(o).
out->write( |{ sy-subrc } { o }| ).
TRY.
    REPLACE ALL OCCURRENCES OF `` IN s WITH `x`.
  CATCH cx_sy_replace_infinite_loop.
    out->write( `endless` ).
ENDTRY.";
    assert_eq!(
        out(main),
        r"xabc 0
0 0
endless"
    );
}

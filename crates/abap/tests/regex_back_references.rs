//! Back references in regular expressions (`\1` in a pattern), run by the bounded
//! backtracking matcher: `FIND`/`REPLACE`, the string functions and `CL_ABAP_MATCHER`, POSIX
//! leftmost-longest against PCRE leftmost-first, and `CX_SY_REGEX_TOO_COMPLEX` instead of a
//! hang.

use crate::harness::{dump, run};

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn find_and_replace_with_back_references() {
    let o = out("DATA s TYPE string VALUE `abab cdcd xyxz`.
REPLACE ALL OCCURRENCES OF REGEX `(\\w)(\\w)\\1\\2` IN s WITH `<$2$1>`.
FIND ALL OCCURRENCES OF PCRE `(\\w)\\1` IN `aabbxcc` MATCH COUNT DATA(n).
FIND FIRST OCCURRENCE OF REGEX `(o+)\\w\\1` IN `foo boxoo` MATCH OFFSET DATA(off)
  SUBMATCHES DATA(sub).
out->write( |{ s }/{ n }/{ off } { sub }| ).");
    // `(o+)\w\1` first fits at 5: `o`, `x`, `o` (at 1 `oo` or `o` meet a blank).
    assert_eq!(o, "<ba> <dc> xyxz/3/5 o");
}

#[test]
fn string_functions_and_matcher_with_back_references() {
    let o = out("DATA(m) = cl_abap_matcher=>create( pattern = `(\\d)\\1` text = `1223` ).
DATA(found) = m->find_next( ).
out->write( |{ replace( val = `hello  world` pcre = `(l)\\1` with = `L` occ = 0 ) }| ).
out->write( |{ count( val = `abcabcab` regex = `(abc)\\1` ) } { matches( val = `abab` regex = `(ab)\\1` ) }| ).
out->write( |{ found } { m->get_offset( ) } { m->get_submatch( 1 ) }| ).");
    assert_eq!(o, "heLo  world\n1 X\nX 1 2");
}

#[test]
fn posix_matches_longest_pcre_first() {
    // After `x`, `a*` takes `aa` first; only with one `a` can `(ab)` and `\1` follow.
    let o = out(
        "FIND REGEX `(x)a*(ab)?\\1?` IN `xaabx` MATCH LENGTH DATA(posix).
FIND PCRE `(x)a*(ab)?\\1?` IN `xaabx` MATCH LENGTH DATA(pcre).
out->write( |{ posix } { pcre }| ).",
    );
    assert_eq!(o, "5 3");
}

#[test]
fn catastrophic_backtracking_raises_too_complex() {
    let o = out("TRY.
    FIND PCRE `(a*)*b\\1` IN repeat( val = `a` occ = 60 ).
  CATCH cx_sy_regex_too_complex.
    out->write( `too complex` ).
ENDTRY.");
    assert_eq!(o, "too complex");
    let (id, _) = dump(run(
        "FIND REGEX `(a*)*b\\1` IN repeat( val = `a` occ = 60 ).",
    ));
    assert_eq!(id, "REGEX_TOO_COMPLEX");
}

#[test]
fn what_the_matcher_does_not_know_is_not_guessed() {
    let (id, text) = dump(run("FIND PCRE `(?<n>a)\\1` IN `aa`."));
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED", "{text}");
    let (id, text) = dump(run("FIND PCRE `(a)\\2` IN `aa`."));
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED", "{text}");
}

//! POSIX regular expressions (`REGEX`, `regex =`, `cl_abap_regex` without PCRE) with
//! alternatives and groups: the leftmost-longest match, and the groups (`SUBMATCHES`) as the
//! Boost.Regex library ABAP uses decides them; ABAP's escapes `\l`, `\u`, `\C`. The expected
//! values are the ABAP documentation's or worked out by hand next to each test.

use crate::harness::{dump, run};

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn the_longest_alternative_wins_where_pcre_takes_the_first() {
    // At offset 1 both `a` and `ab` match; POSIX takes the longer, PCRE the first written.
    let o = out(
        "FIND REGEX `a|ab` IN `xabc` MATCH OFFSET DATA(po) MATCH LENGTH DATA(pl).
FIND PCRE `a|ab` IN `xabc` MATCH OFFSET DATA(qo) MATCH LENGTH DATA(ql).
out->write( |{ po } { pl } / { qo } { ql }| ).",
    );
    assert_eq!(o, "1 2 / 1 1");
}

#[test]
fn the_documentation_example_of_the_leftmost_longest_rule() {
    // ABAP documentation, "Search Pattern", leftmost-longest rule: `d*od*` finds "do" at 0,
    // "o" at 2, "dodd" at 5, "o" at 9 and "o" at 10 in `doobedoddoo`.
    let o = out(
        "FIND ALL OCCURRENCES OF REGEX `d*od*` IN `doobedoddoo` RESULTS DATA(r).
LOOP AT r INTO DATA(m).
  out->write( |{ m-offset } { m-length }| ).
ENDLOOP.",
    );
    assert_eq!(o, "0 2\n2 1\n5 4\n9 1\n10 1");
}

#[test]
fn submatches_follow_the_longest_match() {
    // `(ab|a)(c|bcd)` on `abcd`: "a" + "bcd" is 4 long, "ab" + "c" only 3: the first group is
    // `a`, the second `bcd`. PCRE takes the first alternative that leads to a match: "ab",
    // then "c".
    let o = out(
        "FIND REGEX `(ab|a)(c|bcd)` IN `abcd` SUBMATCHES DATA(s1) DATA(s2)
  MATCH LENGTH DATA(l).
FIND PCRE `(ab|a)(c|bcd)` IN `abcd` SUBMATCHES DATA(p1) DATA(p2).
out->write( |{ l } { s1 } { s2 } / { p1 } { p2 }| ).",
    );
    assert_eq!(o, "4 a bcd / ab c");
}

#[test]
fn among_equally_long_matches_the_groups_decide_in_order() {
    // `a*(a*)` on `aa` is 2 long however `a*` splits; the group's leftmost start (Boost's
    // rule 4) is 0, so it holds `aa` (a first-found match leaves it empty).
    // `(x*)(x|xy)` on `xxy`: the only 3-long way is `x` + `xy`.
    let o = out("FIND REGEX `a*(a*)` IN `aa` SUBMATCHES DATA(g).
FIND REGEX `(x*)(x|xy)` IN `xxy` SUBMATCHES DATA(a) DATA(b).
out->write( |[{ g }] { a }/{ b }| ).");
    assert_eq!(o, "[aa] x/xy");
}

#[test]
fn a_group_that_took_no_part_is_empty() {
    // At offset 2 `\d+` gives "1", `\d+\.\d+` gives "1.25": the second alternative wins, the
    // first group took no part.
    let o = out("DATA(m) = cl_abap_matcher=>create( pattern = `(\\d+)|(\\d+\\.\\d+)` text = `v 1.25` ).
IF m->find_next( ) = abap_true.
  out->write( |{ m->get_offset( ) } { m->get_length( ) } [{ m->get_submatch( 1 ) }] [{ m->get_submatch( 2 ) }]| ).
ENDIF.");
    assert_eq!(o, "2 4 [] [1.25]");
}

#[test]
fn replace_and_the_string_functions_take_the_longest_match() {
    // `one|two|t\w+`: "two" is 3 long both ways, "three" only as `t\w+`.
    // replace( ) of `a|ay` in `xay` takes "ay"; matches( ) of `a|ab` holds for `ab`;
    // count( ) of `a|ab` in `abab` finds "ab" twice.
    let o = out("DATA(s) = `one two three`.
REPLACE ALL OCCURRENCES OF REGEX `one|two|t\\w+` IN s WITH `<$0>`.
out->write( s ).
out->write( |{ replace( val = `xay` regex = `a|ay` with = `-` ) } { replace( val = `xay` pcre = `a|ay` with = `-` ) }| ).
out->write( |{ matches( val = `ab` regex = `a|ab` ) } { count( val = `abab` regex = `a|ab` ) }| ).");
    assert_eq!(o, "<one> <two> <three>\nx- x-y\nX 2");
}

#[test]
fn posix_classes_and_abap_escapes() {
    // `\l` a lower-case letter, `\u` an upper-case one, `\U` any other character, `\C` any
    // character (ABAP documentation, special characters of regular expressions).
    let o = out(
        "FIND REGEX `\\l+` IN `ABcdE` MATCH OFFSET DATA(o1) MATCH LENGTH DATA(l1).
FIND REGEX `\\u\\U` IN `abCdE` MATCH OFFSET DATA(o2).
FIND REGEX `[[:alpha:]]+|[[:digit:]]+` IN `12ab3` MATCH LENGTH DATA(l3).
FIND REGEX `b\\C` IN `abc` MATCH OFFSET DATA(o4).
out->write( |{ o1 } { l1 } { o2 } { l3 } { o4 }| ).",
    );
    assert_eq!(o, "2 2 2 2 1");
}

#[test]
fn alternatives_that_explode_end_as_too_complex() {
    // A match starts at 0 (60 `a`s, then `b`); to know it is the longest, every way of
    // splitting the `a`s into `a` and `aa` is tried (about 1.5 · 10^12 of them): far beyond
    // the step budget.
    let o = out("TRY.
    FIND REGEX `(a|aa)*b` IN |{ repeat( val = `a` occ = 60 ) }b|.
  CATCH cx_sy_regex_too_complex.
    out->write( `too complex` ).
ENDTRY.");
    assert_eq!(o, "too complex");
}

#[test]
fn what_no_engine_takes_stays_not_supported() {
    let (id, text) = dump(run("FIND REGEX `a(?=b)` IN `ab`."));
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
    assert!(text.contains("a(?=b)"), "{text}");
}

#[test]
fn regex_objects_without_pcre_are_posix() {
    // `NEW cl_abap_regex( )` is POSIX: at offset 0 `ab|abcd` takes `abcd` (4), its groups
    // as the longer alternative gives them. `cl_abap_matcher=>matches( )` holds for `ab`
    // under `a|ab`; the PCRE object takes the first alternative, `ab` (2).
    let o = out(
        "DATA(m) = NEW cl_abap_regex( pattern = `(ab)|(abcd)` )->create_matcher( text = `abcde` ).
IF m->find_next( ) = abap_true.
  out->write( |{ m->get_length( ) } [{ m->get_submatch( 1 ) }] [{ m->get_submatch( 2 ) }]| ).
ENDIF.
DATA(p) = cl_abap_regex=>create_pcre( pattern = `(ab)|(abcd)` )->create_matcher( text = `abcde` ).
IF p->find_next( ) = abap_true.
  out->write( |{ p->get_length( ) }| ).
ENDIF.
out->write( cl_abap_matcher=>matches( pattern = `a|ab` text = `ab` ) ).",
    );
    assert_eq!(o, "4 [] [abcd]\n2\nX");
}

#[test]
fn the_step_budget_grows_with_the_text() {
    // `(x+)` over a million `x`: POSIX tries every length of the group at offset 0 (about
    // three steps per character, more than the fixed 2,000,000), so the budget of a search
    // grows with the text it can reach; the whole text is the match.
    let o = out("DATA(s) = repeat( val = `x` occ = 1000000 ).
FIND REGEX `(x+)` IN s MATCH LENGTH DATA(l).
out->write( |{ l }| ).");
    assert_eq!(o, "1000000");
}

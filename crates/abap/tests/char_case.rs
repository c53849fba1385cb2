//! Upper and lower case keep one character per character, as in ABAP (`ß` stays `ß`).

use crate::harness::run;

#[test]
fn sharp_s_keeps_its_case_everywhere() {
    let main = r"DATA c TYPE c LENGTH 8 VALUE 'straße'.
TRANSLATE c TO UPPER CASE.
out->write( |{ c } { to_upper( `Maße` ) } { `groß` CASE = UPPER } { to_lower( `ÄÖÜ` ) }| ).
IF 'STRASSE' CS 'ß'.
  out->write( `wrong` ).
ELSE.
  out->write( |no ß in STRASSE { sy-fdpos }| ).
ENDIF.";
    assert_eq!(
        run(main).expect("runs"),
        "STRAßE MAßE GROß äöü\nno ß in STRASSE 7"
    );
}

//! Upper and lower case keep one character per character, as in ABAP (`ß` stays `ß`).

use crate::harness::run;

#[test]
fn sharp_s_keeps_its_case_everywhere() {
    let main = "DATA c TYPE c LENGTH 8 VALUE 'straße'.\nTRANSLATE c TO UPPER CASE.\nout->write( |{ c } { to_upper( `Maße` ) } { `groß` CASE = UPPER } { to_lower( `ÄÖÜ` ) }| ).\nIF 'STRASSE' CS 'ß'.\n  out->write( `wrong` ).\nELSE.\n  out->write( |no ß in STRASSE { sy-fdpos }| ).\nENDIF.";
    assert_eq!(
        run(main).expect("runs"),
        "STRAßE MAßE GROß äöü\nno ß in STRASSE 7"
    );
}

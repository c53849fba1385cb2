//! Upper and lower case keep one character per character, as in ABAP (`ß` stays `ß`).
#![allow(clippy::result_large_err)] // RunError is the crate's contract type

use abap::{NoDebugger, Repository, RunError};

fn run(main: &str) -> Result<String, RunError> {
    let src = format!(
        "CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.\n  PUBLIC SECTION.\n    INTERFACES if_oo_adt_classrun.\nENDCLASS.\n\nCLASS zcl_t IMPLEMENTATION.\n  METHOD if_oo_adt_classrun~main.\n{main}\n  ENDMETHOD.\nENDCLASS.\n"
    );
    let mut r = Repository::new();
    r.add_file("zcl_t.clas.abap", &src).expect("loads");
    r.run_classrun("ZCL_T", &mut NoDebugger)
}

#[test]
fn sharp_s_keeps_its_case_everywhere() {
    let main = "DATA c TYPE c LENGTH 8 VALUE 'straße'.\nTRANSLATE c TO UPPER CASE.\nout->write( |{ c } { to_upper( `Maße` ) } { `groß` CASE = UPPER } { to_lower( `ÄÖÜ` ) }| ).\nIF 'STRASSE' CS 'ß'.\n  out->write( `wrong` ).\nELSE.\n  out->write( |no ß in STRASSE { sy-fdpos }| ).\nENDIF.";
    assert_eq!(
        run(main).expect("runs"),
        "STRAßE MAßE GROß äöü\nno ß in STRASSE 7"
    );
}

//! `ASSERT`: a violated condition ends the run with the runtime error `ASSERTION_FAILED`,
//! which no handler catches; assertions of a checkpoint group (`ASSERT ID`) are inactive.
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
fn a_holding_assertion_goes_on_and_a_violated_one_ends_the_run() {
    assert_eq!(
        run("DATA(n) = 3.\nASSERT n = 3 AND n > 2.\nASSERT ID zgroup CONDITION n = 4.\nout->write( `on` ).")
            .expect("runs"),
        "on"
    );
    match run(
        "out->write( `before` ).\nTRY.\n  ASSERT 1 = 2.\nCATCH cx_root.\n  out->write( `caught` ).\nENDTRY.",
    ) {
        Err(RunError::Dump { id, output, .. }) => {
            assert_eq!(
                (id.as_str(), output.as_str()),
                ("ASSERTION_FAILED", "before")
            );
        }
        other => panic!("expected a dump, got {other:?}"),
    }
}

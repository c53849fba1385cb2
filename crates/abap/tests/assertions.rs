//! `ASSERT`: a violated condition ends the run with the runtime error `ASSERTION_FAILED`,
//! which no handler catches; assertions of a checkpoint group (`ASSERT ID`) are inactive.

use abap::RunError;

use crate::harness::run;

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

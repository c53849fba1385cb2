//! `ASSERT`: a violated condition ends the run with the runtime error `ASSERTION_FAILED`,
//! which no handler catches; assertions of a checkpoint group (`ASSERT ID`) are inactive.

use abap::RunError;

use crate::harness::run;

#[test]
fn a_holding_assertion_goes_on_and_a_violated_one_ends_the_run() {
    assert_eq!(
        run(r"DATA(n) = 3.
ASSERT n = 3 AND n > 2.
ASSERT ID zgroup CONDITION n = 4.
out->write( `on` ).")
        .expect("runs"),
        "on"
    );
    match run(r"out->write( `before` ).
TRY.
  ASSERT 1 = 2.
CATCH cx_root.
  out->write( `caught` ).
ENDTRY.")
    {
        Err(RunError::Dump { id, output, .. }) => {
            assert_eq!(
                (id.as_str(), output.as_str()),
                ("ASSERTION_FAILED", "before")
            );
        }
        other => panic!("expected a dump, got {other:?}"),
    }
}

//! Relational predicates beyond plain comparisons: `[NOT] BETWEEN … AND …`.

use abap::RunError;

use crate::harness::run_class;

fn run(main: &str) -> Result<String, RunError> {
    let src = format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    METHODS next RETURNING VALUE(rv) TYPE i.
  PRIVATE SECTION.
    DATA mv_calls TYPE i.
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{main}
  ENDMETHOD.
  METHOD next.
    mv_calls = mv_calls + 1.
    rv = mv_calls.
  ENDMETHOD.
ENDCLASS.
"
    );
    run_class(&src)
}

#[test]
fn between_is_inclusive_and_negatable() {
    let main = r"    DATA n TYPE i.
    DATA t TYPE string.
    DO 5 TIMES.
      n = sy-index.
      IF n BETWEEN 2 AND 4 AND n <> 3.
        t = t && |in{ n } |.
      ELSEIF n NOT BETWEEN 2 AND 4.
        t = t && |out{ n } |.
      ENDIF.
    ENDDO.
    out->write( t ).
    IF 'B' BETWEEN 'A' AND 'C' AND NOT `b` BETWEEN 'A' AND 'B'.
      out->write( `text` ).
    ENDIF.
    IF '2.5' BETWEEN 2 AND 3.
      out->write( `packed` ).
    ENDIF.";
    assert_eq!(
        run(main).expect("runs"),
        r"out1 in2 in4 out5 
text
packed"
    );
}

#[test]
fn between_evaluates_its_operand_once() {
    // `next( )` is called once: 1 is between 1 and 1; a second call would give 2.
    let main = r"    IF next( ) BETWEEN 1 AND 1.
      out->write( |once { mv_calls }| ).
    ENDIF.";
    assert_eq!(run(main).expect("runs"), "once 1");
}

#[test]
fn between_without_and_is_not_supported() {
    match run(r"    DATA n TYPE i.
    IF n BETWEEN 1.
    ENDIF.")
    {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "SIMULATOR_NOT_SUPPORTED"),
        other => panic!("expected a dump, got {other:?}"),
    }
}

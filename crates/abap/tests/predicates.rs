//! Relational predicates beyond plain comparisons: `[NOT] BETWEEN … AND …`.

use abap::{NoDebugger, Repository, RunError};

fn run(main: &str) -> Result<String, RunError> {
    let src = format!(
        "CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.\n  PUBLIC SECTION.\n    INTERFACES if_oo_adt_classrun.\n    METHODS next RETURNING VALUE(rv) TYPE i.\n  PRIVATE SECTION.\n    DATA mv_calls TYPE i.\nENDCLASS.\n\nCLASS zcl_t IMPLEMENTATION.\n  METHOD if_oo_adt_classrun~main.\n{main}\n  ENDMETHOD.\n  METHOD next.\n    mv_calls = mv_calls + 1.\n    rv = mv_calls.\n  ENDMETHOD.\nENDCLASS.\n"
    );
    let mut r = Repository::new();
    r.add_file("zcl_t.clas.abap", &src).expect("loads");
    r.run_classrun("ZCL_T", &mut NoDebugger)
}

#[test]
fn between_is_inclusive_and_negatable() {
    let main = "    DATA n TYPE i.\n    DATA t TYPE string.\n    DO 5 TIMES.\n      n = sy-index.\n      IF n BETWEEN 2 AND 4 AND n <> 3.\n        t = t && |in{ n } |.\n      ELSEIF n NOT BETWEEN 2 AND 4.\n        t = t && |out{ n } |.\n      ENDIF.\n    ENDDO.\n    out->write( t ).\n    IF 'B' BETWEEN 'A' AND 'C' AND NOT `b` BETWEEN 'A' AND 'B'.\n      out->write( `text` ).\n    ENDIF.\n    IF '2.5' BETWEEN 2 AND 3.\n      out->write( `packed` ).\n    ENDIF.";
    assert_eq!(run(main).expect("runs"), "out1 in2 in4 out5 \ntext\npacked");
}

#[test]
fn between_evaluates_its_operand_once() {
    // `next( )` is called once: 1 is between 1 and 1; a second call would give 2.
    let main =
        "    IF next( ) BETWEEN 1 AND 1.\n      out->write( |once { mv_calls }| ).\n    ENDIF.";
    assert_eq!(run(main).expect("runs"), "once 1");
}

#[test]
fn between_without_and_is_not_supported() {
    match run("    DATA n TYPE i.\n    IF n BETWEEN 1.\n    ENDIF.") {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "SIMULATOR_NOT_SUPPORTED"),
        other => panic!("expected a dump, got {other:?}"),
    }
}

//! Component selection on results: `meth( )-comp`, `obj->meth( )-sub-comp`,
//! `cls=>meth( )-items[ 1 ]-id`, and on constructor expressions (`VALUE ty( … )-comp`,
//! `CONV ty( … )-comp`, `VALUE tab( … )[ 2 ]-comp`).

use crate::harness::{class_source, run_class};

/// `ZCL_T` with `get( )` returning flag `X`, items ids 7 and 8, sub id 9; `sget( )` (static)
/// flag `Y`, one item with id 3; `self( )` returning `me`.
fn out(main: &str) -> String {
    let decl = "TYPES: BEGIN OF ty_item,
             id TYPE i,
           END OF ty_item,
           ty_items TYPE STANDARD TABLE OF ty_item WITH EMPTY KEY,
           BEGIN OF ty_res,
             flag  TYPE abap_bool,
             items TYPE ty_items,
             sub   TYPE ty_item,
           END OF ty_res.
    METHODS get RETURNING VALUE(r) TYPE ty_res.
    CLASS-METHODS sget RETURNING VALUE(r) TYPE ty_res.
    METHODS self RETURNING VALUE(r) TYPE REF TO zcl_t.";
    let methods = "METHOD get.
    r = VALUE #( flag = abap_true items = VALUE #( ( id = 7 ) ( id = 8 ) ) sub = VALUE #( id = 9 ) ).
  ENDMETHOD.
  METHOD sget.
    r = VALUE #( flag = 'Y' items = VALUE #( ( id = 3 ) ) ).
  ENDMETHOD.
  METHOD self.
    r = me.
  ENDMETHOD.";
    run_class(&class_source(decl, main, methods)).unwrap_or_else(|e| panic!("run failed: {e:?}"))
}

#[test]
fn components_of_functional_call_results() {
    let o = out("out->write( |{ get( )-flag } { get( )-sub-id } { me->get( )-items[ 2 ]-id }| ).
out->write( |{ zcl_t=>sget( )-flag } { self( )->get( )-items[ 1 ]-id } { NEW zcl_t( )->get( )-sub-id }| ).
out->write( |{ get( )-items[ id = 8 ]-id } { lines( get( )-items ) }| ).");
    assert_eq!(o, "X 9 8\nY 7 9\n8 2");
}

#[test]
fn components_of_results_in_expressions_and_conditions() {
    // sub-id is 9: 9 + 1 = 10; flag is X.
    let o = out("DATA(x) = get( )-sub-id + 1.
IF get( )-flag = abap_true.
  out->write( |{ x } true| ).
ENDIF.");
    assert_eq!(o, "10 true");
}

#[test]
fn components_of_constructor_expressions() {
    let o = out(
        "out->write( |{ VALUE ty_item( id = 5 )-id } { CONV ty_res( get( ) )-sub-id }| ).
out->write( |{ VALUE ty_items( ( id = 1 ) ( id = 2 ) )[ 2 ]-id }| ).",
    );
    assert_eq!(o, "5 9\n2");
}

#[test]
fn a_component_the_result_has_not_is_not_supported() {
    let r = run_class(&class_source(
        "METHODS get RETURNING VALUE(r) TYPE i.",
        "out->write( get( )-nothing ).",
        "METHOD get.
    r = 1.
  ENDMETHOD.",
    ));
    match r {
        Err(abap::RunError::Dump { id, text, .. }) => {
            assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
            assert!(text.contains("NOTHING"), "{text}");
        }
        other => panic!("expected a dump, got {other:?}"),
    }
}

//! Logical expressions beyond AND/OR/NOT (EQUIV and its precedence) and component types
//! (`TYPE ty-comp`).

use abap::{NoDebugger, Repository};

fn out(main: &str) -> String {
    let src = format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{main}
  ENDMETHOD.
ENDCLASS.
"
    );
    let mut r = Repository::new();
    r.add_file("zcl_t.clas.abap", &src).expect("loads");
    match r.run_classrun("ZCL_T", &mut NoDebugger) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn equiv_is_true_when_both_sides_agree_and_binds_weakest() {
    assert_eq!(
        out(r#"DATA a TYPE i VALUE 1.
DATA b TYPE i VALUE 2.
IF a = 1 EQUIV b = 2.
  out->write( `tt` ).
ENDIF.
IF a = 0 EQUIV b = 0.
  out->write( `ff` ).
ENDIF.
IF a = 1 EQUIV b = 0.
  out->write( `tf` ).
ENDIF.
" OR binds stronger: ( a = 0 OR b = 2 ) EQUIV a = 1 → true EQUIV true.
IF a = 0 OR b = 2 EQUIV a = 1.
  out->write( `or first` ).
ENDIF."#),
        r"tt
ff
or first"
    );
}

#[test]
fn a_type_can_name_a_component_of_a_structured_type() {
    assert_eq!(
        out(r"TYPES: BEGIN OF ty_inner,
         code TYPE c LENGTH 3,
       END OF ty_inner,
       BEGIN OF ty_outer,
         inner TYPE ty_inner,
         amount TYPE p LENGTH 8 DECIMALS 2,
       END OF ty_outer.
DATA lv_code TYPE ty_outer-inner-code.
DATA lv_amount TYPE ty_outer-amount.
lv_code = 'ABCDEF'.
lv_amount = '12.345'.
out->write( |{ lv_code } { lv_amount }| )."),
        "ABC 12.35"
    );
}

//! Logical expressions beyond AND/OR/NOT (EQUIV and its precedence) and component types
//! (`TYPE ty-comp`).

use abap::{NoDebugger, Repository};

fn out(main: &str) -> String {
    let src = format!(
        "CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.\n  PUBLIC SECTION.\n    INTERFACES if_oo_adt_classrun.\nENDCLASS.\n\nCLASS zcl_t IMPLEMENTATION.\n  METHOD if_oo_adt_classrun~main.\n{main}\n  ENDMETHOD.\nENDCLASS.\n"
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
        out(
            "DATA a TYPE i VALUE 1.\nDATA b TYPE i VALUE 2.\nIF a = 1 EQUIV b = 2.\n  out->write( `tt` ).\nENDIF.\nIF a = 0 EQUIV b = 0.\n  out->write( `ff` ).\nENDIF.\nIF a = 1 EQUIV b = 0.\n  out->write( `tf` ).\nENDIF.\n\" OR binds stronger: ( a = 0 OR b = 2 ) EQUIV a = 1 → true EQUIV true.\nIF a = 0 OR b = 2 EQUIV a = 1.\n  out->write( `or first` ).\nENDIF."
        ),
        "tt\nff\nor first"
    );
}

#[test]
fn a_type_can_name_a_component_of_a_structured_type() {
    assert_eq!(
        out(
            "TYPES: BEGIN OF ty_inner,\n         code TYPE c LENGTH 3,\n       END OF ty_inner,\n       BEGIN OF ty_outer,\n         inner TYPE ty_inner,\n         amount TYPE p LENGTH 8 DECIMALS 2,\n       END OF ty_outer.\nDATA lv_code TYPE ty_outer-inner-code.\nDATA lv_amount TYPE ty_outer-amount.\nlv_code = 'ABCDEF'.\nlv_amount = '12.345'.\nout->write( |{ lv_code } { lv_amount }| )."
        ),
        "ABC 12.35"
    );
}

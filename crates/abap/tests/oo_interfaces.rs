//! Interface components through classes and aliases (`ALIASES`, interface constants, static
//! and instance attributes), chained calls on `NEW`/factory results, `FINAL` and `DEFERRED`.

use abap::{NoDebugger, Repository};

const INTF: &str = "INTERFACE zif_shape PUBLIC.
  INTERFACES zif_named.
  ALIASES name FOR zif_named~name.
  CONSTANTS c_sides TYPE i VALUE 4.
  CLASS-DATA gv_count TYPE i.
  DATA mv_label TYPE string.
  METHODS area RETURNING VALUE(r) TYPE i.
ENDINTERFACE.
";

const NAMED: &str = "INTERFACE zif_named PUBLIC.
  METHODS name RETURNING VALUE(r) TYPE string.
ENDINTERFACE.
";

fn repo(main: &str) -> Repository {
    let cls = format!(
        "CLASS zcl_other DEFINITION DEFERRED.
CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    INTERFACES zif_shape.
    ALIASES area FOR zif_shape~area.
    ALIASES sides FOR zif_shape~c_sides.
    ALIASES label FOR zif_shape~mv_label.
    CLASS-METHODS create RETURNING VALUE(r) TYPE REF TO zcl_t.
    METHODS self RETURNING VALUE(r) TYPE REF TO zcl_t.
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{main}
  ENDMETHOD.
  METHOD zif_shape~area.
    r = 12.
  ENDMETHOD.
  METHOD zif_named~name.
    r = `square`.
  ENDMETHOD.
  METHOD create.
    r = NEW #( ).
  ENDMETHOD.
  METHOD self.
    r = me.
  ENDMETHOD.
ENDCLASS.
"
    );
    let mut r = Repository::new();
    r.add_file("zif_named.intf.abap", NAMED).expect("zif_named");
    r.add_file("zif_shape.intf.abap", INTF).expect("zif_shape");
    r.add_file("zcl_t.clas.abap", &cls).expect("zcl_t");
    r
}

fn out(main: &str) -> String {
    match repo(main).run_classrun("ZCL_T", &mut NoDebugger) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn interface_constants_and_static_attributes() {
    let o = out(
        "    out->write( |{ zif_shape=>c_sides } { zcl_t=>zif_shape~c_sides } { zif_shape~c_sides } { sides } { zcl_t=>sides }| ).
    zif_shape=>gv_count = 3.
    zcl_t=>zif_shape~gv_count = zcl_t=>zif_shape~gv_count + 1.
    zif_shape~gv_count = zif_shape~gv_count + 1.
    out->write( |{ zif_shape=>gv_count }| ).",
    );
    assert_eq!(o, "4 4 4 4 4\n5");
}

#[test]
fn interface_instance_attributes_and_aliases() {
    let o = out("    zif_shape~mv_label = `a`.
    out->write( label ).
    label = `b`.
    out->write( me->zif_shape~mv_label ).
    DATA i TYPE REF TO zif_shape.
    i = me.
    i->mv_label = `c`.
    out->write( |{ i->mv_label } { me->label } { i->c_sides }| ).
    DATA(o) = NEW zcl_t( ).
    o->label = `d`.
    out->write( |{ o->zif_shape~mv_label } { label }| ).");
    assert_eq!(
        o,
        r"a
b
c c 4
d c"
    );
}

#[test]
fn alias_and_nested_interface_calls() {
    let o = out("    DATA i TYPE REF TO zif_shape.
    i = NEW zcl_t( ).
    out->write( |{ area( ) } { i->area( ) } { i->name( ) } { i->zif_named~name( ) }| ).
    DATA n TYPE REF TO zif_named.
    n = i.
    out->write( n->name( ) ).");
    assert_eq!(o, "12 12 square square\nsquare");
}

#[test]
fn chained_calls_on_factories_and_new() {
    let o = out(
        "    out->write( |{ zcl_t=>create( )->self( )->self( )->area( ) }| ).
    out->write( NEW zcl_t( )->self( )->zif_named~name( ) ).",
    );
    assert_eq!(o, "12\nsquare");
}

#[test]
fn inheriting_from_a_final_class_is_a_load_error() {
    let mut r = repo("    out->write( `x` ).");
    let sub = "CLASS zcl_sub DEFINITION PUBLIC INHERITING FROM zcl_t CREATE PUBLIC.
ENDCLASS.
CLASS zcl_sub IMPLEMENTATION.
ENDCLASS.
";
    let err = r
        .add_file("zcl_sub.clas.abap", sub)
        .expect_err("final superclass");
    assert!(
        err.to_string()
            .contains("cannot inherit from the final class ZCL_T"),
        "{err}"
    );
    let local = "CLASS lcl_a DEFINITION FINAL.
ENDCLASS.
CLASS lcl_a IMPLEMENTATION.
ENDCLASS.
CLASS lcl_b DEFINITION INHERITING FROM lcl_a.
ENDCLASS.
CLASS lcl_b IMPLEMENTATION.
ENDCLASS.
";
    assert!(r.add_file("zcl_t.clas.locals_imp.abap", local).is_err());
    let fine = "CLASS lcl_a DEFINITION DEFERRED.
CLASS lcl_a DEFINITION.
ENDCLASS.
CLASS lcl_a IMPLEMENTATION.
ENDCLASS.
CLASS lcl_b DEFINITION FINAL INHERITING FROM lcl_a.
ENDCLASS.
CLASS lcl_b IMPLEMENTATION.
ENDCLASS.
";
    assert!(r.add_file("zcl_t.clas.locals_imp.abap", fine).is_ok());
}

#[test]
fn case_type_of() {
    let o = out(
        "    DATA objs TYPE STANDARD TABLE OF REF TO object WITH EMPTY KEY.
    APPEND NEW zcl_t( ) TO objs.
    APPEND NEW cx_sy_zerodivide( ) TO objs.
    APPEND NEW cx_sy_conversion_no_number( ) TO objs.
    DATA o TYPE REF TO object.
    APPEND o TO objs.
    LOOP AT objs INTO o.
      CASE TYPE OF o.
        WHEN TYPE zif_named INTO DATA(named).
          out->write( named->name( ) ).
        WHEN TYPE cx_sy_arithmetic_error.
          out->write( `arithmetic` ).
        WHEN TYPE cx_root INTO DATA(root).
          IF root IS BOUND.
            out->write( `root` ).
          ENDIF.
        WHEN OTHERS.
          out->write( `other` ).
      ENDCASE.
    ENDLOOP.",
    );
    assert_eq!(
        o,
        r"square
arithmetic
root
other"
    );
}

#[test]
fn attributes_of_call_and_constructor_results() {
    let o = out("    label = `me`.
    out->write( self( )->label ).
    out->write( zcl_t=>create( )->self( )->zif_shape~mv_label && `|` ).
    out->write( |{ NEW zcl_t( )->sides }| ).
    DATA i TYPE REF TO zif_shape.
    i = me.
    out->write( CAST zcl_t( i )->label ).");
    assert_eq!(
        o,
        r"me
|
4
me"
    );
}

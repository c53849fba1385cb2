"! Instance attributes, a constructor, ME and method chaining over one object.
CLASS zcl_smp_counter DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    METHODS constructor.
    METHODS increment
      IMPORTING
        iv_by          TYPE i DEFAULT 1
      RETURNING
        VALUE(ro_self) TYPE REF TO zcl_smp_counter.
    METHODS value
      RETURNING
        VALUE(rv_value) TYPE i.

  PRIVATE SECTION.
    DATA mv_value TYPE i.
    DATA mv_calls TYPE i.
ENDCLASS.



CLASS zcl_smp_counter IMPLEMENTATION.

  METHOD constructor.
    mv_value = 100.
  ENDMETHOD.

  METHOD if_oo_adt_classrun~main.
    DATA(lo_counter) = NEW zcl_smp_counter( ).
    lo_counter->increment( ).
    lo_counter->increment( 5 ).
    out->write( |Value: { lo_counter->value( ) }| ).
    lo_counter->increment( 10 )->increment( 20 ).
    out->write( |Chained: { lo_counter->value( ) }, calls { lo_counter->mv_calls }| ).
    out->write( |Own counter: { me->value( ) }| ).
  ENDMETHOD.

  METHOD increment.
    me->mv_value = me->mv_value + iv_by.
    mv_calls = mv_calls + 1.
    ro_self = me.
  ENDMETHOD.

  METHOD value.
    rv_value = mv_value.
  ENDMETHOD.

ENDCLASS.

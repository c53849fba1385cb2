"! Static attributes and methods, CONSTANTS and a class constructor.
CLASS zcl_smp_static DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    CONSTANTS c_prefix TYPE string VALUE `ID-`.
    CLASS-DATA gv_next TYPE i.
    CLASS-METHODS class_constructor.
    CLASS-METHODS next_id
      RETURNING
        VALUE(rv_id) TYPE string.
ENDCLASS.



CLASS zcl_smp_static IMPLEMENTATION.

  METHOD class_constructor.
    gv_next = 1000.
  ENDMETHOD.

  METHOD if_oo_adt_classrun~main.
    out->write( next_id( ) ).
    out->write( zcl_smp_static=>next_id( ) ).
    out->write( |Next free: { zcl_smp_static=>gv_next }| ).
  ENDMETHOD.

  METHOD next_id.
    gv_next = gv_next + 1.
    rv_id = |{ c_prefix }{ gv_next }|.
  ENDMETHOD.

ENDCLASS.

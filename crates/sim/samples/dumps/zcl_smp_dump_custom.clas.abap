"! Raises an exception of its own that nobody catches: UNCAUGHT_EXCEPTION, a short dump.
CLASS zcl_smp_dump_custom DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_dump_custom IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lv_order) = `A-17`.
    out->write( |Checking { lv_order }| ).
    RAISE EXCEPTION TYPE zcx_smp_dump_custom.
  ENDMETHOD.

ENDCLASS.

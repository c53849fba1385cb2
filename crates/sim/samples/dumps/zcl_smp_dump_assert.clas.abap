"! A failed ASSERT: ASSERTION_FAILED, which no program can catch. Its test class dies the
"! same way inside an ABAP Unit run.
CLASS zcl_smp_dump_assert DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_dump_assert IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lv_count) = 3.
    ASSERT lv_count = 2.
    out->write( `not reached` ).
  ENDMETHOD.

ENDCLASS.

"! DO loops with EXIT, CONTINUE and CHECK; sy-index after nested loops.
CLASS zcl_smp_do_exit DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

ENDCLASS.



CLASS zcl_smp_do_exit IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_sum TYPE i.
    DO.
      IF sy-index > 10.
        EXIT.
      ENDIF.
      IF sy-index MOD 2 = 0.
        CONTINUE.
      ENDIF.
      lv_sum = lv_sum + sy-index.
    ENDDO.
    out->write( |Sum of odd numbers to 10: { lv_sum }| ).
    lv_sum = 0.
    DO 5 TIMES.
      CHECK sy-index > 2.
      lv_sum = lv_sum + sy-index.
    ENDDO.
    out->write( |Sum of 3..5: { lv_sum }| ).
  ENDMETHOD.

ENDCLASS.

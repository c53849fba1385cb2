"! Fibonacci numbers with a WHILE loop and three locals.
CLASS zcl_smp_fibonacci DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_fibonacci IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_prev TYPE i VALUE 0.
    DATA lv_curr TYPE i VALUE 1.
    DATA lv_next TYPE i.
    DATA lv_list TYPE string.

    lv_list = |{ lv_prev }|.
    WHILE lv_curr < 100.
      lv_list = |{ lv_list } { lv_curr }|.
      lv_next = lv_prev + lv_curr.
      lv_prev = lv_curr.
      lv_curr = lv_next.
    ENDWHILE.
    out->write( |Fibonacci below 100: { lv_list }| ).
    out->write( |First above: { lv_curr }| ).
  ENDMETHOD.

ENDCLASS.

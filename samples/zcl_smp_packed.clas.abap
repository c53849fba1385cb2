"! Packed numbers: decimals, rounding on assignment, mixed i/p arithmetic.
CLASS zcl_smp_packed DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_packed IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_price TYPE p LENGTH 8 DECIMALS 2.
    DATA lv_qty TYPE i VALUE 3.
    DATA lv_total TYPE p LENGTH 10 DECIMALS 2.
    DATA lv_third TYPE p LENGTH 8 DECIMALS 4.

    lv_price = '19.99'.
    lv_total = lv_price * lv_qty.
    out->write( |Total: { lv_total }| ).
    lv_third = 10 / 3.
    out->write( |10 / 3 = { lv_third }| ).
    lv_price = '2.345'.
    out->write( |Rounded: { lv_price }| ).
    lv_price = lv_price - 5.
    out->write( |Negative: { lv_price }| ).
  ENDMETHOD.

ENDCLASS.

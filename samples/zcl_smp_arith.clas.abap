"! Integer arithmetic: operator precedence, DIV and MOD, rounding of /.
CLASS zcl_smp_arith DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_arith IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_a TYPE i VALUE 17.
    DATA lv_b TYPE i VALUE 5.
    DATA lv_r TYPE i.

    lv_r = lv_a + lv_b * 2.
    out->write( |a + b * 2 = { lv_r }| ).
    lv_r = ( lv_a + lv_b ) * 2.
    out->write( |(a + b) * 2 = { lv_r }| ).
    lv_r = lv_a DIV lv_b.
    out->write( |a DIV b = { lv_r }| ).
    lv_r = lv_a MOD lv_b.
    out->write( |a MOD b = { lv_r }| ).
    lv_r = lv_a / lv_b.
    out->write( |a / b = { lv_r }| ).
    lv_r = 7 / 2.
    out->write( |7 / 2 = { lv_r }| ).
    lv_r = -7 / 2.
    out->write( |-7 / 2 = { lv_r }| ).
    lv_r = -7 MOD 3.
    out->write( |-7 MOD 3 = { lv_r }| ).
    lv_r = lv_b - lv_a.
    out->write( |b - a = { lv_r }| ).
  ENDMETHOD.

ENDCLASS.

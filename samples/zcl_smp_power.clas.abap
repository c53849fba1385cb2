"! The power operator **: binds tighter than * and /, groups from the right, and makes the
"! calculation type f (decfloat34 when a decfloat takes part).
CLASS zcl_smp_power DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_power IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_int TYPE i.
    DATA lv_rate TYPE p LENGTH 8 DECIMALS 4.
    DATA lv_exact TYPE decfloat34.

    lv_int = 2 ** 10.
    out->write( |2 ** 10 = { lv_int }| ).
    lv_int = 2 ** 3 ** 2.
    out->write( |2 ** 3 ** 2 = { lv_int }| ).
    lv_int = 3 * 2 ** 2.
    out->write( |3 * 2 ** 2 = { lv_int }| ).
    lv_rate = 2 ** -2.
    out->write( |2 ** -2 = { lv_rate }| ).
    DATA(lv_root) = 16 ** '0.5'.
    out->write( |16 ** 0.5 = { lv_root }| ).
    lv_exact = CONV decfloat34( '1.5' ) ** 3.
    out->write( |1.5 ** 3 = { lv_exact }| ).
  ENDMETHOD.
ENDCLASS.

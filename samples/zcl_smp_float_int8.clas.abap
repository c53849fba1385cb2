"! int8 beyond the range of i, binary floating point f and decfloat34: calculation types,
"! conversions and their text forms.
CLASS zcl_smp_float_int8 DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_float_int8 IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_big TYPE int8 VALUE 2147483647.
    DATA lv_int TYPE i.
    DATA lv_float TYPE f.
    DATA lv_text TYPE string.
    DATA lv_amount TYPE p LENGTH 8 DECIMALS 2.
    DATA lv_exact TYPE decfloat34.

    lv_big = lv_big + 1.
    out->write( |int8 beyond i: { lv_big }| ).
    lv_big = lv_big * lv_big.
    out->write( |Squared: { lv_big }| ).
    TRY.
        lv_int = lv_big.
      CATCH cx_sy_conversion_overflow.
        out->write( `Too big for i` ).
    ENDTRY.
    lv_float = '1.5'.
    lv_float = lv_float * 4.
    out->write( |Float: { lv_float }| ).
    lv_text = lv_float.
    out->write( |As string: { lv_text }| ).
    lv_float = '0.125'.
    lv_amount = lv_float.
    out->write( |Rounded into p: { lv_amount }| ).
    lv_int = CONV f( '2.5' ).
    out->write( |Rounded into i: { lv_int }| ).
    lv_exact = 1 / 8.
    out->write( |decfloat34: { lv_exact }| ).
    lv_exact = lv_exact * 1000.
    out->write( |Times 1000: { lv_exact }| ).
  ENDMETHOD.
ENDCLASS.

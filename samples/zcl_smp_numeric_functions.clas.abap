"! Built-in numeric functions: abs, sign, ceil, floor, trunc and frac on integers and binary
"! floating point numbers, sqrt, and round( ) to a number of decimals.
CLASS zcl_smp_numeric_functions DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_numeric_functions IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_int TYPE i VALUE -7.
    DATA lv_float TYPE f.

    out->write( |abs: { abs( lv_int ) }, sign: { sign( lv_int ) }| ).
    lv_float = '2.1'.
    out->write( |ceil( 2.1 ) = { ceil( lv_float ) }| ).
    lv_float = '-2.1'.
    out->write( |floor( -2.1 ) = { floor( lv_float ) }| ).
    lv_float = '-2.9'.
    out->write( |trunc( -2.9 ) = { trunc( lv_float ) }| ).
    lv_float = '2.75'.
    out->write( |frac( 2.75 ) = { frac( lv_float ) }| ).
    out->write( |sqrt( 16 ) = { sqrt( 16 ) }| ).
    out->write( |round( 2.345, 2 ) = { round( val = '2.345' dec = 2 ) }| ).
    TRY.
        lv_float = sqrt( lv_int ).
      CATCH cx_sy_arg_out_of_domain.
        out->write( `sqrt of a negative number: out of domain` ).
    ENDTRY.
  ENDMETHOD.
ENDCLASS.

"! Recursion as deep as real programs go: 10,000 nested calls, and mutual recursion.
CLASS zcl_smp_recursion DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    CLASS-METHODS sum_to
      IMPORTING iv_n          TYPE i
      RETURNING VALUE(rv_sum) TYPE i.
    CLASS-METHODS is_even
      IMPORTING iv_n           TYPE i
      RETURNING VALUE(rv_even) TYPE abap_bool.
    CLASS-METHODS is_odd
      IMPORTING iv_n          TYPE i
      RETURNING VALUE(rv_odd) TYPE abap_bool.
ENDCLASS.



CLASS zcl_smp_recursion IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    out->write( |sum to 10000: { sum_to( 10000 ) }| ).
    out->write( |5001 is odd: { is_odd( 5001 ) }| ).
  ENDMETHOD.

  METHOD sum_to.
    IF iv_n = 0.
      RETURN.
    ENDIF.
    rv_sum = iv_n + sum_to( iv_n - 1 ).
  ENDMETHOD.

  METHOD is_even.
    rv_even = COND #( WHEN iv_n = 0 THEN abap_true ELSE is_odd( iv_n - 1 ) ).
  ENDMETHOD.

  METHOD is_odd.
    rv_odd = COND #( WHEN iv_n = 0 THEN abap_false ELSE is_even( iv_n - 1 ) ).
  ENDMETHOD.
ENDCLASS.

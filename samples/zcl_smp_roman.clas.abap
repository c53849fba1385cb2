"! Roman numerals from integers, with ABAP Unit tests.
CLASS zcl_smp_roman DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    METHODS to_roman
      IMPORTING
        iv_number       TYPE i
      RETURNING
        VALUE(rv_roman) TYPE string.

  PRIVATE SECTION.
    METHODS take
      IMPORTING
        iv_value  TYPE i
        iv_symbol TYPE string
      CHANGING
        cv_rest   TYPE i
        cv_roman  TYPE string.
ENDCLASS.



CLASS zcl_smp_roman IMPLEMENTATION.

  METHOD to_roman.
    DATA lv_rest TYPE i.
    lv_rest = iv_number.
    take( EXPORTING iv_value = 1000 iv_symbol = `M`  CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
    take( EXPORTING iv_value = 900  iv_symbol = `CM` CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
    take( EXPORTING iv_value = 500  iv_symbol = `D`  CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
    take( EXPORTING iv_value = 400  iv_symbol = `CD` CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
    take( EXPORTING iv_value = 100  iv_symbol = `C`  CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
    take( EXPORTING iv_value = 90   iv_symbol = `XC` CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
    take( EXPORTING iv_value = 50   iv_symbol = `L`  CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
    take( EXPORTING iv_value = 40   iv_symbol = `XL` CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
    take( EXPORTING iv_value = 10   iv_symbol = `X`  CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
    take( EXPORTING iv_value = 9    iv_symbol = `IX` CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
    take( EXPORTING iv_value = 5    iv_symbol = `V`  CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
    take( EXPORTING iv_value = 4    iv_symbol = `IV` CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
    take( EXPORTING iv_value = 1    iv_symbol = `I`  CHANGING cv_rest = lv_rest cv_roman = rv_roman ).
  ENDMETHOD.

  METHOD take.
    WHILE cv_rest >= iv_value.
      cv_roman = cv_roman && iv_symbol.
      cv_rest = cv_rest - iv_value.
    ENDWHILE.
  ENDMETHOD.

ENDCLASS.

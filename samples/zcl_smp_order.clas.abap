"! Debugger showcase: a method with i, p, c and string parameters and locals, a negative
"! number, ME with attributes and a caught exception object (the golden tests stop here).
CLASS zcl_smp_order DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    TYPES ty_price TYPE p LENGTH 5 DECIMALS 2.
    TYPES ty_code TYPE c LENGTH 4.

  PRIVATE SECTION.
    DATA mv_customer TYPE string VALUE `ACME`.
    DATA mv_lines TYPE i.
    METHODS line_amount
      IMPORTING
        iv_quantity      TYPE i
        iv_price         TYPE ty_price
        iv_code          TYPE ty_code
        iv_text          TYPE string
      RETURNING
        VALUE(rv_amount) TYPE ty_price
      RAISING
        cx_sy_arithmetic_error.
ENDCLASS.



CLASS zcl_smp_order IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_amount TYPE p LENGTH 5 DECIMALS 2.
    TRY.
        lv_amount = line_amount( iv_quantity = 3 iv_price = '4.50' iv_code = 'A001' iv_text = `Pens` ).
        out->write( |Amount: { lv_amount } { zif_smp_limits=>c_currency }| ).
        lv_amount = line_amount( iv_quantity = 12 iv_price = '1.00' iv_code = 'B002' iv_text = `Pads` ).
        out->write( `not reached` ).
      CATCH cx_sy_arithmetic_error INTO DATA(lx_error).
        out->write( |Refused: { lx_error->get_text( ) }| ).
    ENDTRY.
    out->write( |Lines: { mv_lines }, customer { mv_customer }| ).
  ENDMETHOD.

  METHOD line_amount.
    DATA lv_delta TYPE i.
    DATA lv_label TYPE c LENGTH 10.
    DATA lv_note TYPE string.
    lv_delta = zif_smp_limits=>c_max_quantity - iv_quantity.
    lv_label = iv_code.
    lv_note = |{ iv_text } x{ iv_quantity }|.
    IF lv_delta < 0.
      RAISE EXCEPTION TYPE cx_sy_arithmetic_error.
    ENDIF.
    rv_amount = iv_price * iv_quantity.
    mv_lines = mv_lines + 1.
  ENDMETHOD.

ENDCLASS.

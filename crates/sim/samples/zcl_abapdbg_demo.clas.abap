"! Sample console application: the abapdbg demo and tests stop in it.
CLASS zcl_abapdbg_demo DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

  PRIVATE SECTION.
    METHODS line_total
      IMPORTING
        iv_quantity     TYPE i
        iv_price        TYPE i
      RETURNING
        VALUE(rv_total) TYPE i.
ENDCLASS.



CLASS zcl_abapdbg_demo IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_count TYPE i.
    DATA lv_total TYPE i.
    DATA lv_name TYPE string.
    DATA lv_code TYPE c LENGTH 10.
    DATA lv_rate TYPE p LENGTH 8 DECIMALS 2.

    " Build an order of three lines.
    lv_name = `Order`.
    lv_code = 'A001'.
    lv_rate = '12.50'.
    DO 3 TIMES.
      lv_count = lv_count + 1.
      lv_total = lv_total + line_total( iv_quantity = lv_count iv_price = 10 ).
    ENDDO.
    IF lv_total > 50.
      out->write( |{ lv_name } { lv_code }: total { lv_total }, rate { lv_rate }| ).
    ELSE.
      out->write( |{ lv_name }: small order| ).
    ENDIF.
    lv_rate = lv_rate * 2.
    out->write( |Doubled rate: { lv_rate }| ).
  ENDMETHOD.

  METHOD line_total.
    rv_total = iv_quantity * iv_price.
  ENDMETHOD.

ENDCLASS.

"! A price rule whose test class has one deliberately failing test.
CLASS zcl_smp_failing DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    METHODS discounted
      IMPORTING
        iv_price        TYPE i
      RETURNING
        VALUE(rv_price) TYPE i.
ENDCLASS.



CLASS zcl_smp_failing IMPLEMENTATION.

  METHOD discounted.
    IF iv_price >= 100.
      rv_price = iv_price - iv_price DIV 10.
    ELSE.
      rv_price = iv_price.
    ENDIF.
  ENDMETHOD.

ENDCLASS.

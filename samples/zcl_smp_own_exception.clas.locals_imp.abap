CLASS lcx_insufficient_funds DEFINITION INHERITING FROM cx_static_check.
ENDCLASS.

CLASS lcx_insufficient_funds IMPLEMENTATION.
ENDCLASS.

CLASS lcl_account DEFINITION.
  PUBLIC SECTION.
    METHODS constructor
      IMPORTING
        iv_balance TYPE i.
    METHODS withdraw
      IMPORTING
        iv_amount TYPE i
      RAISING
        lcx_insufficient_funds.
    METHODS balance
      RETURNING
        VALUE(rv_balance) TYPE i.
  PRIVATE SECTION.
    DATA mv_balance TYPE i.
ENDCLASS.

CLASS lcl_account IMPLEMENTATION.
  METHOD constructor.
    mv_balance = iv_balance.
  ENDMETHOD.

  METHOD withdraw.
    IF iv_amount > mv_balance.
      RAISE EXCEPTION TYPE lcx_insufficient_funds.
    ENDIF.
    mv_balance = mv_balance - iv_amount.
  ENDMETHOD.

  METHOD balance.
    rv_balance = mv_balance.
  ENDMETHOD.
ENDCLASS.

"! Parameter kinds: IMPORTING, EXPORTING, CHANGING and RETURNING, optional and default values.
CLASS zcl_smp_params DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

  PRIVATE SECTION.
    METHODS split_amount
      IMPORTING
        iv_amount   TYPE i
        iv_parts    TYPE i DEFAULT 2
      EXPORTING
        ev_share    TYPE i
        ev_rest     TYPE i.
    METHODS add_tax
      CHANGING
        cv_amount TYPE p.
    METHODS greeting
      IMPORTING
        iv_name          TYPE string OPTIONAL
      RETURNING
        VALUE(rv_text)   TYPE string.
ENDCLASS.



CLASS zcl_smp_params IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_share TYPE i.
    DATA lv_rest TYPE i.
    DATA lv_amount TYPE p LENGTH 8 DECIMALS 2 VALUE '100.00'.

    split_amount( EXPORTING iv_amount = 17 IMPORTING ev_share = lv_share ev_rest = lv_rest ).
    out->write( |17 in two: { lv_share } rest { lv_rest }| ).
    split_amount( EXPORTING iv_amount = 17 iv_parts = 5 IMPORTING ev_share = lv_share ev_rest = lv_rest ).
    out->write( |17 in five: { lv_share } rest { lv_rest }| ).
    add_tax( CHANGING cv_amount = lv_amount ).
    out->write( |With tax: { lv_amount }| ).
    out->write( greeting( ) ).
    out->write( greeting( `Ada` ) ).
  ENDMETHOD.

  METHOD split_amount.
    ev_share = iv_amount DIV iv_parts.
    ev_rest = iv_amount MOD iv_parts.
  ENDMETHOD.

  METHOD add_tax.
    cv_amount = cv_amount * '1.19'.
  ENDMETHOD.

  METHOD greeting.
    IF iv_name IS INITIAL.
      rv_text = `Hello, stranger`.
    ELSE.
      rv_text = |Hello, { iv_name }|.
    ENDIF.
  ENDMETHOD.

ENDCLASS.

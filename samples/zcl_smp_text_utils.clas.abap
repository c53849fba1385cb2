"! String helpers with tests: padding in C fields, templates, case conversion.
CLASS zcl_smp_text_utils DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    TYPES ty_code TYPE c LENGTH 4.
    CLASS-METHODS initials
      IMPORTING
        iv_first          TYPE string
        iv_last           TYPE string
      RETURNING
        VALUE(rv_initials) TYPE string.
    CLASS-METHODS shout
      IMPORTING
        iv_text        TYPE string
      RETURNING
        VALUE(rv_text) TYPE string.
    CLASS-METHODS code
      IMPORTING
        iv_text        TYPE string
      RETURNING
        VALUE(rv_code) TYPE ty_code.
ENDCLASS.



CLASS zcl_smp_text_utils IMPLEMENTATION.

  METHOD initials.
    DATA lv_first TYPE c LENGTH 1.
    DATA lv_last TYPE c LENGTH 1.
    lv_first = to_upper( iv_first ).
    lv_last = to_upper( iv_last ).
    rv_initials = |{ lv_first }.{ lv_last }.|.
  ENDMETHOD.

  METHOD shout.
    rv_text = to_upper( iv_text ) && `!`.
  ENDMETHOD.

  METHOD code.
    rv_code = to_upper( iv_text ).
  ENDMETHOD.

ENDCLASS.

*&---------------------------------------------------------------------*
*& Report ZSMP_GENERIC_PARAMS: generically typed parameters (TYPE c,
*& TYPE p) take length and decimals from the actual parameter.
*&---------------------------------------------------------------------*
REPORT zsmp_generic_params.

CLASS lcl_calc DEFINITION.
  PUBLIC SECTION.
    CLASS-METHODS half
      IMPORTING
        iv_value       TYPE p
      RETURNING
        VALUE(rv_text) TYPE string.
ENDCLASS.

CLASS lcl_calc IMPLEMENTATION.
  METHOD half.
    DATA lv_half TYPE p LENGTH 8 DECIMALS 3.
    lv_half = iv_value / 2.
    rv_text = |{ iv_value } / 2 = { lv_half }|.
  ENDMETHOD.
ENDCLASS.

DATA gv_amount TYPE p LENGTH 6 DECIMALS 2 VALUE '8.50'.

START-OF-SELECTION.
  PERFORM show USING 'abc'.
  WRITE / lcl_calc=>half( gv_amount ).

FORM show USING iv_text TYPE c.
  WRITE / |{ iv_text } has { strlen( iv_text ) } characters|.
ENDFORM.

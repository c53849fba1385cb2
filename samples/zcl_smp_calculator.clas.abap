"! A small calculator with ABAP Unit tests (all pass).
CLASS zcl_smp_calculator DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    METHODS add
      IMPORTING
        iv_a             TYPE i
        iv_b             TYPE i
      RETURNING
        VALUE(rv_result) TYPE i.
    METHODS divide
      IMPORTING
        iv_a             TYPE i
        iv_b             TYPE i
      RETURNING
        VALUE(rv_result) TYPE i
      RAISING
        cx_sy_zerodivide.
ENDCLASS.



CLASS zcl_smp_calculator IMPLEMENTATION.

  METHOD add.
    rv_result = iv_a + iv_b.
  ENDMETHOD.

  METHOD divide.
    rv_result = iv_a DIV iv_b.
  ENDMETHOD.

ENDCLASS.

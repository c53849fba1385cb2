"! Catching a built-in exception: CX_SY_ZERODIVIDE with INTO and get_text( ).
CLASS zcl_smp_zero_divide DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

  PRIVATE SECTION.
    METHODS ratio
      IMPORTING
        iv_a            TYPE i
        iv_b            TYPE i
      RETURNING
        VALUE(rv_ratio) TYPE i.
ENDCLASS.



CLASS zcl_smp_zero_divide IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lx_error TYPE REF TO cx_sy_zerodivide.
    DATA lv_b TYPE i.
    DO 3 TIMES.
      lv_b = 2 - sy-index.
      TRY.
          out->write( |10 / { lv_b } = { ratio( iv_a = 10 iv_b = lv_b ) }| ).
        CATCH cx_sy_zerodivide INTO lx_error.
          out->write( |10 / { lv_b }: { lx_error->get_text( ) }| ).
      ENDTRY.
    ENDDO.
  ENDMETHOD.

  METHOD ratio.
    rv_ratio = iv_a / iv_b.
  ENDMETHOD.

ENDCLASS.

"! Recursion: a RETURNING method that calls itself.
CLASS zcl_smp_factorial DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

  PRIVATE SECTION.
    METHODS factorial
      IMPORTING
        iv_n             TYPE i
      RETURNING
        VALUE(rv_result) TYPE i.
ENDCLASS.



CLASS zcl_smp_factorial IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_n TYPE i.
    DO 6 TIMES.
      lv_n = sy-index - 1.
      out->write( |{ lv_n }! = { factorial( lv_n ) }| ).
    ENDDO.
    out->write( |10! = { factorial( 10 ) }| ).
  ENDMETHOD.

  METHOD factorial.
    IF iv_n <= 1.
      rv_result = 1.
    ELSE.
      rv_result = iv_n * factorial( iv_n - 1 ).
    ENDIF.
  ENDMETHOD.

ENDCLASS.

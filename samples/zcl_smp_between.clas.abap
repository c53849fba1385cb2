"! Range checks with BETWEEN, NOT and combined logical expressions.
CLASS zcl_smp_between DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

  PRIVATE SECTION.
    METHODS classify
      IMPORTING
        iv_temperature TYPE i
      RETURNING
        VALUE(rv_text) TYPE string.
ENDCLASS.



CLASS zcl_smp_between IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    out->write( classify( -5 ) ).
    out->write( classify( 12 ) ).
    out->write( classify( 21 ) ).
    out->write( classify( 35 ) ).
  ENDMETHOD.

  METHOD classify.
    IF iv_temperature BETWEEN 18 AND 24.
      rv_text = |{ iv_temperature }: comfortable|.
    ELSEIF iv_temperature < 0 OR iv_temperature > 30.
      rv_text = |{ iv_temperature }: extreme|.
    ELSEIF NOT iv_temperature BETWEEN 18 AND 30 AND iv_temperature > 10.
      rv_text = |{ iv_temperature }: cool|.
    ELSE.
      rv_text = |{ iv_temperature }: other|.
    ENDIF.
  ENDMETHOD.

ENDCLASS.

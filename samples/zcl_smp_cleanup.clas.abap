"! TRY blocks nested across methods: CLEANUP runs while a raised exception passes by.
CLASS zcl_smp_cleanup DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

  PRIVATE SECTION.
    DATA mv_log TYPE string.
    METHODS inner
      RAISING
        cx_sy_arithmetic_error.
    METHODS log
      IMPORTING
        iv_entry TYPE string.
ENDCLASS.



CLASS zcl_smp_cleanup IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    TRY.
        log( `outer start` ).
        inner( ).
        log( `not reached` ).
      CATCH cx_sy_arithmetic_error INTO DATA(lx_error).
        log( |caught { lx_error->get_text( ) }| ).
    ENDTRY.
    out->write( mv_log ).
  ENDMETHOD.

  METHOD inner.
    TRY.
        log( `inner start` ).
        RAISE EXCEPTION TYPE cx_sy_zerodivide.
      CLEANUP.
        log( `inner cleanup` ).
    ENDTRY.
  ENDMETHOD.

  METHOD log.
    IF mv_log IS INITIAL.
      mv_log = iv_entry.
    ELSE.
      mv_log = |{ mv_log }; { iv_entry }|.
    ENDIF.
  ENDMETHOD.

ENDCLASS.

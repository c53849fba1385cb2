"! CLEANUP runs when a runtime error (division by zero) passes through the TRY block.
CLASS zcl_smp_cleanup_dump DEFINITION
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



CLASS zcl_smp_cleanup_dump IMPLEMENTATION.

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
    DATA lv_zero TYPE i.
    TRY.
        log( `inner start` ).
        lv_zero = 1 / lv_zero.
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

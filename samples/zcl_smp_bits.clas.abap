"! Bit expressions on byte fields and the bit pattern comparisons O, Z and M.
CLASS zcl_smp_bits DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_bits IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    CONSTANTS: lc_read  TYPE x LENGTH 1 VALUE '04',
               lc_write TYPE x LENGTH 1 VALUE '02',
               lc_run   TYPE x LENGTH 1 VALUE '01'.
    DATA lv_rights TYPE x LENGTH 1.
    DATA lv_mask TYPE x LENGTH 1.

    lv_rights = lc_read BIT-OR lc_write.
    out->write( |rights { lv_rights }| ).
    lv_mask = lc_read BIT-OR lc_run.
    out->write( |common { lv_rights BIT-AND lv_mask }, differing { lv_rights BIT-XOR lv_mask }| ).
    out->write( |without write { lv_rights BIT-AND BIT-NOT lc_write }| ).
    IF lv_rights O lc_read.
      out->write( `may read` ).
    ENDIF.
    IF lv_rights Z lc_run.
      out->write( `may not run` ).
    ENDIF.
    IF lv_rights M lv_mask.
      out->write( `read yes, run no: mixed` ).
    ENDIF.
    DATA(lv_wide) = CONV xstring( 'FF00' ) BIT-AND lv_rights.
    out->write( |{ lv_wide } has { xstrlen( lv_wide ) } bytes| ).
  ENDMETHOD.
ENDCLASS.

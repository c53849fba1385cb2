"! CASE/WHEN with OR and OTHERS over a character code.
CLASS zcl_smp_case DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

ENDCLASS.



CLASS zcl_smp_case IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_code TYPE c LENGTH 2.
    DO 4 TIMES.
      lv_code = SWITCH #( sy-index WHEN 1 THEN `DE` WHEN 2 THEN `AT` WHEN 3 THEN `FR` ELSE `XX` ).
      CASE lv_code.
        WHEN `DE` OR `AT`.
          out->write( |{ lv_code }: German| ).
        WHEN `FR`.
          out->write( |{ lv_code }: French| ).
        WHEN OTHERS.
          out->write( |{ lv_code }: unknown| ).
      ENDCASE.
    ENDDO.
  ENDMETHOD.

ENDCLASS.

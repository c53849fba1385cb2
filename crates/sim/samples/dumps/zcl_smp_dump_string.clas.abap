"! Doubles a string until it is longer than a string may be: STRING_SIZE_TOO_LARGE.
CLASS zcl_smp_dump_string DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_dump_string IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lv_text) = `abcd`.
    DO 64 TIMES.
      lv_text = lv_text && lv_text.
    ENDDO.
    out->write( strlen( lv_text ) ).
  ENDMETHOD.

ENDCLASS.

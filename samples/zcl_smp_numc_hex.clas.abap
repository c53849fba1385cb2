"! Numeric text (type n) and bytes (x, xstring): digits right-aligned with leading zeros,
"! hex text in and out, bytes as integers and back.
CLASS zcl_smp_numc_hex DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_numc_hex IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_matnr TYPE n LENGTH 10.
    DATA lv_count(4) TYPE n.
    DATA lv_flags TYPE x LENGTH 2.
    DATA lv_int TYPE i.
    DATA lv_bytes TYPE xstring.
    DATA lv_text TYPE string.

    lv_matnr = '4711'.
    out->write( |Material: { lv_matnr }| ).
    lv_matnr = 'AB-12 C3'.
    out->write( |Digits only: { lv_matnr }| ).
    DO 3 TIMES.
      lv_count = lv_count + 1.
    ENDDO.
    out->write( |Counter: { lv_count }| ).
    lv_int = lv_count * 10.
    out->write( |Counter times ten: { lv_int }| ).
    lv_flags = 'A0F'.
    out->write( |Flags: { lv_flags }| ).
    lv_int = lv_flags.
    out->write( |Flags as integer: { lv_int }| ).
    lv_flags = 258.
    out->write( |258 as bytes: { lv_flags }| ).
    lv_bytes = `414243`.
    out->write( |Bytes: { lv_bytes }| ).
    lv_text = lv_bytes.
    out->write( |Back to text: { lv_text }| ).
    CLEAR lv_matnr.
    IF lv_matnr IS INITIAL.
      out->write( |Cleared: { lv_matnr }| ).
    ENDIF.
  ENDMETHOD.
ENDCLASS.

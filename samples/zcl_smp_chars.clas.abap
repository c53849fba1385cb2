"! Character fields: padding, truncation, concatenation with && and templates.
CLASS zcl_smp_chars DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_chars IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_code TYPE c LENGTH 4.
    DATA lv_long TYPE c LENGTH 10.
    DATA lv_text TYPE string.

    lv_code = 'ABCDEFG'.
    out->write( |Truncated: [{ lv_code }]| ).
    lv_long = 'XY'.
    lv_text = lv_long && `|`.
    out->write( |Concatenated: { lv_text }| ).
    lv_text = `one` && `-` && `two`.
    out->write( lv_text ).
    out->write( |Upper: { to_upper( `mixed Case` ) }| ).
    out->write( |Lower: { to_lower( `MIXED Case` ) }| ).
    out->write( |Length: { strlen( `seven!!` ) }| ).
  ENDMETHOD.

ENDCLASS.

"! Dates and times in string templates: the predefined format (raw digits) and the
"! formatting options DATE = ISO and TIME = ISO, also given dynamically.
CLASS zcl_smp_date_formats DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_date_formats IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_date TYPE d VALUE '20241231'.
    DATA lv_time TYPE t VALUE '080910'.
    DATA lv_format TYPE string VALUE `ISO`.

    out->write( |Raw: { lv_date } { lv_time }| ).
    out->write( |ISO: { lv_date DATE = ISO }T{ lv_time TIME = ISO }| ).
    lv_date = lv_date + 1.
    lv_time = lv_time - 8 * 3600.
    out->write( |Next day: { lv_date DATE = (lv_format) } at { lv_time TIME = (lv_format) }| ).
    out->write( |Explicitly raw: { lv_date DATE = RAW }| ).
  ENDMETHOD.
ENDCLASS.

"! Dates and times in string templates: the predefined format (raw digits) and the
"! formatting options DATE = ISO and TIME = ISO, also given dynamically; time stamps
"! converted to date and time in UTC and back.
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
    DATA lv_stamp TYPE timestamp VALUE '20240315143000'.
    CONVERT TIME STAMP lv_stamp TIME ZONE 'UTC' INTO DATE lv_date TIME lv_time.
    out->write( |From a time stamp: { lv_date DATE = ISO } { lv_time TIME = ISO }| ).
    lv_time = lv_time + 90.
    CONVERT DATE lv_date TIME lv_time INTO TIME STAMP lv_stamp TIME ZONE 'UTC'.
    out->write( |Back to a time stamp: { lv_stamp }| ).
  ENDMETHOD.
ENDCLASS.

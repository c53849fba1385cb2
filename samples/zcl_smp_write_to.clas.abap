"! WRITE … TO: amounts, counts and dates formatted into fixed-length text fields for a
"! column layout, with the cutoff rules for fields that are too short.
CLASS zcl_smp_write_to DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_write_to IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_amount TYPE p LENGTH 8 DECIMALS 2 VALUE '-98765.4'.
    DATA lv_count TYPE i VALUE 1234567.
    DATA lv_date TYPE d VALUE '20240229'.
    DATA lv_col14 TYPE c LENGTH 14.
    DATA lv_col8 TYPE c LENGTH 8.
    DATA lv_col5 TYPE c LENGTH 5.
    DATA lv_col10 TYPE c LENGTH 10.

    WRITE lv_amount TO lv_col14.
    out->write( |Amount:     [{ lv_col14 }]| ).
    WRITE lv_count TO lv_col14.
    out->write( |Count:      [{ lv_col14 }]| ).
    WRITE lv_count TO lv_col8.
    out->write( |Narrow:     [{ lv_col8 }]| ).
    WRITE lv_count TO lv_col5.
    out->write( |Too narrow: [{ lv_col5 }]| ).
    WRITE lv_count TO lv_col14 NO-GROUPING LEFT-JUSTIFIED.
    out->write( |Plain:      [{ lv_col14 }]| ).
    WRITE lv_date TO lv_col10.
    out->write( |Date:       [{ lv_col10 }]| ).
    WRITE 'Total' TO lv_col10 RIGHT-JUSTIFIED.
    out->write( |Label:      [{ lv_col10 }]| ).
  ENDMETHOD.

ENDCLASS.

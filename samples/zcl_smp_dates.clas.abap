"! Dates and times: day arithmetic on type d, second arithmetic on type t (wrapping at
"! midnight), the weekday from a day count, invalid dates counting as zero.
CLASS zcl_smp_dates DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

  PRIVATE SECTION.
    METHODS add_days
      IMPORTING iv_date        TYPE d
                iv_days        TYPE i
      RETURNING VALUE(rv_date) TYPE d.
ENDCLASS.



CLASS zcl_smp_dates IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_date TYPE d VALUE '20240227'.
    DATA lv_time TYPE t VALUE '233000'.
    DATA lv_days TYPE i.
    DATA lv_end TYPE d.
    DATA lv_invalid TYPE d VALUE '20240230'.
    DATA lv_never TYPE d.

    DO 3 TIMES.
      lv_date = lv_date + 1.
      out->write( |Day { sy-index }: { lv_date }| ).
    ENDDO.
    lv_end = add_days( iv_date = lv_date iv_days = 365 ).
    out->write( |One year later: { lv_end }| ).
    lv_days = lv_end - lv_date.
    out->write( |Days between: { lv_days }| ).
    DATA(lv_weekday) = ( lv_date - CONV d( '19000101' ) ) MOD 7.
    out->write( |Weekday index (0 = Monday): { lv_weekday }| ).
    lv_time = lv_time + 3600.
    out->write( |An hour later: { lv_time }| ).
    DATA(lv_seconds) = lv_time - CONV t( '000000' ).
    out->write( |Seconds since midnight: { lv_seconds }| ).
    lv_days = lv_invalid.
    out->write( |Invalid date as a number: { lv_days }| ).
    IF lv_never IS INITIAL.
      out->write( |Initial date: { lv_never }| ).
    ENDIF.
    IF lv_end > lv_date.
      out->write( `The end is later` ).
    ENDIF.
  ENDMETHOD.


  METHOD add_days.
    rv_date = iv_date + iv_days.
  ENDMETHOD.
ENDCLASS.

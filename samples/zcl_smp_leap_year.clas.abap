"! Leap year rule with a classrun and ABAP Unit tests (assert_true / assert_false).
CLASS zcl_smp_leap_year DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    METHODS is_leap
      IMPORTING
        iv_year        TYPE i
      RETURNING
        VALUE(rv_leap) TYPE abap_bool.
ENDCLASS.



CLASS zcl_smp_leap_year IMPLEMENTATION.

  METHOD is_leap.
    IF iv_year MOD 400 = 0.
      rv_leap = abap_true.
    ELSEIF iv_year MOD 100 = 0.
      rv_leap = abap_false.
    ELSEIF iv_year MOD 4 = 0.
      rv_leap = abap_true.
    ELSE.
      rv_leap = abap_false.
    ENDIF.
  ENDMETHOD.

ENDCLASS.

"! Constructor expressions COND, SWITCH and CONV.
CLASS zcl_smp_cond_switch DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

  PRIVATE SECTION.
    METHODS grade
      IMPORTING
        iv_points       TYPE i
      RETURNING
        VALUE(rv_grade) TYPE string.
    METHODS weekday
      IMPORTING
        iv_day         TYPE i
      RETURNING
        VALUE(rv_name) TYPE string.
ENDCLASS.



CLASS zcl_smp_cond_switch IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_number TYPE i.
    out->write( |95: { grade( 95 ) }, 75: { grade( 75 ) }, 40: { grade( 40 ) }| ).
    out->write( |1: { weekday( 1 ) }, 6: { weekday( 6 ) }, 9: { weekday( 9 ) }| ).
    lv_number = CONV i( '41' ) + 1.
    out->write( |CONV: { lv_number }| ).
    DATA(lv_text) = CONV string( lv_number ).
    out->write( |As text: [{ lv_text }]| ).
  ENDMETHOD.

  METHOD grade.
    rv_grade = COND #( WHEN iv_points >= 90 THEN `A`
                       WHEN iv_points >= 70 THEN `B`
                       WHEN iv_points >= 50 THEN `C`
                       ELSE `F` ).
  ENDMETHOD.

  METHOD weekday.
    rv_name = SWITCH #( iv_day
                        WHEN 1 THEN `Monday`
                        WHEN 2 THEN `Tuesday`
                        WHEN 6 THEN `Weekend`
                        WHEN 7 THEN `Weekend`
                        ELSE `unknown` ).
  ENDMETHOD.

ENDCLASS.

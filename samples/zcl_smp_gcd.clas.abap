"! Greatest common divisor (Euclid) as a static method, called for several pairs.
CLASS zcl_smp_gcd DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    CLASS-METHODS gcd
      IMPORTING
        iv_a          TYPE i
        iv_b          TYPE i
      RETURNING
        VALUE(rv_gcd) TYPE i.
ENDCLASS.



CLASS zcl_smp_gcd IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    out->write( |gcd(48, 18) = { gcd( iv_a = 48 iv_b = 18 ) }| ).
    out->write( |gcd(17, 5) = { gcd( iv_a = 17 iv_b = 5 ) }| ).
    out->write( |gcd(100, 75) = { gcd( iv_a = 100 iv_b = 75 ) }| ).
  ENDMETHOD.

  METHOD gcd.
    DATA lv_a TYPE i.
    DATA lv_b TYPE i.
    DATA lv_rest TYPE i.
    lv_a = iv_a.
    lv_b = iv_b.
    WHILE lv_b <> 0.
      lv_rest = lv_a MOD lv_b.
      lv_a = lv_b.
      lv_b = lv_rest.
    ENDWHILE.
    rv_gcd = lv_a.
  ENDMETHOD.

ENDCLASS.

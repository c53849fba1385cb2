"! Prime numbers below 50: nested WHILE loops, EXIT-free flag logic.
CLASS zcl_smp_primes DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

ENDCLASS.



CLASS zcl_smp_primes IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_candidate TYPE i VALUE 2.
    DATA lv_divisor TYPE i.
    DATA lv_is_prime TYPE abap_bool.
    DATA lv_primes TYPE string.
    WHILE lv_candidate < 50.
      lv_is_prime = abap_true.
      lv_divisor = 2.
      WHILE lv_divisor * lv_divisor <= lv_candidate AND lv_is_prime = abap_true.
        IF lv_candidate MOD lv_divisor = 0.
          lv_is_prime = abap_false.
        ENDIF.
        lv_divisor = lv_divisor + 1.
      ENDWHILE.
      IF lv_is_prime = abap_true.
        lv_primes = |{ lv_primes } { lv_candidate }|.
      ENDIF.
      lv_candidate = lv_candidate + 1.
    ENDWHILE.
    out->write( |Primes:{ lv_primes }| ).
  ENDMETHOD.

ENDCLASS.

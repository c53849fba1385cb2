"! Classic exceptions of a function module: RAISE and MESSAGE … RAISING set sy-subrc in the
"! caller (by name and through OTHERS), error_message catches a type E message; values passed
"! by reference keep what the module wrote before the exception, values passed by value do not.
CLASS zcl_smp_fm_exceptions DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_fm_exceptions IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_quotient TYPE i VALUE 99.
    DATA lv_steps TYPE i.

    CALL FUNCTION 'Z_SMP_FG_DIVIDE'
      EXPORTING
        iv_dividend      = 7
        iv_divisor       = 2
      IMPORTING
        ev_quotient      = lv_quotient
        ev_steps         = lv_steps
      EXCEPTIONS
        division_by_zero = 1
        negative         = 2
        OTHERS           = 3.
    out->write( |7 / 2: subrc { sy-subrc } quotient { lv_quotient } steps { lv_steps }| ).

    lv_quotient = 99.
    CALL FUNCTION 'Z_SMP_FG_DIVIDE'
      EXPORTING
        iv_dividend      = 7
        iv_divisor       = 0
      IMPORTING
        ev_quotient      = lv_quotient
        ev_steps         = lv_steps
      EXCEPTIONS
        division_by_zero = 1
        negative         = 2
        OTHERS           = 3.
    out->write( |7 / 0: subrc { sy-subrc } quotient { lv_quotient } steps { lv_steps }| ).

    CALL FUNCTION 'Z_SMP_FG_DIVIDE'
      EXPORTING
        iv_dividend = 7
        iv_divisor  = 0
      EXCEPTIONS
        negative    = 2
        OTHERS      = 3.
    out->write( |7 / 0 with OTHERS: subrc { sy-subrc }| ).

    CALL FUNCTION 'Z_SMP_FG_DIVIDE'
      EXPORTING
        iv_dividend      = -5
        iv_divisor       = 1
      IMPORTING
        ev_steps         = lv_steps
      EXCEPTIONS
        division_by_zero = 1
        negative         = 2.
    out->write( |-5 / 1: subrc { sy-subrc } steps { lv_steps } message { sy-msgty } { sy-msgid } { sy-msgno } { sy-msgv1 }| ).

    CALL FUNCTION 'Z_SMP_FG_DIVIDE'
      EXPORTING
        iv_dividend   = 5000
        iv_divisor    = 1
      IMPORTING
        ev_quotient   = lv_quotient
        ev_steps      = lv_steps
      EXCEPTIONS
        error_message = 4
        OTHERS        = 5.
    out->write( |5000 / 1: subrc { sy-subrc } quotient { lv_quotient } steps { lv_steps } message { sy-msgty } { sy-msgv1 }| ).

    CALL FUNCTION 'Z_SMP_FG_DIVIDE'
      EXPORTING
        iv_dividend = 8
        iv_divisor  = 4
      IMPORTING
        ev_quotient = lv_quotient
      EXCEPTIONS
        OTHERS      = 1.
    out->write( |8 / 4: subrc { sy-subrc } quotient { lv_quotient }| ).
  ENDMETHOD.

ENDCLASS.

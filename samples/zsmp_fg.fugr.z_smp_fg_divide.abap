FUNCTION z_smp_fg_divide.
*"----------------------------------------------------------------------
*"*"Local Interface:
*"  IMPORTING
*"     VALUE(IV_DIVIDEND) TYPE  I
*"     VALUE(IV_DIVISOR) TYPE  I
*"  EXPORTING
*"     VALUE(EV_QUOTIENT) TYPE  I
*"     REFERENCE(EV_STEPS) TYPE  I
*"  EXCEPTIONS
*"      DIVISION_BY_ZERO
*"      NEGATIVE
*"----------------------------------------------------------------------
  ev_steps = 1.
  ev_quotient = -1.
  IF iv_divisor = 0.
    RAISE division_by_zero.
  ENDIF.
  ev_steps = 2.
  IF iv_dividend < 0.
    DATA(lv_dividend) = |{ iv_dividend }|.
    MESSAGE e001(zsmp) WITH lv_dividend RAISING negative.
  ENDIF.
  IF iv_dividend > 1000.
    MESSAGE 'Dividend too large' TYPE 'E'.
  ENDIF.
  ev_quotient = iv_dividend DIV iv_divisor.
  ev_steps = 3.
ENDFUNCTION.

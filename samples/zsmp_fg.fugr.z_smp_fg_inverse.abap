FUNCTION z_smp_fg_inverse.
*"----------------------------------------------------------------------
*"*"Local Interface:
*"  IMPORTING
*"     VALUE(IV_VALUE) TYPE  I
*"  EXPORTING
*"     VALUE(EV_RESULT) TYPE  I
*"  RAISING
*"      CX_SY_ZERODIVIDE
*"----------------------------------------------------------------------
  ev_result = 100 / iv_value.
ENDFUNCTION.

FUNCTION z_smp_fg_add.
*"----------------------------------------------------------------------
*"*"Local Interface:
*"  IMPORTING
*"     VALUE(IV_A) TYPE  I
*"     VALUE(IV_B) TYPE  I DEFAULT 10
*"  EXPORTING
*"     VALUE(EV_SUM) TYPE  I
*"     REFERENCE(EV_TEXT) TYPE  STRING
*"  TABLES
*"      T_LOG OPTIONAL
*"  CHANGING
*"     VALUE(CV_CALLS) TYPE  I OPTIONAL
*"----------------------------------------------------------------------
  ev_sum = iv_a + iv_b.
  ev_text = |{ iv_a } + { iv_b } = { ev_sum }|.
  IF cv_calls IS SUPPLIED.
    cv_calls = cv_calls + 1.
  ENDIF.
  IF t_log IS SUPPLIED.
    APPEND ev_text TO t_log.
  ENDIF.
ENDFUNCTION.

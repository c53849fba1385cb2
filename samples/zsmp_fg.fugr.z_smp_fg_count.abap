FUNCTION z_smp_fg_count.
*"----------------------------------------------------------------------
*"*"Local Interface:
*"  IMPORTING
*"     VALUE(IV_NOTE) TYPE  STRING
*"  EXPORTING
*"     VALUE(EV_COUNT) TYPE  I
*"     VALUE(EV_HISTORY) TYPE  STRING
*"----------------------------------------------------------------------
  gv_calls = gv_calls + 1.
  PERFORM remember USING iv_note.
  ev_count = gv_calls.
  ev_history = lcl_format=>bracket( concat_lines_of( table = gt_history sep = `,` ) ).
ENDFUNCTION.

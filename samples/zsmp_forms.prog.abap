*&---------------------------------------------------------------------*
*& Report ZSMP_FORMS: subroutines with USING and CHANGING parameters.
*&---------------------------------------------------------------------*
REPORT zsmp_forms.

DATA gv_total TYPE i.
DATA gv_text TYPE string.

START-OF-SELECTION.
  PERFORM add USING 5 CHANGING gv_total.
  PERFORM add USING 7 CHANGING gv_total.
  PERFORM describe USING gv_total CHANGING gv_text.
  WRITE / gv_text.
  PERFORM banner.

FORM add USING iv_value TYPE i CHANGING cv_sum TYPE i.
  cv_sum = cv_sum + iv_value.
ENDFORM.

FORM describe USING iv_value TYPE i CHANGING cv_text TYPE string.
  IF iv_value > 10.
    cv_text = |Total { iv_value } is large|.
  ELSE.
    cv_text = |Total { iv_value } is small|.
  ENDIF.
ENDFORM.

FORM banner.
  WRITE / '*** done ***'.
ENDFORM.

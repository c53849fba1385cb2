*&---------------------------------------------------------------------*
*& Report ZSMP_BY_REFERENCE: FORM parameters without VALUE( ) are the
*& actual data objects; with VALUE( ) they are copies.
*&---------------------------------------------------------------------*
REPORT zsmp_by_reference.

DATA gv_balance TYPE i VALUE 100.

START-OF-SELECTION.
  PERFORM book USING 30 CHANGING gv_balance.
  WRITE / |after book: { gv_balance }|.
  PERFORM book_copy USING 20 CHANGING gv_balance.
  WRITE / |after book_copy: { gv_balance }|.

FORM book USING iv_amount TYPE i CHANGING cv_balance TYPE i.
  cv_balance = cv_balance - iv_amount.
  WRITE / |in book: global { gv_balance }|.
ENDFORM.

FORM book_copy USING iv_amount TYPE i CHANGING VALUE(cv_balance) TYPE i.
  cv_balance = cv_balance - iv_amount.
  WRITE / |in book_copy: global { gv_balance }|.
ENDFORM.

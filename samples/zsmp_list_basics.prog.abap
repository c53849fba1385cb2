*&---------------------------------------------------------------------*
*& Report ZSMP_LIST_BASICS: WRITE, SKIP, NEW-LINE and ULINE.
*&---------------------------------------------------------------------*
REPORT zsmp_list_basics.

DATA gv_count TYPE i VALUE 3.

START-OF-SELECTION.
  WRITE 'List basics'.
  SKIP.
  WRITE / |Count: { gv_count }|.
  NEW-LINE.
  WRITE 'first'.
  WRITE 'second'.
  ULINE.
  WRITE / 'end'.

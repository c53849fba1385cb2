*&---------------------------------------------------------------------*
*& Report ZSMP_MULTIPLICATION: nested DO loops write a small table.
*&---------------------------------------------------------------------*
REPORT zsmp_multiplication.

DATA gv_row TYPE i.
DATA gv_line TYPE string.

START-OF-SELECTION.
  DO 4 TIMES.
    gv_row = sy-index.
    CLEAR gv_line.
    DO 4 TIMES.
      gv_line = |{ gv_line }{ gv_row * sy-index } |.
    ENDDO.
    WRITE / gv_line.
  ENDDO.

*&---------------------------------------------------------------------*
*& Report ZSMP_HEADER_LINES: internal tables with header lines, the way
*& legacy reports declare and fill them (OCCURS, WITH HEADER LINE).
*&---------------------------------------------------------------------*
REPORT zsmp_header_lines.

TYPES: BEGIN OF ty_sale,
         region TYPE c LENGTH 5,
         amount TYPE i,
       END OF ty_sale.

DATA: BEGIN OF gt_sales OCCURS 0,
        region TYPE c LENGTH 5,
        amount TYPE i,
      END OF gt_sales.
DATA gt_totals TYPE ty_sale OCCURS 0 WITH HEADER LINE.
DATA gv_lines TYPE i.

START-OF-SELECTION.
  gt_sales-region = 'NORTH'. gt_sales-amount = 10. APPEND gt_sales.
  gt_sales-region = 'SOUTH'. gt_sales-amount = 7. APPEND gt_sales.
  gt_sales-region = 'NORTH'. gt_sales-amount = 5. APPEND gt_sales.
  gt_sales-region = 'EAST'. gt_sales-amount = 1. APPEND gt_sales.

  LOOP AT gt_sales.
    gt_totals = gt_sales.
    COLLECT gt_totals.
  ENDLOOP.
  SORT gt_totals BY amount DESCENDING.
  LOOP AT gt_totals.
    WRITE: / |{ sy-tabix }. { gt_totals-region } { gt_totals-amount }|.
  ENDLOOP.

  READ TABLE gt_totals WITH KEY region = 'SOUTH'.
  IF sy-subrc = 0.
    WRITE: / |SOUTH is row { sy-tabix } with { gt_totals-amount }|.
  ENDIF.

  LOOP AT gt_sales WHERE region = 'NORTH'.
    gt_sales-amount = gt_sales-amount * 2.
    MODIFY gt_sales.
  ENDLOOP.
  DESCRIBE TABLE gt_sales LINES gv_lines.
  WRITE: / |{ gv_lines } sales, the first now { gt_sales[ 1 ]-amount }|.

  CLEAR gt_sales.
  WRITE: / |header cleared: { gt_sales-region }{ gt_sales-amount }, { lines( gt_sales[] ) } rows kept|.
  CLEAR gt_sales[].
  WRITE: / |body cleared: { lines( gt_sales[] ) } rows|.

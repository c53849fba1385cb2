*& Open SQL in a report: SELECT … ENDSELECT in the old syntax into a global work area, the
*& list written per row, sy-dbcnt after the loop.
REPORT zsmp_sql_report.

DATA: gs_order TYPE zsmp_orders,
      gv_sum   TYPE p LENGTH 10 DECIMALS 2.

START-OF-SELECTION.
  SELECT * FROM zsmp_orders INTO gs_order WHERE currency = 'EUR' ORDER BY order_id.
    WRITE / |{ gs_order-order_id } { gs_order-customer } { gs_order-total }|.
    gv_sum = gv_sum + gs_order-total.
  ENDSELECT.
  ULINE.
  WRITE / |Orders in EUR: { sy-dbcnt }, together { gv_sum }|.

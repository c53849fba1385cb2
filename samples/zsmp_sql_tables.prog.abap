*& The table work areas of a classic report: TABLES declares a structure named like each
*& table, and SELECT without INTO (SELECT SINGLE *, and SELECT * … ENDSELECT) reads into it.
REPORT zsmp_sql_tables.

TABLES: zsmp_orders, zsmp_stock.

DATA gv_units TYPE i.

START-OF-SELECTION.
  SELECT SINGLE * FROM zsmp_orders WHERE order_id = '0003'.
  WRITE / |single: { sy-subrc } { sy-dbcnt } { zsmp_orders-customer } { zsmp_orders-total } { zsmp_orders-currency }|.

  " Not found: the work area keeps the row read before.
  SELECT SINGLE * FROM zsmp_orders WHERE order_id = '0042'.
  WRITE / |none: { sy-subrc } { sy-dbcnt } { zsmp_orders-order_id }|.

  SELECT * FROM zsmp_orders WHERE status = 'C' ORDER BY order_id.
    WRITE / |{ sy-dbcnt }: { zsmp_orders-order_id } { zsmp_orders-customer }|.
  ENDSELECT.
  WRITE / |after the loop: { sy-subrc } { sy-dbcnt }|.

  SELECT * FROM zsmp_stock ORDER BY on_hand DESCENDING.
    gv_units = gv_units + zsmp_stock-on_hand.
  ENDSELECT.
  WRITE / |stock: { sy-dbcnt } products, { gv_units } units, last { zsmp_stock-product }|.

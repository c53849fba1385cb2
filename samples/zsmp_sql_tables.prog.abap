*& The table work areas of a classic report: TABLES declares a structure named like each
*& table, SELECT without INTO (SELECT SINGLE *, and SELECT * … ENDSELECT) reads into it, and
*& INSERT/UPDATE/DELETE without FROM write from it.
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

  " The work area also feeds the short forms of the writes; ROLLBACK WORK leaves the table
  " as its data file has it.
  CLEAR zsmp_stock.
  zsmp_stock-product = 'GEAR'.
  zsmp_stock-on_hand = 5.
  zsmp_stock-location = 'C1'.
  INSERT zsmp_stock.
  WRITE / |insert: { sy-subrc } { sy-dbcnt }|.
  zsmp_stock-on_hand = 6.
  UPDATE zsmp_stock.
  WRITE / |update: { sy-subrc } { sy-dbcnt }|.
  CLEAR zsmp_stock.
  SELECT SINGLE * FROM zsmp_stock WHERE product = 'GEAR'.
  WRITE / |read back: { zsmp_stock-product } { zsmp_stock-on_hand } { zsmp_stock-location }|.
  DELETE zsmp_stock.
  WRITE / |delete: { sy-subrc } { sy-dbcnt }|.
  ROLLBACK WORK.

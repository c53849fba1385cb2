"! Open SQL aggregates and joins on ZSMP_ORDERS and ZSMP_ITEMS: GROUP BY with HAVING, COUNT,
"! COUNT( DISTINCT ), SUM (exact, in the column's decimals), MIN, MAX, AVG, INNER JOIN and
"! LEFT OUTER JOIN with IS NULL.
CLASS zcl_smp_sql_aggregate DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

ENDCLASS.



CLASS zcl_smp_sql_aggregate IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    " Per customer with more than one order: count, sum and the latest date.
    SELECT customer, COUNT( * ) AS orders, SUM( total ) AS total, MAX( order_date ) AS latest
      FROM zsmp_orders
      GROUP BY customer
      HAVING COUNT( * ) > 1
      ORDER BY customer
      INTO TABLE @DATA(lt_by_customer).
    out->write( |groups: { sy-dbcnt }| ).
    LOOP AT lt_by_customer INTO DATA(ls_customer).
      out->write( |- { ls_customer-customer } { ls_customer-orders } { ls_customer-total } { ls_customer-latest }| ).
    ENDLOOP.

    " Only aggregates and no GROUP BY: one row.
    SELECT COUNT( DISTINCT customer ) AS customers, MIN( total ) AS smallest, AVG( total ) AS average
      FROM zsmp_orders
      INTO @DATA(ls_stats).
    DATA lv_average TYPE p LENGTH 8 DECIMALS 2.
    lv_average = ls_stats-average.
    out->write( |stats: { ls_stats-customers } { ls_stats-smallest } { lv_average }| ).

    " Units per product, the biggest first.
    SELECT product, SUM( quantity ) AS units
      FROM zsmp_items
      GROUP BY product
      ORDER BY units DESCENDING
      INTO TABLE @DATA(lt_units).
    LOOP AT lt_units INTO DATA(ls_units).
      out->write( |units { ls_units-product }: { ls_units-units }| ).
    ENDLOOP.

    " INNER JOIN: the items of open orders.
    SELECT o~order_id, o~customer, i~product, i~quantity
      FROM zsmp_orders AS o INNER JOIN zsmp_items AS i ON i~order_id = o~order_id
      WHERE o~status = 'O'
      ORDER BY o~order_id, i~item_no
      INTO TABLE @DATA(lt_join).
    out->write( |join: { sy-dbcnt }| ).
    LOOP AT lt_join INTO DATA(ls_join).
      out->write( |- { ls_join-order_id } { ls_join-customer } { ls_join-product } { ls_join-quantity }| ).
    ENDLOOP.

    " LEFT OUTER JOIN: orders without items (their item columns are null).
    SELECT o~order_id, i~product
      FROM zsmp_orders AS o LEFT OUTER JOIN zsmp_items AS i ON i~order_id = o~order_id
      WHERE i~product IS NULL
      ORDER BY o~order_id
      INTO TABLE @DATA(lt_without).
    DATA(lv_text) = ``.
    LOOP AT lt_without INTO DATA(ls_without).
      lv_text = |{ lv_text } { ls_without-order_id }[{ ls_without-product }]|.
    ENDLOOP.
    out->write( |without items:{ lv_text }| ).
  ENDMETHOD.

ENDCLASS.

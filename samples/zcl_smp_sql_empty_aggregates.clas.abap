"! SELECTs of only aggregates that match no row of ZSMP_ORDERS: the one result row still
"! comes (COUNT 0, every other aggregate initial), with sy-subrc 0 and sy-dbcnt 1, except
"! COUNT( * ) alone and without an alias: 4 and 0.
CLASS zcl_smp_sql_empty_aggregates DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

ENDCLASS.



CLASS zcl_smp_sql_empty_aggregates IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    SELECT COUNT( * ) FROM zsmp_orders WHERE customer = 'NOBODY' INTO @DATA(lv_count).
    out->write( |count alone: { lv_count } { sy-subrc } { sy-dbcnt }| ).

    lv_count = 99.
    SELECT SINGLE COUNT( * ) FROM zsmp_orders WHERE customer = 'NOBODY' INTO @lv_count.
    out->write( |single count alone: { lv_count } { sy-subrc } { sy-dbcnt }| ).

    SELECT COUNT( * ) FROM zsmp_orders WHERE status = 'X'.
    out->write( |without target: { sy-subrc } { sy-dbcnt }| ).

    SELECT COUNT( * ) AS orders FROM zsmp_orders WHERE customer = 'NOBODY' INTO @lv_count.
    out->write( |count with alias: { lv_count } { sy-subrc } { sy-dbcnt }| ).

    " The row is assigned: a target that held a value gets its initial value.
    DATA lv_max TYPE p LENGTH 8 DECIMALS 2 VALUE '5.00'.
    SELECT SINGLE MAX( total ) FROM zsmp_orders WHERE customer = 'NOBODY' INTO @lv_max.
    out->write( |max: { lv_max } { sy-subrc } { sy-dbcnt }| ).

    SELECT COUNT( * ) AS orders, SUM( total ) AS total, MIN( order_date ) AS first
      FROM zsmp_orders
      WHERE status = 'X'
      INTO @DATA(ls_none).
    out->write( |several: { ls_none-orders } { ls_none-total } { ls_none-first } { sy-subrc } { sy-dbcnt }| ).

    " For comparison, over rows.
    SELECT COUNT( * ) AS orders, SUM( total ) AS total
      FROM zsmp_orders
      WHERE customer = 'ACME'
      INTO @DATA(ls_acme).
    out->write( |acme: { ls_acme-orders } { ls_acme-total } { sy-subrc } { sy-dbcnt }| ).
  ENDMETHOD.

ENDCLASS.

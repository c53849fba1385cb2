"! Open SQL and function modules together: a module reads a customer's orders into a TABLES
"! parameter (a classic exception when there are none), the class joins and aggregates orders
"! and items, a module writes stock (classic exceptions for unknown products and short stock),
"! and the changes are rolled back at the end.
CLASS zcl_smp_fm_sql DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    TYPES tt_orders TYPE STANDARD TABLE OF zsmp_orders WITH EMPTY KEY.

  PRIVATE SECTION.
    METHODS book
      IMPORTING out        TYPE REF TO if_oo_adt_classrun_out
                iv_product TYPE zsmp_stock-product
                iv_units   TYPE i.
ENDCLASS.



CLASS zcl_smp_fm_sql IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lt_orders TYPE tt_orders.
    DATA lv_total TYPE zsmp_orders-total.

    CALL FUNCTION 'Z_SMP_FG_ORDERS'
      EXPORTING
        iv_customer = 'ACME'
      IMPORTING
        ev_total    = lv_total
      TABLES
        t_orders    = lt_orders
      EXCEPTIONS
        not_found   = 1.
    out->write( |ACME: subrc { sy-subrc } orders { lines( lt_orders ) } total { lv_total }| ).
    LOOP AT lt_orders INTO DATA(ls_order).
      out->write( |- { ls_order-order_id } { ls_order-order_date } { ls_order-total } { ls_order-currency }| ).
    ENDLOOP.

    CALL FUNCTION 'Z_SMP_FG_ORDERS'
      EXPORTING
        iv_customer = 'NOBODY'
      TABLES
        t_orders    = lt_orders
      EXCEPTIONS
        not_found   = 1.
    out->write( |NOBODY: subrc { sy-subrc } orders { lines( lt_orders ) }| ).

    " Units ordered per customer: a join of orders and items, grouped.
    SELECT o~customer, SUM( i~quantity ) AS units, COUNT( * ) AS items
      FROM zsmp_orders AS o INNER JOIN zsmp_items AS i ON i~order_id = o~order_id
      GROUP BY o~customer
      ORDER BY o~customer
      INTO TABLE @DATA(lt_units).
    LOOP AT lt_units INTO DATA(ls_units).
      out->write( |units { ls_units-customer }: { ls_units-units } in { ls_units-items } items| ).
    ENDLOOP.

    book( out = out iv_product = 'BOLT' iv_units = 20 ).
    book( out = out iv_product = 'SCREW' iv_units = 50 ).
    book( out = out iv_product = 'NAIL' iv_units = 1 ).

    SELECT SINGLE on_hand FROM zsmp_stock WHERE product = 'BOLT' INTO @DATA(lv_bolts).
    out->write( |bolts before the rollback: { lv_bolts }| ).
    ROLLBACK WORK.
    SELECT SINGLE on_hand FROM zsmp_stock WHERE product = 'BOLT' INTO @lv_bolts.
    out->write( |bolts after the rollback: { lv_bolts }| ).
  ENDMETHOD.


  METHOD book.
    DATA lv_left TYPE i.
    CALL FUNCTION 'Z_SMP_FG_BOOK_STOCK'
      EXPORTING
        iv_product      = iv_product
        iv_quantity     = iv_units
      IMPORTING
        ev_on_hand      = lv_left
      EXCEPTIONS
        unknown_product = 1
        not_enough      = 2.
    out->write( |book { iv_units } { iv_product }: subrc { sy-subrc } left { lv_left }| ).
  ENDMETHOD.

ENDCLASS.

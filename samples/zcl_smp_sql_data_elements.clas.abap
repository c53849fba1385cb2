"! Data declared with the dictionary's data elements: ZSMP_ORDER_NO (domain ZSMP_ORDER_NO,
"! NUMC 4), ZSMP_AMOUNT (CURR 15,2 of its own) and ZSMP_CUSTOMER_ID (domain, CHAR 10), alone,
"! in a structure, as RANGE OF and TABLE OF, filled by assignments and by SELECT.
CLASS zcl_smp_sql_data_elements DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES: BEGIN OF ty_order,
             order_no TYPE zsmp_order_no,
             customer TYPE zsmp_customer_id,
             amount   TYPE zsmp_amount,
           END OF ty_order.

ENDCLASS.



CLASS zcl_smp_sql_data_elements IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    " Each element's type: NUMC pads with zeros, CURR rounds to two decimals, CHAR 10 cuts.
    DATA lv_no TYPE zsmp_order_no.
    DATA lv_amount TYPE zsmp_amount.
    DATA lv_customer TYPE zsmp_customer_id.
    lv_no = 7.
    lv_amount = '12.345'.
    lv_customer = 'ABCDEFGHIJKL'.
    out->write( |elementary: { lv_no } { lv_amount } { lv_customer }| ).

    " A range of order numbers and a structure of elements as the rows of INTO TABLE.
    DATA lt_numbers TYPE RANGE OF zsmp_order_no.
    lt_numbers = VALUE #( ( sign = 'I' option = 'BT' low = 2 high = 4 ) ).
    DATA lt_orders TYPE STANDARD TABLE OF ty_order WITH EMPTY KEY.
    SELECT order_id, customer, total
      FROM zsmp_orders
      WHERE order_id IN @lt_numbers
      ORDER BY order_id
      INTO TABLE @lt_orders.
    out->write( |range { lt_numbers[ 1 ]-low }-{ lt_numbers[ 1 ]-high }: { sy-dbcnt }| ).
    LOOP AT lt_orders INTO DATA(ls_order).
      out->write( |- { ls_order-order_no } { ls_order-customer } { ls_order-amount }| ).
    ENDLOOP.

    " A table of a data element.
    DATA lt_customers TYPE STANDARD TABLE OF zsmp_customer_id WITH EMPTY KEY.
    SELECT DISTINCT customer
      FROM zsmp_orders
      ORDER BY customer
      INTO TABLE @lt_customers.
    out->write( |customers: { lines( lt_customers ) }, first { lt_customers[ 1 ] }| ).

    " SELECT SINGLE into a variable of the element.
    SELECT SINGLE total FROM zsmp_orders WHERE order_id = @lv_no INTO @lv_amount.
    out->write( |order { lv_no }: { sy-subrc } { lv_amount }| ).
    lv_no = 4.
    SELECT SINGLE total FROM zsmp_orders WHERE order_id = @lv_no INTO @lv_amount.
    out->write( |order { lv_no }: { sy-subrc } { lv_amount }| ).
  ENDMETHOD.

ENDCLASS.

"! Statistics over a table of orders that is passed to methods as an IMPORTING parameter:
"! loops, reads, grouping and REDUCE over a write-protected table.
CLASS zcl_smp_order_stats DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    TYPES:
      BEGIN OF ty_order,
        id       TYPE i,
        customer TYPE string,
        amount   TYPE p LENGTH 8 DECIMALS 2,
      END OF ty_order,
      tt_orders TYPE STANDARD TABLE OF ty_order WITH EMPTY KEY.
    METHODS total
      IMPORTING it_orders     TYPE tt_orders
      RETURNING VALUE(rv_sum) TYPE ty_order-amount.
    METHODS largest
      IMPORTING it_orders       TYPE tt_orders
      RETURNING VALUE(rs_order) TYPE ty_order.
    METHODS per_customer
      IMPORTING it_orders     TYPE tt_orders
      RETURNING VALUE(rt_out) TYPE string_table.
ENDCLASS.



CLASS zcl_smp_order_stats IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lt_orders) = VALUE tt_orders(
      ( id = 1 customer = `ACME`   amount = '100.50' )
      ( id = 2 customer = `Globex` amount = '20.00' )
      ( id = 3 customer = `ACME`   amount = '5.25' )
      ( id = 4 customer = `Initech` amount = '42.00' ) ).
    out->write( |total: { total( lt_orders ) }| ).
    DATA(ls_largest) = largest( lt_orders ).
    out->write( |largest: #{ ls_largest-id } { ls_largest-customer }| ).
    DATA(lt_lines) = per_customer( lt_orders ).
    LOOP AT lt_lines INTO DATA(lv_line).
      out->write( lv_line ).
    ENDLOOP.
    out->write( |orders: { lines( lt_orders ) }| ).
  ENDMETHOD.

  METHOD total.
    LOOP AT it_orders INTO DATA(ls_order).
      rv_sum = rv_sum + ls_order-amount.
    ENDLOOP.
  ENDMETHOD.

  METHOD largest.
    LOOP AT it_orders ASSIGNING FIELD-SYMBOL(<ls_order>).
      IF sy-tabix = 1 OR <ls_order>-amount > rs_order-amount.
        rs_order = <ls_order>.
      ENDIF.
    ENDLOOP.
  ENDMETHOD.

  METHOD per_customer.
    LOOP AT it_orders INTO DATA(ls_order)
         GROUP BY ls_order-customer ASCENDING INTO DATA(lv_customer).
      DATA(lv_sum) = REDUCE ty_order-amount(
        INIT s = CONV ty_order-amount( 0 )
        FOR ls_member IN GROUP lv_customer
        NEXT s = s + ls_member-amount ).
      APPEND |{ lv_customer }: { lv_sum }| TO rt_out.
    ENDLOOP.
  ENDMETHOD.

ENDCLASS.

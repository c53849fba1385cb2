FUNCTION z_smp_fg_orders.
*"----------------------------------------------------------------------
*"*"Local Interface:
*"  IMPORTING
*"     VALUE(IV_CUSTOMER) TYPE  ZSMP_ORDERS-CUSTOMER
*"  EXPORTING
*"     VALUE(EV_TOTAL) TYPE  ZSMP_ORDERS-TOTAL
*"  TABLES
*"      T_ORDERS STRUCTURE  ZSMP_ORDERS
*"  EXCEPTIONS
*"      NOT_FOUND
*"----------------------------------------------------------------------
  SELECT * FROM zsmp_orders
    WHERE customer = @iv_customer
    ORDER BY order_id
    INTO TABLE @t_orders.
  IF sy-subrc <> 0.
    RAISE not_found.
  ENDIF.
  LOOP AT t_orders INTO DATA(ls_order).
    ev_total = ev_total + ls_order-total.
  ENDLOOP.
ENDFUNCTION.

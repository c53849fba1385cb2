"! Open SQL reads on the sample tables ZSMP_ORDERS and ZSMP_ITEMS: SELECT SINGLE, INTO TABLE,
"! SELECT … ENDSELECT, the WHERE forms, ORDER BY, UP TO / OFFSET, FIELDS, FOR ALL ENTRIES,
"! CORRESPONDING FIELDS, APPENDING, the old syntax, client handling, sy-subrc and sy-dbcnt.
CLASS zcl_smp_sql_select DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES: BEGIN OF ty_short,
             order_id TYPE n LENGTH 4,
             total    TYPE p LENGTH 8 DECIMALS 2,
           END OF ty_short,
           tt_short TYPE STANDARD TABLE OF ty_short WITH EMPTY KEY,
           tt_orders TYPE STANDARD TABLE OF zsmp_orders WITH EMPTY KEY.

ENDCLASS.



CLASS zcl_smp_sql_select IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    " SELECT SINGLE with a host variable: the row found, then one that is not there.
    DATA lv_id TYPE zsmp_orders-order_id VALUE '0003'.
    SELECT SINGLE * FROM zsmp_orders WHERE order_id = @lv_id INTO @DATA(ls_order).
    out->write( |single: { sy-subrc } { sy-dbcnt } { ls_order-customer } { ls_order-order_date } { ls_order-total } { ls_order-currency }| ).
    SELECT SINGLE customer FROM zsmp_orders WHERE order_id = '0099' INTO @DATA(lv_customer).
    out->write( |missing: { sy-subrc } { sy-dbcnt } [{ lv_customer }]| ).

    " INTO TABLE, a condition with AND, OR and NOT, ORDER BY … DESCENDING.
    SELECT order_id, customer, total FROM zsmp_orders
      WHERE ( currency = 'EUR' AND total > 10 ) OR NOT status = 'O'
      ORDER BY total DESCENDING
      INTO TABLE @DATA(lt_orders).
    out->write( |table: { sy-subrc } { sy-dbcnt }| ).
    LOOP AT lt_orders INTO DATA(ls_row).
      out->write( |- { ls_row-order_id } { ls_row-customer } { ls_row-total }| ).
    ENDLOOP.

    " SELECT … ENDSELECT: the body runs once per row; sy-dbcnt counts the rows so far.
    DATA ls_item TYPE zsmp_items.
    SELECT * FROM zsmp_items INTO @ls_item WHERE product = 'BOLT' ORDER BY PRIMARY KEY.
      out->write( |loop { sy-dbcnt }: { ls_item-order_id }/{ ls_item-item_no } { ls_item-quantity }| ).
    ENDSELECT.
    out->write( |after loop: { sy-subrc } { sy-dbcnt }| ).

    " The old syntax: no @, INTO before WHERE.
    DATA lv_total TYPE zsmp_orders-total.
    SELECT SINGLE total FROM zsmp_orders INTO lv_total WHERE order_id = lv_id.
    out->write( |old syntax: { lv_total }| ).

    " A ranges table, BETWEEN, LIKE and an IN list.
    DATA lr_date TYPE RANGE OF d.
    lr_date = VALUE #( ( sign = 'I' option = 'BT' low = '20240101' high = '20240229' ) ).
    SELECT order_id FROM zsmp_orders WHERE order_date IN @lr_date ORDER BY order_id INTO TABLE @DATA(lt_ids).
    DATA(lv_text) = ``.
    LOOP AT lt_ids INTO DATA(ls_id).
      lv_text = |{ lv_text } { ls_id-order_id }|.
    ENDLOOP.
    out->write( |range:{ lv_text }| ).
    SELECT order_id FROM zsmp_orders WHERE total BETWEEN 20 AND 100 ORDER BY order_id INTO TABLE @lt_ids.
    lv_text = ``.
    LOOP AT lt_ids INTO ls_id.
      lv_text = |{ lv_text } { ls_id-order_id }|.
    ENDLOOP.
    out->write( |between:{ lv_text }| ).
    SELECT order_id FROM zsmp_orders WHERE customer LIKE 'A%' AND currency IN ( 'USD', 'CHF' ) INTO TABLE @lt_ids.
    lv_text = ``.
    LOOP AT lt_ids INTO ls_id.
      lv_text = |{ lv_text } { ls_id-order_id }|.
    ENDLOOP.
    out->write( |like:{ lv_text }| ).

    " UP TO n ROWS and OFFSET.
    SELECT order_id FROM zsmp_orders ORDER BY total DESCENDING INTO TABLE @lt_ids UP TO 2 ROWS.
    lv_text = ``.
    LOOP AT lt_ids INTO ls_id.
      lv_text = |{ lv_text } { ls_id-order_id }|.
    ENDLOOP.
    out->write( |top two:{ lv_text }| ).
    SELECT order_id FROM zsmp_orders ORDER BY order_id INTO TABLE @lt_ids UP TO 2 ROWS OFFSET 1.
    lv_text = ``.
    LOOP AT lt_ids INTO ls_id.
      lv_text = |{ lv_text } { ls_id-order_id }|.
    ENDLOOP.
    out->write( |page two:{ lv_text }| ).

    " The strict form with FIELDS.
    SELECT SINGLE FROM zsmp_orders FIELDS customer, order_date WHERE order_id = '0005' INTO @DATA(ls_fields).
    out->write( |fields: { ls_fields-customer } { ls_fields-order_date }| ).

    " COUNT( * ) without a target: the count is sy-dbcnt.
    SELECT COUNT( * ) FROM zsmp_orders WHERE status = 'O'.
    out->write( |count: { sy-subrc } { sy-dbcnt }| ).

    " FOR ALL ENTRIES: duplicates in the driver table give no duplicate rows.
    DATA lt_keys TYPE tt_short.
    lt_keys = VALUE #( ( order_id = '0001' ) ( order_id = '0004' ) ( order_id = '0001' ) ).
    SELECT order_id, item_no, product FROM zsmp_items FOR ALL ENTRIES IN @lt_keys
      WHERE order_id = @lt_keys-order_id
      INTO TABLE @DATA(lt_items).
    SORT lt_items BY order_id item_no.
    out->write( |for all entries: { sy-dbcnt }| ).
    LOOP AT lt_items INTO DATA(ls_fae).
      out->write( |- { ls_fae-order_id }/{ ls_fae-item_no } { ls_fae-product }| ).
    ENDLOOP.

    " INTO CORRESPONDING FIELDS OF TABLE, then APPENDING.
    DATA lt_short TYPE tt_short.
    SELECT * FROM zsmp_orders WHERE customer = 'ACME' ORDER BY order_id
      INTO CORRESPONDING FIELDS OF TABLE @lt_short.
    SELECT * FROM zsmp_orders WHERE customer = 'GAMMA'
      APPENDING CORRESPONDING FIELDS OF TABLE @lt_short.
    out->write( |appending: { sy-dbcnt } of { lines( lt_short ) }| ).
    LOOP AT lt_short INTO DATA(ls_short).
      out->write( |- { ls_short-order_id } { ls_short-total }| ).
    ENDLOOP.

    " Another client's rows: USING CLIENT, CLIENT SPECIFIED.
    SELECT SINGLE customer FROM zsmp_orders USING CLIENT '002' WHERE order_id = '0001' INTO @DATA(lv_other).
    out->write( |client 002: { lv_other }| ).
    SELECT COUNT( * ) FROM zsmp_orders CLIENT SPECIFIED WHERE order_id = '0001'.
    out->write( |every client: { sy-dbcnt }| ).

    " Into a table of the dictionary structure.
    DATA lt_open TYPE tt_orders.
    SELECT * FROM zsmp_orders WHERE status = 'O' ORDER BY order_id INTO TABLE @lt_open.
    out->write( |open orders: { lines( lt_open ) }| ).

    " A dictionary structure as the line type.
    DATA lt_info TYPE STANDARD TABLE OF zsmp_s_order_info WITH EMPTY KEY.
    SELECT order_id, customer, total FROM zsmp_orders WHERE currency = 'USD'
      INTO CORRESPONDING FIELDS OF TABLE @lt_info.
    LOOP AT lt_info INTO DATA(ls_info).
      out->write( |structure: { ls_info-order_id } { ls_info-customer } { ls_info-total }| ).
    ENDLOOP.
  ENDMETHOD.

ENDCLASS.

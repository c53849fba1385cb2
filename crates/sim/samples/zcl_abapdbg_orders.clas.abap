"! Sample with an internal table: 300 order items with columns of most elementary types, a
"! structure with a nested table, dates, times, bytes. The Nushell plugin's examples stop in it.
CLASS zcl_abapdbg_orders DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES: BEGIN OF ty_item,
             id       TYPE i,
             amount   TYPE p LENGTH 8 DECIMALS 2,
             customer TYPE c LENGTH 10,
             due      TYPE d,
             at       TYPE t,
             code     TYPE n LENGTH 6,
             note     TYPE string,
             flags    TYPE x LENGTH 2,
             big      TYPE int8,
             ratio    TYPE f,
           END OF ty_item,
           tt_items TYPE STANDARD TABLE OF ty_item WITH EMPTY KEY,
           tt_words TYPE STANDARD TABLE OF string WITH EMPTY KEY,
           BEGIN OF ty_order,
             number TYPE n LENGTH 4,
             placed TYPE d,
             words  TYPE tt_words,
           END OF ty_order.

ENDCLASS.



CLASS zcl_abapdbg_orders IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lt_items TYPE tt_items.
    DATA ls_item TYPE ty_item.
    DATA ls_order TYPE ty_order.
    DATA lv_count TYPE i.
    DATA lv_day TYPE d VALUE '20261124'.
    DATA lv_none TYPE d.
    DATA lv_time TYPE t VALUE '134501'.
    DATA lv_name TYPE c LENGTH 12 VALUE 'ACME'.
    DATA lv_text TYPE string VALUE `Pens and pads`.
    DATA lv_hex TYPE xstring.
    DATA lv_rate TYPE p LENGTH 8 DECIMALS 2 VALUE '-12.50'.

    lv_hex = 'CAFE01'.
    DO 300 TIMES.
      ls_item-id = sy-index.
      ls_item-amount = sy-index * '1.25'.
      ls_item-customer = |C{ sy-index MOD 7 }|.
      ls_item-due = lv_day + sy-index.
      ls_item-at = lv_time.
      ls_item-code = sy-index.
      ls_item-note = |item { sy-index }|.
      ls_item-flags = 'BEEF'.
      ls_item-big = sy-index * 10000000000.
      ls_item-ratio = sy-index / 4.
      APPEND ls_item TO lt_items.
    ENDDO.
    ls_order-number = 42.
    ls_order-placed = lv_day.
    ls_order-words = VALUE #( ( `alpha` ) ( `beta` ) ).
    lv_count = lines( lt_items ).
    out->write( |{ lv_count } items for { lv_name }| ).
    lv_count = lv_count + 1.
    out->write( |done { lv_count }| ).
  ENDMETHOD.

ENDCLASS.

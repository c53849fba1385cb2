"! COLLECT: rows with the same key are summed up in their numeric components.
CLASS zcl_smp_collect DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES: BEGIN OF ty_sale,
             region TYPE c LENGTH 5,
             item   TYPE string,
             units  TYPE i,
             amount TYPE p LENGTH 10 DECIMALS 2,
           END OF ty_sale,
           tt_sales TYPE STANDARD TABLE OF ty_sale WITH DEFAULT KEY,
           BEGIN OF ty_total,
             region TYPE c LENGTH 5,
             units  TYPE i,
             amount TYPE p LENGTH 10 DECIMALS 2,
           END OF ty_total,
           tt_totals TYPE SORTED TABLE OF ty_total WITH UNIQUE KEY region.

ENDCLASS.



CLASS zcl_smp_collect IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lt_sales) = VALUE tt_sales(
      ( region = 'NORTH' item = `tea`    units = 3 amount = '7.50' )
      ( region = 'SOUTH' item = `coffee` units = 1 amount = '3.20' )
      ( region = 'NORTH' item = `coffee` units = 2 amount = '6.40' )
      ( region = 'EAST'  item = `tea`    units = 5 amount = '12.50' )
      ( region = 'NORTH' item = `tea`    units = 1 amount = '2.50' ) ).

    " Key of the standard table: region and item (the character-like components).
    DATA lt_by_item TYPE tt_sales.
    LOOP AT lt_sales INTO DATA(ls_sale).
      COLLECT ls_sale INTO lt_by_item.
      out->write( |{ ls_sale-region } { ls_sale-item } -> row { sy-tabix }| ).
    ENDLOOP.
    LOOP AT lt_by_item INTO ls_sale.
      out->write( |{ ls_sale-region } { ls_sale-item }: { ls_sale-units } units, { ls_sale-amount }| ).
    ENDLOOP.

    " Sorted target: new keys go to their sorted position.
    DATA lt_totals TYPE tt_totals.
    LOOP AT lt_sales INTO ls_sale.
      COLLECT VALUE ty_total( region = ls_sale-region
                              units  = ls_sale-units
                              amount = ls_sale-amount ) INTO lt_totals.
    ENDLOOP.
    LOOP AT lt_totals INTO DATA(ls_total).
      out->write( |{ ls_total-region }: { ls_total-units } units, { ls_total-amount }| ).
    ENDLOOP.
  ENDMETHOD.

ENDCLASS.

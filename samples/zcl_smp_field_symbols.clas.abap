"! Field symbols alias what they are assigned to: variables, components, table rows,
"! attributes; IS ASSIGNED, UNASSIGN and sy-subrc of ASSIGN with a table expression.
CLASS zcl_smp_field_symbols DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

  PRIVATE SECTION.
    TYPES: BEGIN OF ty_item,
             id    TYPE i,
             name  TYPE string,
             price TYPE p LENGTH 8 DECIMALS 2,
           END OF ty_item,
           ty_items TYPE STANDARD TABLE OF ty_item WITH EMPTY KEY.
    DATA mv_calls TYPE i.
ENDCLASS.



CLASS zcl_smp_field_symbols IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_count TYPE i VALUE 10.
    FIELD-SYMBOLS <lv_int> TYPE i.
    FIELD-SYMBOLS <lv_any> TYPE any.

    ASSIGN lv_count TO <lv_int>.
    <lv_int> = <lv_int> + 5.
    out->write( |count { lv_count }| ).
    lv_count = 1.
    out->write( |through the field symbol { <lv_int> }| ).

    DATA(ls_item) = VALUE ty_item( id = 1 name = `pen` price = '1.50' ).
    ASSIGN ls_item-name TO <lv_any>.
    <lv_any> = `pencil`.
    out->write( |item { ls_item-id } { ls_item-name } { ls_item-price }| ).

    DATA(lt_items) = VALUE ty_items( ( id = 1 name = `pen` price = '1.50' )
                                     ( id = 2 name = `ink` price = '4.00' )
                                     ( id = 3 name = `pad` price = '2.25' ) ).
    LOOP AT lt_items ASSIGNING FIELD-SYMBOL(<ls_item>).
      <ls_item>-price = <ls_item>-price * 2.
    ENDLOOP.
    ASSIGN lt_items[ 2 ] TO FIELD-SYMBOL(<ls_second>).
    out->write( |row 2 found: { sy-subrc }| ).
    <ls_second>-name = `INK`.
    ASSIGN <ls_second>-price TO <lv_any>.
    <lv_any> = <lv_any> + 1.
    LOOP AT lt_items INTO DATA(ls_row).
      out->write( |{ ls_row-id } { ls_row-name } { ls_row-price }| ).
    ENDLOOP.

    ASSIGN lt_items[ name = `pad` ] TO <ls_second>.
    out->write( |pad is row id { <ls_second>-id }| ).
    ASSIGN lt_items[ 7 ] TO <ls_second>.
    out->write( |row 7 found: { sy-subrc }, still { <ls_second>-name }| ).

    ASSIGN mv_calls TO <lv_int>.
    DO 3 TIMES.
      <lv_int> = <lv_int> + 1.
    ENDDO.
    out->write( |attribute { mv_calls }| ).

    IF <lv_any> IS ASSIGNED.
      out->write( `assigned` ).
    ENDIF.
    UNASSIGN <lv_any>.
    IF <lv_any> IS NOT ASSIGNED.
      out->write( `unassigned` ).
    ENDIF.
  ENDMETHOD.

ENDCLASS.

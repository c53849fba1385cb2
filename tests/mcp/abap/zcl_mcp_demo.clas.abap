"! Fixture of the MCP tests (tests/mcp.rs): 300 rows with a customer of seven, a text of
"! about 1,900 characters, and a call three deep (OUTER -> MIDDLE -> INNER) whose result the
"! output shows. Expected values in tests/mcp/mcp.test.mjs.
CLASS zcl_mcp_demo DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES: BEGIN OF ty_item,
             id       TYPE i,
             amount   TYPE p LENGTH 8 DECIMALS 2,
             customer TYPE c LENGTH 10,
             note     TYPE string,
           END OF ty_item,
           tt_items TYPE STANDARD TABLE OF ty_item WITH EMPTY KEY.

  PRIVATE SECTION.
    METHODS outer IMPORTING iv_depth TYPE i RETURNING VALUE(rv_total) TYPE i.
    METHODS middle IMPORTING iv_depth TYPE i RETURNING VALUE(rv_total) TYPE i.
    METHODS inner IMPORTING iv_depth TYPE i RETURNING VALUE(rv_total) TYPE i.
ENDCLASS.



CLASS zcl_mcp_demo IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lt_items TYPE tt_items.
    DATA ls_item TYPE ty_item.
    DATA lv_count TYPE i.
    DATA lv_long TYPE string.

    DO 300 TIMES.
      ls_item-id = sy-index.
      ls_item-amount = sy-index * '1.25'.
      ls_item-customer = |C{ sy-index MOD 7 }|.
      ls_item-note = |item { sy-index }|.
      APPEND ls_item TO lt_items.
    ENDDO.
    DO 60 TIMES.
      lv_long = lv_long && |line { sy-index } of a long text. |.
    ENDDO.
    lv_count = lines( lt_items ).
    out->write( |{ lv_count } items| ).
    lv_count = lv_count + 1.
    out->write( |total { outer( 1 ) }| ).
    out->write( |done { lv_count }| ).
  ENDMETHOD.

  METHOD outer.
    rv_total = middle( iv_depth + 1 ) + 1.
  ENDMETHOD.

  METHOD middle.
    rv_total = inner( iv_depth + 1 ) + 10.
  ENDMETHOD.

  METHOD inner.
    DATA lv_here TYPE i.
    lv_here = iv_depth * 100.
    rv_total = lv_here.
  ENDMETHOD.

ENDCLASS.

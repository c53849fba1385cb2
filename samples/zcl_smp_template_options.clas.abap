"! String template formatting options: WIDTH with ALIGN and PAD, CASE, DECIMALS, SIGN,
"! NUMBER = USER (the simulated user formats 1,234.50), ZERO and ALPHA.
CLASS zcl_smp_template_options DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_template_options IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_name TYPE string VALUE `abap`.
    DATA lv_count TYPE i VALUE 42.
    DATA lv_amount TYPE p LENGTH 10 DECIMALS 2 VALUE '-1234567.5'.
    DATA lv_zero TYPE i.
    DATA lv_customer TYPE c LENGTH 10 VALUE '4711'.
    DATA lv_material TYPE c LENGTH 10 VALUE '0000000815'.

    out->write( |left:   [{ lv_name WIDTH = 8 }]| ).
    out->write( |right:  [{ lv_name WIDTH = 8 ALIGN = RIGHT }]| ).
    out->write( |center: [{ lv_name WIDTH = 8 ALIGN = CENTER PAD = '*' }]| ).
    out->write( |narrow: [{ lv_name WIDTH = 2 }]| ).
    out->write( |zeros:  [{ lv_count WIDTH = 6 ALIGN = RIGHT PAD = '0' }]| ).
    out->write( |case:   { lv_name CASE = UPPER } { `MiXeD` CASE = LOWER }| ).
    out->write( |decimals: { lv_count DECIMALS = 2 } { lv_amount DECIMALS = 0 }| ).
    out->write( |number: { lv_amount NUMBER = USER } { lv_amount NUMBER = RAW }| ).
    out->write( |sign: { lv_count SIGN = LEFTPLUS } { lv_amount SIGN = RIGHT } { lv_count SIGN = RIGHTPLUS }| ).
    out->write( |zero: [{ lv_zero ZERO = NO }] [{ lv_zero ZERO = YES }]| ).
    out->write( |alpha: [{ lv_customer ALPHA = IN }] [{ lv_material ALPHA = OUT }]| ).
  ENDMETHOD.
ENDCLASS.

"! Console application: the smallest classrun, text literals and a string template.
CLASS zcl_smp_hello DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_hello IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_name TYPE string VALUE `ABAP`.
    out->write( `Hello, world` ).
    out->write( |Hello, { lv_name }!| ).
    out->write( 'Text literal in quotes' ).
  ENDMETHOD.

ENDCLASS.

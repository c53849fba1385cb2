"! MESSAGE statements in a classrun: text messages and message classes with placeholders.
CLASS zcl_smp_messages DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

ENDCLASS.



CLASS zcl_smp_messages IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_order TYPE c LENGTH 6 VALUE `A-4711`.
    out->write( `Checking order` ).
    MESSAGE |Order { lv_order } checked| TYPE `S`.
    MESSAGE w010(zsmp) WITH lv_order `late`.
    out->write( `Done` ).
  ENDMETHOD.

ENDCLASS.

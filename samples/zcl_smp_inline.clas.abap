"! Inline declarations DATA( ) for numbers, strings and object references.
CLASS zcl_smp_inline DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

ENDCLASS.



CLASS zcl_smp_inline IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lv_count) = 3.
    DATA(lv_label) = `items`.
    DATA(lv_total) = lv_count * 7.
    out->write( |{ lv_count } { lv_label } cost { lv_total }| ).
    DATA(lo_self) = me.
    IF lo_self IS BOUND.
      out->write( `me is bound` ).
    ENDIF.
    DATA(lv_message) = |{ lv_label } counted: { lv_count }|.
    out->write( lv_message ).
  ENDMETHOD.

ENDCLASS.

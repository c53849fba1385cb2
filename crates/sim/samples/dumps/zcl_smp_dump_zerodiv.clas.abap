"! Divides by zero outside any TRY: the run ends with COMPUTE_INT_ZERODIVIDE (class-based,
"! CX_SY_ZERODIVIDE, not caught), a short dump.
CLASS zcl_smp_dump_zerodiv DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    METHODS share
      IMPORTING
        iv_total        TYPE i
        iv_parts        TYPE i
      RETURNING
        VALUE(rv_share) TYPE i.
ENDCLASS.



CLASS zcl_smp_dump_zerodiv IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lv_parts) = 0.
    out->write( |Sharing 100 among { lv_parts }| ).
    DATA(lv_share) = share( iv_total = 100 iv_parts = lv_parts ).
    out->write( |Share: { lv_share }| ).
  ENDMETHOD.

  METHOD share.
    DATA(lv_rest) = iv_total.
    rv_share = lv_rest / iv_parts.
  ENDMETHOD.

ENDCLASS.

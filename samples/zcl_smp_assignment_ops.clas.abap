"! The assignment operators += -= *= /= &&=: each calculates with its target and converts the
"! result to the target's type.
CLASS zcl_smp_assignment_ops DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_assignment_ops IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_count TYPE i VALUE 5.
    DATA lv_price TYPE p LENGTH 8 DECIMALS 2 VALUE '1.50'.
    DATA lv_code TYPE n LENGTH 4 VALUE '0012'.
    DATA lv_text TYPE string VALUE `ab`.
    DATA lv_short TYPE c LENGTH 4 VALUE 'ab'.
    DATA lv_zero TYPE i.

    lv_count += 3.
    lv_count -= 1.
    lv_count *= 3.
    out->write( |count { lv_count }| ).
    lv_count /= 5.
    out->write( |count / 5 = { lv_count }| ).
    lv_price /= 4.
    out->write( |price / 4 = { lv_price }| ).
    lv_code += 5.
    out->write( |code { lv_code }| ).
    lv_text &&= `cd`.
    lv_short &&= 'xyz'.
    out->write( |{ lv_text } { lv_short }| ).
    TRY.
        lv_count /= lv_zero.
      CATCH cx_sy_zerodivide INTO DATA(lx_zero).
        out->write( |{ lx_zero->get_text( ) }, count stays { lv_count }| ).
    ENDTRY.
  ENDMETHOD.
ENDCLASS.

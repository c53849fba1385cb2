"! A function module with class-based exceptions (RAISING in its interface): the exception
"! leaves the module and is caught by the caller's TRY; the by-value output keeps its value.
CLASS zcl_smp_fm_class_exception DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_fm_class_exception IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_result TYPE i.
    TRY.
        CALL FUNCTION 'Z_SMP_FG_INVERSE'
          EXPORTING
            iv_value  = 4
          IMPORTING
            ev_result = lv_result.
        out->write( |100 / 4 = { lv_result }| ).
        CALL FUNCTION 'Z_SMP_FG_INVERSE'
          EXPORTING
            iv_value  = 0
          IMPORTING
            ev_result = lv_result.
        out->write( `not reached` ).
      CATCH cx_sy_zerodivide INTO DATA(lx_error).
        out->write( |caught: { lx_error->get_text( ) }; result still { lv_result }| ).
    ENDTRY.
  ENDMETHOD.

ENDCLASS.

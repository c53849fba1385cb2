"! The global data of a function group lives as long as the program that loaded the group:
"! each call of Z_SMP_FG_COUNT sees what the earlier calls left, also across calls of other
"! modules of the group. The module calls a FORM and a local class of its group.
CLASS zcl_smp_fm_globals DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_fm_globals IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_count TYPE i.
    DATA lv_history TYPE string.
    DATA lv_sum TYPE i.

    CALL FUNCTION 'Z_SMP_FG_COUNT'
      EXPORTING
        iv_note    = `first`
      IMPORTING
        ev_count   = lv_count
        ev_history = lv_history.
    out->write( |{ lv_count } { lv_history }| ).

    CALL FUNCTION 'Z_SMP_FG_ADD'
      EXPORTING
        iv_a   = 1
      IMPORTING
        ev_sum = lv_sum.

    CALL FUNCTION 'Z_SMP_FG_COUNT'
      EXPORTING
        iv_note    = `second`
      IMPORTING
        ev_count   = lv_count
        ev_history = lv_history.
    out->write( |{ lv_count } { lv_history }| ).
  ENDMETHOD.

ENDCLASS.

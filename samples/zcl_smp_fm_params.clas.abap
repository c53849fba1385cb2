"! CALL FUNCTION with every kind of parameter: EXPORTING (a default for an optional one),
"! IMPORTING (by value and by reference), CHANGING, TABLES, IS SUPPLIED in the module, the
"! module's name in a variable and an expression as an actual parameter.
CLASS zcl_smp_fm_params DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_fm_params IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_sum TYPE i.
    DATA lv_text TYPE string.
    DATA lv_calls TYPE i.
    DATA lt_log TYPE STANDARD TABLE OF string WITH EMPTY KEY.

    CALL FUNCTION 'Z_SMP_FG_ADD'
      EXPORTING
        iv_a     = 1
        iv_b     = 2
      IMPORTING
        ev_sum   = lv_sum
        ev_text  = lv_text
      TABLES
        t_log    = lt_log
      CHANGING
        cv_calls = lv_calls.
    out->write( |{ lv_text }: sum { lv_sum } calls { lv_calls } subrc { sy-subrc }| ).

    " IV_B takes its default; no TABLES parameter this time.
    DATA(lv_name) = `Z_SMP_FG_ADD`.
    CALL FUNCTION lv_name
      EXPORTING
        iv_a     = 5
      IMPORTING
        ev_sum   = lv_sum
      CHANGING
        cv_calls = lv_calls.
    out->write( |default: sum { lv_sum } calls { lv_calls } log { lines( lt_log ) }| ).

    " An expression as the actual parameter; CV_CALLS not supplied.
    CALL FUNCTION 'Z_SMP_FG_ADD'
      EXPORTING
        iv_a    = lv_sum * 2
        iv_b    = 1
      IMPORTING
        ev_text = lv_text
      TABLES
        t_log   = lt_log.
    out->write( |expression: { lv_text } calls { lv_calls }| ).
    LOOP AT lt_log INTO DATA(lv_line).
      out->write( |log { sy-tabix }: { lv_line }| ).
    ENDLOOP.
  ENDMETHOD.

ENDCLASS.

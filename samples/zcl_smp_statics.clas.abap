"! STATICS keep their value between calls; structured constants group related values.
CLASS zcl_smp_statics DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    CONSTANTS:
      BEGIN OF c_level,
        low    TYPE i VALUE 10,
        high   TYPE i VALUE 100,
        suffix TYPE string VALUE ` units`,
      END OF c_level.

  PRIVATE SECTION.
    METHODS next_ticket
      RETURNING
        VALUE(rv_ticket) TYPE string.
    METHODS classify
      IMPORTING
        iv_amount      TYPE i
      RETURNING
        VALUE(rv_text) TYPE string.
ENDCLASS.



CLASS zcl_smp_statics IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lo_second) = NEW zcl_smp_statics( ).
    out->write( next_ticket( ) ).
    out->write( next_ticket( ) ).
    out->write( lo_second->next_ticket( ) ).
    out->write( classify( 5 ) ).
    out->write( classify( 50 ) ).
    out->write( classify( 500 ) ).
  ENDMETHOD.

  METHOD next_ticket.
    STATICS sv_number TYPE i VALUE 100.
    sv_number = sv_number + 1.
    rv_ticket = |Ticket { sv_number }|.
  ENDMETHOD.

  METHOD classify.
    CONSTANTS: BEGIN OF lc_label,
                 small  TYPE string VALUE `small`,
                 medium TYPE string VALUE `medium`,
                 large  TYPE string VALUE `large`,
               END OF lc_label.
    IF iv_amount < c_level-low.
      rv_text = lc_label-small.
    ELSEIF iv_amount < zcl_smp_statics=>c_level-high.
      rv_text = lc_label-medium.
    ELSE.
      rv_text = lc_label-large.
    ENDIF.
    rv_text = |{ iv_amount }{ c_level-suffix }: { rv_text }|.
  ENDMETHOD.

ENDCLASS.

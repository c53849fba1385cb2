"! Field symbols and data references to table rows follow their row when rows are inserted,
"! deleted or sorted, and lose it when it is deleted; a LOOP goes on after its deleted row.
CLASS zcl_smp_row_references DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    TYPES:
      BEGIN OF ty_task,
        prio  TYPE i,
        title TYPE string,
      END OF ty_task,
      tt_tasks TYPE STANDARD TABLE OF ty_task WITH EMPTY KEY.
ENDCLASS.



CLASS zcl_smp_row_references IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lt_tasks) = VALUE tt_tasks( ( prio = 2 title = `write tests` )
                                     ( prio = 1 title = `fix bug` )
                                     ( prio = 3 title = `refactor` ) ).
    READ TABLE lt_tasks ASSIGNING FIELD-SYMBOL(<ls_bug>) WITH KEY title = `fix bug`.
    DATA(lr_refactor) = REF #( lt_tasks[ 3 ] ).

    INSERT VALUE #( prio = 0 title = `coffee` ) INTO lt_tasks INDEX 1.
    out->write( |after insert: { <ls_bug>-title } / { lr_refactor->title }| ).

    SORT lt_tasks BY prio DESCENDING.
    <ls_bug>-prio = 9.
    out->write( |after sort: row { line_index( lt_tasks[ prio = 9 ] ) } is { lt_tasks[ 3 ]-title }| ).

    DELETE lt_tasks WHERE title = `refactor`.
    out->write( |after delete: { xsdbool( <ls_bug> IS ASSIGNED ) }{ xsdbool( lr_refactor IS BOUND ) }| ).
    out->write( |bug task: { <ls_bug>-prio } { <ls_bug>-title }| ).

    DELETE lt_tasks INDEX line_index( lt_tasks[ title = `fix bug` ] ).
    IF <ls_bug> IS NOT ASSIGNED.
      out->write( `the bug task is gone` ).
    ENDIF.

    " The loop goes on with the row after its current row when that row is deleted.
    APPEND VALUE #( prio = 5 title = `review` ) TO lt_tasks.
    DATA(lv_seen) = ``.
    LOOP AT lt_tasks ASSIGNING FIELD-SYMBOL(<ls_task>).
      lv_seen = |{ lv_seen }[{ sy-tabix }:{ <ls_task>-title }]|.
      IF <ls_task>-prio = 0.
        DELETE lt_tasks.
      ENDIF.
    ENDLOOP.
    out->write( lv_seen ).
  ENDMETHOD.

ENDCLASS.

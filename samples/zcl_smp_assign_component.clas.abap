"! ASSIGN COMPONENT by name and by position walks a structure generically; missing
"! components leave sy-subrc 4. Dynamic ASSIGN (name) finds variables by their name.
CLASS zcl_smp_assign_component DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

ENDCLASS.



CLASS zcl_smp_assign_component IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    TYPES: BEGIN OF ty_person,
             first TYPE c LENGTH 10,
             last  TYPE string,
             age   TYPE i,
           END OF ty_person.
    DATA ls_person TYPE ty_person.
    FIELD-SYMBOLS <lv_comp> TYPE any.

    ASSIGN COMPONENT 'FIRST' OF STRUCTURE ls_person TO <lv_comp>.
    <lv_comp> = 'Ada'.
    ASSIGN COMPONENT `LAST` OF STRUCTURE ls_person TO <lv_comp>.
    <lv_comp> = `Lovelace`.
    ASSIGN COMPONENT 3 OF STRUCTURE ls_person TO <lv_comp>.
    <lv_comp> = 36.
    out->write( |{ ls_person-first } { ls_person-last } { ls_person-age }| ).

    DATA lv_index TYPE i.
    DO.
      lv_index = sy-index.
      ASSIGN COMPONENT lv_index OF STRUCTURE ls_person TO <lv_comp>.
      IF sy-subrc <> 0.
        EXIT.
      ENDIF.
      out->write( |component { lv_index }: { <lv_comp> }| ).
    ENDDO.
    out->write( |stopped at { lv_index } with sy-subrc { sy-subrc }| ).

    ASSIGN COMPONENT 'EMAIL' OF STRUCTURE ls_person TO <lv_comp>.
    out->write( |EMAIL: { sy-subrc }| ).

    DATA lv_total TYPE i VALUE 100.
    DATA lv_name TYPE string VALUE `LV_TOTAL`.
    ASSIGN (lv_name) TO FIELD-SYMBOL(<lv_dyn>).
    out->write( |dynamic { lv_name }: { sy-subrc }| ).
    <lv_dyn> = <lv_dyn> / 4.
    out->write( |total { lv_total }| ).
    ASSIGN ('LV_MISSING') TO <lv_dyn>.
    out->write( |dynamic LV_MISSING: { sy-subrc }| ).
  ENDMETHOD.

ENDCLASS.

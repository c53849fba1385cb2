"! CORRESPONDING for structures and tables (MAPPING, EXCEPT, BASE), CAST and the ?= down cast
"! with CX_SY_MOVE_CAST_ERROR.
CLASS zcl_smp_corresponding DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES: BEGIN OF ty_employee,
             id     TYPE i,
             name   TYPE string,
             salary TYPE p LENGTH 8 DECIMALS 2,
             dept   TYPE c LENGTH 4,
           END OF ty_employee,
           tt_employees TYPE STANDARD TABLE OF ty_employee WITH EMPTY KEY,
           BEGIN OF ty_badge,
             id    TYPE i,
             label TYPE string,
             dept  TYPE c LENGTH 4,
             color TYPE c LENGTH 5,
           END OF ty_badge,
           tt_badges TYPE STANDARD TABLE OF ty_badge WITH EMPTY KEY.

ENDCLASS.



CLASS zcl_smp_corresponding IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(ls_emp) = VALUE ty_employee( id = 7 name = `Kim` salary = '4200.00' dept = 'SALE' ).

    DATA ls_badge TYPE ty_badge.
    ls_badge = CORRESPONDING #( ls_emp ).
    out->write( |{ ls_badge-id } [{ ls_badge-label }] { ls_badge-dept }| ).

    ls_badge = CORRESPONDING #( ls_emp MAPPING label = name EXCEPT dept ).
    out->write( |{ ls_badge-id } [{ ls_badge-label }] [{ ls_badge-dept }]| ).

    DATA(ls_template) = VALUE ty_badge( color = 'BLUE' dept = 'NONE' ).
    ls_badge = CORRESPONDING #( BASE ( ls_template ) ls_emp MAPPING label = name ).
    out->write( |{ ls_badge-id } { ls_badge-label } { ls_badge-dept } { ls_badge-color }| ).

    DATA(lt_emps) = VALUE tt_employees(
      ( id = 1 name = `Ann` dept = 'HR' )
      ( id = 2 name = `Bob` dept = 'IT' ) ).
    DATA(lt_badges) = CORRESPONDING tt_badges( lt_emps MAPPING label = name ).
    LOOP AT lt_badges INTO ls_badge.
      out->write( |{ ls_badge-id }: { ls_badge-label } ({ ls_badge-dept })| ).
    ENDLOOP.

    " Down casts of object references.
    DATA lo_object TYPE REF TO object.
    DATA lo_root TYPE REF TO cx_root.
    lo_object = NEW cx_sy_zerodivide( ).
    lo_root ?= lo_object.
    IF lo_root IS BOUND.
      out->write( `cast to cx_root worked` ).
    ENDIF.
    TRY.
        DATA(lo_conv) = CAST cx_sy_conversion_error( lo_object ).
        out->write( `unexpected` ).
      CATCH cx_sy_move_cast_error.
        out->write( `cx_sy_zerodivide is no conversion error` ).
    ENDTRY.
  ENDMETHOD.

ENDCLASS.

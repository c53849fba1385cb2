"! Data for the debugger's view: a flat structure, tables, a static attribute and an object
"! whose attributes come from two classes.
CLASS zcl_smp_debug_view DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES:
      BEGIN OF ty_item,
        id  TYPE c LENGTH 4,
        qty TYPE i,
      END OF ty_item.
    TYPES ty_items TYPE STANDARD TABLE OF ty_item WITH EMPTY KEY.

    CLASS-DATA gv_runs TYPE i.
ENDCLASS.



CLASS zcl_smp_debug_view IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA ls_item TYPE ty_item.
    DATA lt_items TYPE ty_items.
    DATA lt_empty TYPE ty_items.
    DATA lo_animal TYPE REF TO lcl_animal.

    gv_runs = gv_runs + 1.
    ls_item-id = 'A001'.
    ls_item-qty = 3.
    APPEND ls_item TO lt_items.
    ls_item-id = 'B002'.
    ls_item-qty = -2.
    APPEND ls_item TO lt_items.
    lo_animal = NEW lcl_dog( `Rex` ).
    out->write( |{ lines( lt_items ) } items, { lines( lt_empty ) } empty, run { gv_runs }| ).
    out->write( lo_animal->describe( ) ).
  ENDMETHOD.

ENDCLASS.

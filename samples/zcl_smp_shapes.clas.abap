"! Polymorphism through a global interface implemented by local classes.
CLASS zcl_smp_shapes DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

  PRIVATE SECTION.
    METHODS describe
      IMPORTING
        io_shape       TYPE REF TO zif_smp_shape
      RETURNING
        VALUE(rv_text) TYPE string.
ENDCLASS.



CLASS zcl_smp_shapes IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    out->write( describe( NEW lcl_square( 3 ) ) ).
    out->write( describe( NEW lcl_rectangle( iv_width = 2 iv_height = 5 ) ) ).
    out->write( describe( NEW lcl_triangle( iv_base = 4 iv_height = 3 ) ) ).
  ENDMETHOD.

  METHOD describe.
    rv_text = |{ io_shape->name( ) }: { io_shape->area( ) } square { zif_smp_shape=>c_unit }|.
  ENDMETHOD.

ENDCLASS.

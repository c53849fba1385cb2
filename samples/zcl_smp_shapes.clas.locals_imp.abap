CLASS lcl_rectangle DEFINITION.
  PUBLIC SECTION.
    INTERFACES zif_smp_shape.
    METHODS constructor
      IMPORTING
        iv_width  TYPE i
        iv_height TYPE i.
  PROTECTED SECTION.
    DATA mv_width TYPE i.
    DATA mv_height TYPE i.
ENDCLASS.

CLASS lcl_rectangle IMPLEMENTATION.
  METHOD constructor.
    mv_width = iv_width.
    mv_height = iv_height.
  ENDMETHOD.

  METHOD zif_smp_shape~area.
    rv_area = mv_width * mv_height.
  ENDMETHOD.

  METHOD zif_smp_shape~name.
    rv_name = |Rectangle { mv_width }x{ mv_height }|.
  ENDMETHOD.
ENDCLASS.

CLASS lcl_square DEFINITION INHERITING FROM lcl_rectangle.
  PUBLIC SECTION.
    METHODS constructor
      IMPORTING
        iv_side TYPE i.
    METHODS zif_smp_shape~name REDEFINITION.
ENDCLASS.

CLASS lcl_square IMPLEMENTATION.
  METHOD constructor.
    super->constructor( iv_width = iv_side iv_height = iv_side ).
  ENDMETHOD.

  METHOD zif_smp_shape~name.
    rv_name = |Square { mv_width }|.
  ENDMETHOD.
ENDCLASS.

CLASS lcl_triangle DEFINITION.
  PUBLIC SECTION.
    INTERFACES zif_smp_shape.
    METHODS constructor
      IMPORTING
        iv_base   TYPE i
        iv_height TYPE i.
  PRIVATE SECTION.
    DATA mv_base TYPE i.
    DATA mv_height TYPE i.
ENDCLASS.

CLASS lcl_triangle IMPLEMENTATION.
  METHOD constructor.
    mv_base = iv_base.
    mv_height = iv_height.
  ENDMETHOD.

  METHOD zif_smp_shape~area.
    rv_area = mv_base * mv_height / 2.
  ENDMETHOD.

  METHOD zif_smp_shape~name.
    rv_name = `Triangle`.
  ENDMETHOD.
ENDCLASS.

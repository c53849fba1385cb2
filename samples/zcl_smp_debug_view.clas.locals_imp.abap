CLASS lcl_animal DEFINITION.
  PUBLIC SECTION.
    METHODS constructor
      IMPORTING
        iv_name TYPE string.
    METHODS describe
      RETURNING
        VALUE(rv_text) TYPE string.
  PROTECTED SECTION.
    DATA mv_name TYPE string.
  PRIVATE SECTION.
    DATA mv_legs TYPE i VALUE 4.
ENDCLASS.

CLASS lcl_animal IMPLEMENTATION.
  METHOD constructor.
    mv_name = iv_name.
  ENDMETHOD.

  METHOD describe.
    rv_text = |{ mv_name } has { mv_legs } legs|.
  ENDMETHOD.
ENDCLASS.

CLASS lcl_dog DEFINITION INHERITING FROM lcl_animal.
  PUBLIC SECTION.
    METHODS describe REDEFINITION.
    DATA mv_good TYPE c LENGTH 1 VALUE abap_true.
ENDCLASS.

CLASS lcl_dog IMPLEMENTATION.
  METHOD describe.
    rv_text = |Dog { super->describe( ) }|.
  ENDMETHOD.
ENDCLASS.

CLASS lcl_animal DEFINITION ABSTRACT.
  PUBLIC SECTION.
    METHODS constructor
      IMPORTING
        iv_name TYPE string.
    METHODS introduce
      RETURNING
        VALUE(rv_text) TYPE string.
    METHODS sound ABSTRACT
      RETURNING
        VALUE(rv_sound) TYPE string.
  PROTECTED SECTION.
    DATA mv_name TYPE string.
ENDCLASS.

CLASS lcl_animal IMPLEMENTATION.
  METHOD constructor.
    mv_name = iv_name.
  ENDMETHOD.

  METHOD introduce.
    rv_text = |{ mv_name } says { me->sound( ) }|.
  ENDMETHOD.
ENDCLASS.

CLASS lcl_dog DEFINITION INHERITING FROM lcl_animal.
  PUBLIC SECTION.
    METHODS sound REDEFINITION.
ENDCLASS.

CLASS lcl_dog IMPLEMENTATION.
  METHOD sound.
    rv_sound = `Woof`.
  ENDMETHOD.
ENDCLASS.

CLASS lcl_cat DEFINITION INHERITING FROM lcl_animal.
  PUBLIC SECTION.
    METHODS sound REDEFINITION.
ENDCLASS.

CLASS lcl_cat IMPLEMENTATION.
  METHOD sound.
    rv_sound = `Meow`.
  ENDMETHOD.
ENDCLASS.

CLASS lcl_puppy DEFINITION INHERITING FROM lcl_dog.
  PUBLIC SECTION.
    METHODS sound REDEFINITION.
ENDCLASS.

CLASS lcl_puppy IMPLEMENTATION.
  METHOD sound.
    rv_sound = |{ super->sound( ) }, yip|.
  ENDMETHOD.
ENDCLASS.

"! Abstract base class, REDEFINITION and super-> calls in local classes.
CLASS zcl_smp_animals DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_animals IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lo_animal TYPE REF TO lcl_animal.
    lo_animal = NEW lcl_dog( `Rex` ).
    out->write( lo_animal->introduce( ) ).
    lo_animal = NEW lcl_cat( `Tom` ).
    out->write( lo_animal->introduce( ) ).
    lo_animal = NEW lcl_puppy( `Bello` ).
    out->write( lo_animal->introduce( ) ).
  ENDMETHOD.

ENDCLASS.

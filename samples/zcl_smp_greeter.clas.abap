"! A global class implementing a global interface, called through an interface reference.
CLASS zcl_smp_greeter DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    INTERFACES zif_smp_greeter.
ENDCLASS.



CLASS zcl_smp_greeter IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lo_greeter TYPE REF TO zif_smp_greeter.
    lo_greeter = NEW zcl_smp_greeter( ).
    out->write( lo_greeter->greet( `Linus` ) ).
    out->write( me->zif_smp_greeter~greet( `Grace` ) ).
  ENDMETHOD.

  METHOD zif_smp_greeter~greet.
    rv_text = |Good morning, { iv_name }|.
  ENDMETHOD.

ENDCLASS.

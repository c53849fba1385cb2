"! A local exception class inheriting from CX_STATIC_CHECK, raised with RAISE EXCEPTION TYPE.
CLASS zcl_smp_own_exception DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_own_exception IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lo_account) = NEW lcl_account( 100 ).
    TRY.
        lo_account->withdraw( 30 ).
        out->write( |Balance after 30: { lo_account->balance( ) }| ).
        lo_account->withdraw( 100 ).
        out->write( `not reached` ).
      CATCH lcx_insufficient_funds.
        out->write( |Refused, balance stays { lo_account->balance( ) }| ).
    ENDTRY.
  ENDMETHOD.

ENDCLASS.

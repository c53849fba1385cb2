"! ALIASES for interface methods and attributes, interface constants and static attributes
"! reached through the interface and the class, and chained calls on a factory.
CLASS zcl_smp_aliases DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    INTERFACES zif_smp_account.

    ALIASES deposit FOR zif_smp_account~deposit.
    ALIASES balance FOR zif_smp_account~balance.
    ALIASES owner FOR zif_smp_account~mv_owner.
    ALIASES currency FOR zif_smp_account~c_currency.

    CLASS-METHODS open
      IMPORTING
        iv_owner          TYPE string
      RETURNING
        VALUE(ro_account) TYPE REF TO zcl_smp_aliases.
    METHODS with_bonus
      RETURNING
        VALUE(ro_self) TYPE REF TO zcl_smp_aliases.

  PRIVATE SECTION.
    DATA mv_balance TYPE i.

ENDCLASS.



CLASS zcl_smp_aliases IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA(lo_anna) = open( `Anna` ).
    lo_anna->deposit( 100 ).
    DATA lo_account TYPE REF TO zif_smp_account.
    lo_account = lo_anna.
    lo_account->deposit( 50 ).
    out->write( |{ lo_anna->owner }: { lo_account->balance( ) } { zif_smp_account=>c_currency }| ).

    DATA(lv_total) = open( `Ben` )->with_bonus( )->with_bonus( )->balance( ).
    out->write( |Ben: { lv_total } { zcl_smp_aliases=>currency }| ).

    out->write( |accounts opened: { zif_smp_account=>gv_opened }| ).
    out->write( |same counter: { zcl_smp_aliases=>zif_smp_account~gv_opened }| ).
    lo_account->mv_owner = `Anna B.`.
    out->write( |renamed: { lo_anna->zif_smp_account~mv_owner }| ).
  ENDMETHOD.

  METHOD open.
    ro_account = NEW #( ).
    ro_account->owner = iv_owner.
    zif_smp_account~gv_opened = zif_smp_account~gv_opened + 1.
  ENDMETHOD.

  METHOD with_bonus.
    deposit( 10 ).
    ro_self = me.
  ENDMETHOD.

  METHOD zif_smp_account~deposit.
    mv_balance = mv_balance + iv_amount.
    rv_new = mv_balance.
  ENDMETHOD.

  METHOD zif_smp_account~balance.
    rv_balance = mv_balance.
  ENDMETHOD.

ENDCLASS.

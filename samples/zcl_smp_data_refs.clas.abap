"! Data references: GET REFERENCE, REF #( ), CREATE DATA, NEW for data types, ->* and
"! ->comp, copies of references sharing one data object, REFERENCE INTO, IS BOUND.
CLASS zcl_smp_data_refs DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

  PRIVATE SECTION.
    TYPES: BEGIN OF ty_account,
             owner   TYPE string,
             balance TYPE i,
           END OF ty_account,
           ty_accounts TYPE STANDARD TABLE OF ty_account WITH EMPTY KEY.
    METHODS deposit
      IMPORTING ir_account TYPE REF TO ty_account
                iv_amount  TYPE i.
ENDCLASS.



CLASS zcl_smp_data_refs IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_number TYPE i VALUE 7.
    DATA lr_number TYPE REF TO i.

    GET REFERENCE OF lv_number INTO lr_number.
    lr_number->* = lr_number->* * 6.
    out->write( |number { lv_number }| ).

    DATA(lr_alias) = lr_number.
    lr_alias->* = 1.
    out->write( |via the first reference { lr_number->* }| ).
    IF lr_alias = lr_number.
      out->write( `both point to the same data object` ).
    ENDIF.

    DATA(ls_account) = VALUE ty_account( owner = `Ann` balance = 10 ).
    deposit( ir_account = REF #( ls_account ) iv_amount = 5 ).
    out->write( |{ ls_account-owner } has { ls_account-balance }| ).

    DATA lr_data TYPE REF TO data.
    CREATE DATA lr_data TYPE ty_account.
    FIELD-SYMBOLS <ls_account> TYPE ty_account.
    ASSIGN lr_data->* TO <ls_account>.
    <ls_account> = VALUE ty_account( owner = `Bob` balance = 3 ).
    DATA(lr_typed) = REF #( <ls_account> ).
    deposit( ir_account = lr_typed iv_amount = 4 ).
    out->write( |{ lr_typed->owner } has { lr_typed->balance }| ).

    DATA(lr_text) = NEW string( `anonymous` ).
    DATA(lr_count) = NEW i( 3 ).
    lr_count->* = lr_count->* + strlen( lr_text->* ).
    out->write( |{ lr_text->* } { lr_count->* }| ).

    DATA(lt_accounts) = VALUE ty_accounts( ( owner = `Cy` balance = 1 )
                                           ( owner = `Di` balance = 2 ) ).
    LOOP AT lt_accounts REFERENCE INTO DATA(lr_row).
      deposit( ir_account = lr_row iv_amount = 100 ).
    ENDLOOP.
    READ TABLE lt_accounts WITH KEY owner = `Di` REFERENCE INTO lr_row.
    out->write( |{ lr_row->owner } has { lr_row->balance }| ).
    out->write( |Cy has { lt_accounts[ 1 ]-balance }| ).

    CLEAR lr_number.
    IF lr_number IS INITIAL AND lr_number IS NOT BOUND.
      out->write( `cleared` ).
    ENDIF.
    ASSIGN lr_number->* TO FIELD-SYMBOL(<lv_none>).
    out->write( |ASSIGN of an initial reference: { sy-subrc }| ).
  ENDMETHOD.

  METHOD deposit.
    ir_account->balance = ir_account->balance + iv_amount.
  ENDMETHOD.

ENDCLASS.

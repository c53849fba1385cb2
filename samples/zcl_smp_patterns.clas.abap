"! The comparison operators for character strings (CO CN CA NA CS NS CP NP) and the sy-fdpos
"! each sets, on the operand pairs of the ABAP documentation's table (c fields of length 5).
CLASS zcl_smp_patterns DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.



CLASS zcl_smp_patterns IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA f1 TYPE c LENGTH 5.
    DATA f2 TYPE c LENGTH 5.

    f1 = 'BD   '.
    f2 = 'ABCD '.
    out->write( |'{ f1 WIDTH = 5 }' CO '{ f2 WIDTH = 5 }': { COND string( WHEN f1 CO f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'BD   '.
    f2 = 'ABCDE'.
    out->write( |'{ f1 WIDTH = 5 }' CO '{ f2 WIDTH = 5 }': { COND string( WHEN f1 CO f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABC12'.
    f2 = 'ABCD '.
    out->write( |'{ f1 WIDTH = 5 }' CN '{ f2 WIDTH = 5 }': { COND string( WHEN f1 CN f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABABC'.
    f2 = 'ABCD '.
    out->write( |'{ f1 WIDTH = 5 }' CN '{ f2 WIDTH = 5 }': { COND string( WHEN f1 CN f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABcde'.
    f2 = 'Bd   '.
    out->write( |'{ f1 WIDTH = 5 }' CA '{ f2 WIDTH = 5 }': { COND string( WHEN f1 CA f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABcde'.
    f2 = 'bD   '.
    out->write( |'{ f1 WIDTH = 5 }' CA '{ f2 WIDTH = 5 }': { COND string( WHEN f1 CA f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABAB '.
    f2 = 'AB   '.
    out->write( |'{ f1 WIDTH = 5 }' NA '{ f2 WIDTH = 5 }': { COND string( WHEN f1 NA f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ababa'.
    f2 = 'AB   '.
    out->write( |'{ f1 WIDTH = 5 }' NA '{ f2 WIDTH = 5 }': { COND string( WHEN f1 NA f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABcde'.
    f2 = 'bC   '.
    out->write( |'{ f1 WIDTH = 5 }' CS '{ f2 WIDTH = 5 }': { COND string( WHEN f1 CS f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABcde'.
    f2 = 'ce   '.
    out->write( |'{ f1 WIDTH = 5 }' CS '{ f2 WIDTH = 5 }': { COND string( WHEN f1 CS f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABcde'.
    f2 = 'bC   '.
    out->write( |'{ f1 WIDTH = 5 }' NS '{ f2 WIDTH = 5 }': { COND string( WHEN f1 NS f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABcde'.
    f2 = 'ce   '.
    out->write( |'{ f1 WIDTH = 5 }' NS '{ f2 WIDTH = 5 }': { COND string( WHEN f1 NS f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABcde'.
    f2 = '*b*  '.
    out->write( |'{ f1 WIDTH = 5 }' CP '{ f2 WIDTH = 5 }': { COND string( WHEN f1 CP f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABcde'.
    f2 = '*#b* '.
    out->write( |'{ f1 WIDTH = 5 }' CP '{ f2 WIDTH = 5 }': { COND string( WHEN f1 CP f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABcde'.
    f2 = '*b*  '.
    out->write( |'{ f1 WIDTH = 5 }' NP '{ f2 WIDTH = 5 }': { COND string( WHEN f1 NP f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    f1 = 'ABcde'.
    f2 = '*#b* '.
    out->write( |'{ f1 WIDTH = 5 }' NP '{ f2 WIDTH = 5 }': { COND string( WHEN f1 NP f2 THEN `true` ELSE `false` ) }, sy-fdpos = { sy-fdpos }| ).
    IF `order-4711.pdf` CP '*-####.pdf'.
      out->write( |literal # pattern: true, sy-fdpos = { sy-fdpos }| ).
    ELSE.
      out->write( |literal # pattern: false, sy-fdpos = { sy-fdpos }| ).
    ENDIF.
    IF `order-4711.pdf` CP '*-++++.PDF'.
      out->write( |any-character pattern: true, sy-fdpos = { sy-fdpos }| ).
    ENDIF.
  ENDMETHOD.

ENDCLASS.

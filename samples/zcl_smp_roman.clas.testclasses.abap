CLASS ltc_roman DEFINITION FINAL FOR TESTING
  DURATION SHORT
  RISK LEVEL HARMLESS.

  PRIVATE SECTION.
    DATA mo_cut TYPE REF TO zcl_smp_roman.
    METHODS setup.
    METHODS one FOR TESTING.
    METHODS four FOR TESTING.
    METHODS year_1994 FOR TESTING.
    METHODS year_2024 FOR TESTING.
    METHODS zero_is_empty FOR TESTING.
ENDCLASS.


CLASS ltc_roman IMPLEMENTATION.

  METHOD setup.
    mo_cut = NEW #( ).
  ENDMETHOD.

  METHOD one.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->to_roman( 1 ) exp = `I` ).
  ENDMETHOD.

  METHOD four.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->to_roman( 4 ) exp = `IV` ).
  ENDMETHOD.

  METHOD year_1994.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->to_roman( 1994 ) exp = `MCMXCIV` ).
  ENDMETHOD.

  METHOD year_2024.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->to_roman( 2024 ) exp = `MMXXIV` ).
  ENDMETHOD.

  METHOD zero_is_empty.
    cl_abap_unit_assert=>assert_initial( mo_cut->to_roman( 0 ) ).
  ENDMETHOD.

ENDCLASS.

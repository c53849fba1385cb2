CLASS ltc_leap_year DEFINITION FINAL FOR TESTING
  DURATION SHORT
  RISK LEVEL HARMLESS.

  PRIVATE SECTION.
    DATA mo_cut TYPE REF TO zcl_smp_leap_year.
    METHODS setup.
    METHODS year_2000 FOR TESTING.
    METHODS year_1900 FOR TESTING.
    METHODS year_2024 FOR TESTING.
    METHODS year_2023 FOR TESTING.
ENDCLASS.


CLASS ltc_leap_year IMPLEMENTATION.

  METHOD setup.
    mo_cut = NEW #( ).
  ENDMETHOD.

  METHOD year_2000.
    cl_abap_unit_assert=>assert_true( mo_cut->is_leap( 2000 ) ).
  ENDMETHOD.

  METHOD year_1900.
    cl_abap_unit_assert=>assert_false( mo_cut->is_leap( 1900 ) ).
  ENDMETHOD.

  METHOD year_2024.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->is_leap( 2024 ) exp = abap_true ).
  ENDMETHOD.

  METHOD year_2023.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->is_leap( 2023 ) exp = abap_false ).
  ENDMETHOD.

ENDCLASS.

CLASS ltc_discount DEFINITION FINAL FOR TESTING
  DURATION SHORT
  RISK LEVEL HARMLESS.

  PRIVATE SECTION.
    DATA mo_cut TYPE REF TO zcl_smp_failing.
    METHODS setup.
    METHODS no_discount_below_100 FOR TESTING.
    METHODS ten_percent_from_100 FOR TESTING.
    METHODS deliberately_wrong FOR TESTING.
ENDCLASS.


CLASS ltc_discount IMPLEMENTATION.

  METHOD setup.
    mo_cut = NEW #( ).
  ENDMETHOD.

  METHOD no_discount_below_100.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->discounted( 99 ) exp = 99 ).
  ENDMETHOD.

  METHOD ten_percent_from_100.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->discounted( 200 ) exp = 180 ).
  ENDMETHOD.

  METHOD deliberately_wrong.
    " This test fails on purpose: the expected value ignores the discount.
    cl_abap_unit_assert=>assert_equals(
      act = mo_cut->discounted( 150 )
      exp = 150
      msg = `Discount applied unexpectedly` ).
  ENDMETHOD.

ENDCLASS.

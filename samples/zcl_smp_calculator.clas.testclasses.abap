CLASS ltc_calculator DEFINITION FINAL FOR TESTING
  DURATION SHORT
  RISK LEVEL HARMLESS.

  PRIVATE SECTION.
    DATA mo_cut TYPE REF TO zcl_smp_calculator.
    METHODS setup.
    METHODS adds FOR TESTING.
    METHODS adds_negative FOR TESTING.
    METHODS divides FOR TESTING.
    METHODS divide_by_zero_raises FOR TESTING.
ENDCLASS.


CLASS ltc_calculator IMPLEMENTATION.

  METHOD setup.
    mo_cut = NEW #( ).
  ENDMETHOD.

  METHOD adds.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->add( iv_a = 2 iv_b = 3 ) exp = 5 ).
  ENDMETHOD.

  METHOD adds_negative.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->add( iv_a = -2 iv_b = -3 ) exp = -5 ).
  ENDMETHOD.

  METHOD divides.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->divide( iv_a = 17 iv_b = 5 ) exp = 3 ).
  ENDMETHOD.

  METHOD divide_by_zero_raises.
    TRY.
        mo_cut->divide( iv_a = 1 iv_b = 0 ).
        cl_abap_unit_assert=>fail( msg = `no exception` ).
      CATCH cx_sy_zerodivide INTO DATA(lx_error).
        cl_abap_unit_assert=>assert_bound( lx_error ).
    ENDTRY.
  ENDMETHOD.

ENDCLASS.

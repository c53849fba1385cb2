CLASS ltc_text_utils DEFINITION FINAL FOR TESTING
  DURATION SHORT
  RISK LEVEL HARMLESS.

  PRIVATE SECTION.
    METHODS initials FOR TESTING.
    METHODS shout FOR TESTING.
    METHODS code_truncates FOR TESTING.
    METHODS code_differs FOR TESTING.
ENDCLASS.


CLASS ltc_text_utils IMPLEMENTATION.

  METHOD initials.
    cl_abap_unit_assert=>assert_equals(
      act = zcl_smp_text_utils=>initials( iv_first = `grace` iv_last = `hopper` )
      exp = `G.H.` ).
  ENDMETHOD.

  METHOD shout.
    cl_abap_unit_assert=>assert_equals( act = zcl_smp_text_utils=>shout( `hey` ) exp = `HEY!` ).
  ENDMETHOD.

  METHOD code_truncates.
    cl_abap_unit_assert=>assert_equals( act = zcl_smp_text_utils=>code( `abcdef` ) exp = 'ABCD' ).
  ENDMETHOD.

  METHOD code_differs.
    cl_abap_unit_assert=>assert_differs( act = zcl_smp_text_utils=>code( `xyz` ) exp = 'xyz' ).
  ENDMETHOD.

ENDCLASS.

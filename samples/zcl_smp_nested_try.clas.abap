"! Nested TRY blocks: the inner CATCH does not match, the outer one does; RAISE EXCEPTION NEW.
CLASS zcl_smp_nested_try DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

ENDCLASS.



CLASS zcl_smp_nested_try IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    TRY.
        TRY.
            out->write( `inner try` ).
            RAISE EXCEPTION NEW cx_sy_itab_line_not_found( ).
          CATCH cx_sy_zerodivide.
            out->write( `wrong handler` ).
        ENDTRY.
      CATCH cx_sy_itab_line_not_found cx_sy_zerodivide INTO DATA(lx_error).
        out->write( `outer handler` ).
        IF lx_error IS BOUND.
          out->write( |caught: { lx_error->get_text( ) }| ).
        ENDIF.
    ENDTRY.
    out->write( `after try` ).
  ENDMETHOD.

ENDCLASS.

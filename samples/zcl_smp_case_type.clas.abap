"! CASE TYPE OF with WHEN TYPE … INTO, IS INSTANCE OF and the ?= down cast on a list of
"! exception objects.
CLASS zcl_smp_case_type DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

ENDCLASS.



CLASS zcl_smp_case_type IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lt_objects TYPE STANDARD TABLE OF REF TO object WITH EMPTY KEY.
    APPEND NEW cx_sy_zerodivide( ) TO lt_objects.
    APPEND NEW cx_sy_conversion_no_number( ) TO lt_objects.
    APPEND NEW cx_sy_itab_line_not_found( ) TO lt_objects.
    APPEND me TO lt_objects.

    LOOP AT lt_objects INTO DATA(lo_object).
      CASE TYPE OF lo_object.
        WHEN TYPE cx_sy_arithmetic_error INTO DATA(lo_arith).
          IF lo_arith IS INSTANCE OF cx_sy_zerodivide.
            out->write( |{ sy-tabix }: a division by zero| ).
          ENDIF.
        WHEN TYPE cx_sy_conversion_error.
          out->write( |{ sy-tabix }: a conversion error| ).
        WHEN TYPE cx_root.
          out->write( |{ sy-tabix }: another exception| ).
        WHEN OTHERS.
          out->write( |{ sy-tabix }: no exception| ).
      ENDCASE.
    ENDLOOP.

    DATA lo_root TYPE REF TO cx_root.
    LOOP AT lt_objects INTO lo_object.
      TRY.
          lo_root ?= lo_object.
        CATCH cx_sy_move_cast_error.
          out->write( |row { sy-tabix } is no exception object| ).
      ENDTRY.
    ENDLOOP.
  ENDMETHOD.

ENDCLASS.

"! Dynamic programming: objects, data, method calls, field symbols and table operations whose
"! class, type, method or component names are only known at run time, and the exceptions a
"! name that does not resolve raises.
CLASS zcl_smp_dynamic DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    CLASS-DATA gv_calls TYPE i.
    DATA mv_total TYPE i.

    METHODS constructor
      IMPORTING iv_total TYPE i OPTIONAL.
    METHODS add
      IMPORTING iv_amount TYPE i
      EXPORTING ev_before TYPE i
      CHANGING  cv_trail  TYPE string
      RETURNING VALUE(rv_total) TYPE i.
    CLASS-METHODS square
      IMPORTING iv_value TYPE i
      RETURNING VALUE(rv_square) TYPE i.

ENDCLASS.



CLASS zcl_smp_dynamic IMPLEMENTATION.

  METHOD constructor.
    mv_total = iv_total.
  ENDMETHOD.


  METHOD add.
    gv_calls = gv_calls + 1.
    ev_before = mv_total.
    mv_total = mv_total + iv_amount.
    cv_trail = |{ cv_trail }+{ iv_amount }|.
    rv_total = mv_total.
  ENDMETHOD.


  METHOD square.
    gv_calls = gv_calls + 1.
    rv_square = iv_value * iv_value.
  ENDMETHOD.


  METHOD if_oo_adt_classrun~main.
    " Objects of a class named at run time.
    DATA lo_any TYPE REF TO object.
    DATA lv_class TYPE string VALUE `ZCL_SMP_DYNAMIC`.
    CREATE OBJECT lo_any TYPE (lv_class) EXPORTING iv_total = 100.
    TRY.
        CREATE OBJECT lo_any TYPE ('ZCL_SMP_NO_SUCH_CLASS').
      CATCH cx_sy_create_object_error.
        out->write( `no class ZCL_SMP_NO_SUCH_CLASS` ).
    ENDTRY.

    " Method calls with dynamic names: parameter lists and a parameter table.
    DATA: lv_before TYPE i, lv_total TYPE i, lv_trail TYPE string VALUE `start`.
    DATA lv_method TYPE string VALUE `ADD`.
    CALL METHOD lo_any->(lv_method)
      EXPORTING iv_amount = 5
      IMPORTING ev_before = lv_before
      CHANGING  cv_trail  = lv_trail
      RECEIVING rv_total  = lv_total.
    out->write( |{ lv_method }: { lv_before } -> { lv_total }, { lv_trail }| ).

    DATA lv_amount TYPE i VALUE 20.
    DATA(lt_params) = VALUE abap_parmbind_tab(
      ( name = 'IV_AMOUNT' kind = cl_abap_objectdescr=>exporting value = REF #( lv_amount ) )
      ( name = 'EV_BEFORE' kind = cl_abap_objectdescr=>importing value = REF #( lv_before ) )
      ( name = 'CV_TRAIL'  kind = cl_abap_objectdescr=>changing  value = REF #( lv_trail ) )
      ( name = 'RV_TOTAL'  kind = cl_abap_objectdescr=>receiving value = REF #( lv_total ) ) ).
    CALL METHOD lo_any->('ADD') PARAMETER-TABLE lt_params.
    out->write( |table: { lv_before } -> { lv_total }, { lv_trail }| ).

    DATA lv_square TYPE i.
    CALL METHOD (lv_class)=>('SQUARE') EXPORTING iv_value = 7 RECEIVING rv_square = lv_square.
    out->write( |square 7 = { lv_square }| ).
    CALL METHOD (lv_class)=>square EXPORTING iv_value = 8 RECEIVING rv_square = lv_square.
    out->write( |square 8 = { lv_square }| ).

    TRY.
        CALL METHOD lo_any->('SUBTRACT').
      CATCH cx_sy_dyn_call_illegal_method.
        out->write( `no method SUBTRACT` ).
    ENDTRY.
    TRY.
        CALL METHOD lo_any->('ADD')
          EXPORTING iv_amount = 1 iv_unit = 2
          CHANGING  cv_trail  = lv_trail.
      CATCH cx_sy_dyn_call_param_not_found.
        out->write( `no parameter IV_UNIT` ).
    ENDTRY.
    TRY.
        CALL METHOD (lv_class)=>('SQUARE').
      CATCH cx_sy_dyn_call_param_missing.
        out->write( `IV_VALUE missing` ).
    ENDTRY.

    " Data objects of a type named at run time.
    DATA lr_data TYPE REF TO data.
    FIELD-SYMBOLS <lt_names> TYPE STANDARD TABLE.
    CREATE DATA lr_data TYPE TABLE OF ('STRING').
    ASSIGN lr_data->* TO <lt_names>.
    APPEND `Grace` TO <lt_names>.
    APPEND `Ada` TO <lt_names>.
    out->write( |{ lines( <lt_names> ) } names| ).
    TRY.
        CREATE DATA lr_data TYPE ('ZSMP_NO_SUCH_TYPE').
      CATCH cx_sy_create_data_error.
        out->write( `no type ZSMP_NO_SUCH_TYPE` ).
    ENDTRY.

    " Field symbols assigned by names.
    ASSIGN (lv_class)=>('GV_CALLS') TO FIELD-SYMBOL(<lv_calls>).
    out->write( |calls so far: { <lv_calls> } (sy-subrc { sy-subrc })| ).
    ASSIGN lo_any->('MV_TOTAL') TO FIELD-SYMBOL(<lv_total>).
    out->write( |total: { <lv_total> }| ).
    ASSIGN lo_any->('MV_MISSING') TO <lv_total>.
    out->write( |MV_MISSING: sy-subrc { sy-subrc }| ).

    " Table operations on components named at run time.
    TYPES: BEGIN OF ty_city,
             name       TYPE string,
             population TYPE i,
           END OF ty_city.
    DATA lt_cities TYPE STANDARD TABLE OF ty_city WITH EMPTY KEY.
    lt_cities = VALUE #( ( name = `Oslo` population = 700 )
                         ( name = `Bergen` population = 290 )
                         ( name = `Tromso` population = 77 ) ).
    DATA lv_column TYPE string VALUE `NAME`.
    SORT lt_cities BY (lv_column).
    LOOP AT lt_cities INTO DATA(ls_city).
      out->write( |{ sy-tabix }: { ls_city-name }| ).
    ENDLOOP.
    DATA(lt_order) = VALUE abap_sortorder_tab( ( name = 'POPULATION' descending = abap_true ) ).
    SORT lt_cities BY (lt_order).
    READ TABLE lt_cities INTO ls_city WITH KEY (lv_column) = `Tromso`.
    out->write( |Tromso is row { sy-tabix }| ).
    DATA lv_where TYPE string VALUE `POPULATION > 100`.
    LOOP AT lt_cities INTO ls_city WHERE (lv_where).
      out->write( |big: { ls_city-name }| ).
    ENDLOOP.
    lt_order = VALUE #( ( name = 'AREA' ) ).
    TRY.
        SORT lt_cities BY (lt_order).
      CATCH cx_sy_dyn_table_ill_comp_val.
        out->write( `no column AREA` ).
    ENDTRY.
  ENDMETHOD.

ENDCLASS.

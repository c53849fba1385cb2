"! Run time type information: describe_by_data on elementary, structured, table, reference
"! and object data, the components of a structure, and a structure type created at run time
"! and filled through CREATE DATA … TYPE HANDLE and ASSIGN COMPONENT.
CLASS zcl_smp_rtti DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.

    TYPES: BEGIN OF ty_order,
             id       TYPE i,
             customer TYPE string,
             paid     TYPE abap_bool,
             amount   TYPE p LENGTH 8 DECIMALS 2,
           END OF ty_order.
    TYPES ty_orders TYPE STANDARD TABLE OF ty_order WITH KEY id.

  PRIVATE SECTION.
    DATA mv_described TYPE i.

    METHODS describe
      IMPORTING io_type        TYPE REF TO cl_abap_typedescr
      RETURNING VALUE(rv_text) TYPE string.

ENDCLASS.



CLASS zcl_smp_rtti IMPLEMENTATION.

  METHOD if_oo_adt_classrun~main.
    DATA lv_count TYPE i.
    DATA lv_code TYPE c LENGTH 4.
    DATA ls_order TYPE ty_order.
    DATA lt_orders TYPE ty_orders.
    DATA lr_order TYPE REF TO ty_order.

    " Elementary data: a built-in type, a technical type, a type of the type pool ABAP.
    out->write( describe( cl_abap_typedescr=>describe_by_data( lv_count ) ) ).
    out->write( describe( cl_abap_typedescr=>describe_by_data( lv_code ) ) ).
    out->write( describe( cl_abap_typedescr=>describe_by_data( ls_order-paid ) ) ).
    DATA(lo_code) = CAST cl_abap_elemdescr( cl_abap_typedescr=>describe_by_data( lv_code ) ).
    out->write( |c LENGTH 4: { lo_code->length } bytes, output length { lo_code->output_length }| ).
    DATA(lo_amount) = cl_abap_typedescr=>describe_by_data( ls_order-amount ).
    out->write( |p LENGTH 8: { lo_amount->length } bytes, { lo_amount->decimals } decimals| ).

    " A structure and its components.
    DATA(lo_struct) = CAST cl_abap_structdescr( cl_abap_typedescr=>describe_by_data( ls_order ) ).
    out->write( describe( lo_struct ) ).
    LOOP AT lo_struct->components INTO DATA(ls_comp).
      out->write( |{ ls_comp-name } { ls_comp-type_kind } { ls_comp-length }| ).
    ENDLOOP.
    LOOP AT lo_struct->get_components( ) INTO DATA(ls_component).
      out->write( |{ ls_component-name }: { describe( ls_component-type ) }| ).
    ENDLOOP.

    " A table and its line type.
    DATA(lo_table) = CAST cl_abap_tabledescr( cl_abap_typedescr=>describe_by_data( lt_orders ) ).
    out->write( describe( lo_table ) ).
    out->write( |table kind { lo_table->table_kind }, key { lo_table->key[ 1 ]-name } ({ lo_table->key_defkind })| ).
    IF lo_table->get_table_line_type( ) = lo_struct.
      out->write( `the line type is the structure's description` ).
    ENDIF.
    IF cl_abap_typedescr=>describe_by_name( '\CLASS=ZCL_SMP_RTTI\TYPE=TY_ORDERS' ) = lo_table.
      out->write( `described by name: the same description` ).
    ENDIF.

    " References: to data and to an object.
    DATA(lo_ref) = CAST cl_abap_refdescr( cl_abap_typedescr=>describe_by_data( lr_order ) ).
    out->write( describe( lo_ref ) ).
    out->write( |points to { describe( lo_ref->get_referenced_type( ) ) }| ).
    DATA(lo_class) = CAST cl_abap_classdescr( cl_abap_typedescr=>describe_by_object_ref( me ) ).
    out->write( describe( lo_class ) ).
    LOOP AT lo_class->attributes INTO DATA(ls_attribute) WHERE is_interface = abap_false.
      out->write( |attribute { ls_attribute-name } ({ ls_attribute-visibility })| ).
    ENDLOOP.
    LOOP AT lo_class->methods INTO DATA(ls_method) WHERE is_interface = abap_false.
      out->write( |method { ls_method-name } ({ ls_method-visibility })| ).
    ENDLOOP.

    " A structure type created at run time, filled through a data reference.
    DATA(lo_created) = cl_abap_structdescr=>create( VALUE #(
      ( name = 'CITY'  type = cl_abap_elemdescr=>get_c( 10 ) )
      ( name = 'COUNT' type = cl_abap_elemdescr=>get_i( ) )
      ( name = 'TAGS'  type = CAST #( cl_abap_typedescr=>describe_by_name( 'STRING_TABLE' ) ) ) ) ).
    out->write( describe( lo_created ) ).
    DATA lr_data TYPE REF TO data.
    FIELD-SYMBOLS <lt_tags> TYPE string_table.
    CREATE DATA lr_data TYPE HANDLE lo_created.
    ASSIGN lr_data->* TO FIELD-SYMBOL(<ls_created>).
    ASSIGN COMPONENT 'CITY' OF STRUCTURE <ls_created> TO FIELD-SYMBOL(<lv_value>).
    <lv_value> = 'Heidelberg'.
    ASSIGN COMPONENT 2 OF STRUCTURE <ls_created> TO <lv_value>.
    <lv_value> = 3.
    ASSIGN COMPONENT 'TAGS' OF STRUCTURE <ls_created> TO <lt_tags>.
    APPEND `old` TO <lt_tags>.
    APPEND `town` TO <lt_tags>.
    DO 3 TIMES.
      ASSIGN COMPONENT sy-index OF STRUCTURE <ls_created> TO <lv_value>.
      out->write( |{ sy-index }: { describe( cl_abap_typedescr=>describe_by_data( <lv_value> ) ) }| ).
    ENDDO.
    ASSIGN COMPONENT 'CITY' OF STRUCTURE <ls_created> TO <lv_value>.
    out->write( |{ <lv_value> } has { lines( <lt_tags> ) } tags| ).

    TRY.
        cl_abap_structdescr=>create( VALUE #( ( name = 'NO NAME' type = cl_abap_elemdescr=>get_i( ) ) ) ).
      CATCH cx_sy_struct_creation.
        out->write( `NO NAME is no component name` ).
    ENDTRY.
    out->write( |{ mv_described } descriptions written| ).
  ENDMETHOD.


  METHOD describe.
    mv_described = mv_described + 1.
    DATA(lv_name) = COND string( WHEN io_type->get_relative_name( ) IS INITIAL
                                 THEN `(technical type)`
                                 ELSE io_type->absolute_name ).
    rv_text = |{ io_type->kind } { io_type->type_kind } { lv_name }|.
  ENDMETHOD.

ENDCLASS.

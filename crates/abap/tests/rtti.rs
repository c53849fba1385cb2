//! Run time type information: `cl_abap_typedescr=>describe_by_*`, the descriptor classes'
//! attributes, absolute names, types created at run time with `CREATE DATA … TYPE HANDLE`,
//! and what the debugger shows for a descriptor reference. Expected values are those of a
//! real (Unicode) system: `c` takes two bytes per character, strings, tables and
//! references eight.

use abap::{NoDebugger, Resume, RunError};

use crate::harness::{self, class_source, on_stop, run};

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

/// Runs `ZCL_T` (declarations `decl`, statements `main`) next to other objects.
fn out_with(decl: &str, main: &str, others: &[(&str, &str)]) -> String {
    let source = class_source(decl, main, "");
    let mut files = vec![("zcl_t.clas.abap", source.as_str())];
    files.extend_from_slice(others);
    match harness::repo(&files).run_classrun("ZCL_T", &mut NoDebugger) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

/// `kind type_kind length decimals absolute_name` of each data object.
fn described(decls: &str, names: &[&str]) -> String {
    let mut main = decls.to_string();
    for n in names {
        main.push_str(&format!(
            "\n    DATA(d_{n}) = cl_abap_typedescr=>describe_by_data( {n} ).\n    out->write( |{{ d_{n}->kind }} {{ d_{n}->type_kind }} {{ d_{n}->length }} {{ d_{n}->decimals }} {{ d_{n}->absolute_name }}| )."
        ));
    }
    out(&main)
}

#[test]
fn elementary_types_have_their_kind_length_and_name() {
    let decls = r"    DATA i TYPE i.
    DATA i8 TYPE int8.
    DATA f TYPE f.
    DATA s TYPE string.
    DATA xs TYPE xstring.
    DATA d TYPE d.
    DATA t TYPE t.
    DATA c TYPE c LENGTH 10.
    DATA n TYPE n LENGTH 6.
    DATA x TYPE x LENGTH 4.
    DATA p TYPE p LENGTH 4 DECIMALS 2.
    DATA df16 TYPE decfloat16.
    DATA df34 TYPE decfloat34.";
    let o = described(
        decls,
        &[
            "i", "i8", "f", "s", "xs", "d", "t", "c", "n", "x", "p", "df16", "df34",
        ],
    );
    assert_eq!(
        o,
        r"E I 4 0 \TYPE=I
E 8 8 0 \TYPE=INT8
E F 8 0 \TYPE=F
E g 8 0 \TYPE=STRING
E y 8 0 \TYPE=XSTRING
E D 16 0 \TYPE=D
E T 12 0 \TYPE=T
E C 20 0 \TYPE=%_T0000000001
E N 12 0 \TYPE=%_T0000000002
E X 4 0 \TYPE=%_T0000000003
E P 4 2 \TYPE=%_T0000000004
E a 8 0 \TYPE=DECFLOAT16
E e 16 0 \TYPE=DECFLOAT34"
    );
}

#[test]
fn technical_types_have_no_relative_name_and_named_ones_do() {
    let main = r"    DATA c TYPE c LENGTH 3.
    DATA i TYPE i.
    DATA(dc) = cl_abap_typedescr=>describe_by_data( c ).
    DATA(di) = cl_abap_typedescr=>describe_by_data( i ).
    out->write( |[{ dc->get_relative_name( ) }] [{ di->get_relative_name( ) }]| ).
    IF dc->absolute_name CP '\TYPE=%_T*'.
      out->write( `technical` ).
    ENDIF.";
    assert_eq!(out(main), "[] [I]\ntechnical");
}

#[test]
fn dictionary_and_type_pool_types() {
    let decls = r"    DATA b TYPE abap_bool.
    DATA xb TYPE xsdboolean.
    DATA ts TYPE timestamp.
    DATA tsl TYPE timestampl.
    DATA st TYPE string_table.
    DATA comps TYPE abap_component_tab.
    DATA c1 TYPE char1.";
    let o = described(decls, &["b", "xb", "ts", "tsl", "st", "comps", "c1"]);
    assert_eq!(
        o,
        r"E C 2 0 \TYPE-POOL=ABAP\TYPE=ABAP_BOOL
E C 2 0 \TYPE=XSDBOOLEAN
E P 8 0 \TYPE=TIMESTAMP
E P 11 7 \TYPE=TIMESTAMPL
T h 8 0 \TYPE=STRING_TABLE
T h 8 0 \TYPE-POOL=ABAP\TYPE=ABAP_COMPONENT_TAB
E C 2 0 \TYPE=CHAR1"
    );
    let main = r"    DATA c1 TYPE char1.
    DATA c TYPE c LENGTH 1.
    DATA b TYPE abap_bool.
    out->write( |{ cl_abap_typedescr=>describe_by_data( c1 )->is_ddic_type( ) }-{ cl_abap_typedescr=>describe_by_data( c )->is_ddic_type( ) }-{ cl_abap_typedescr=>describe_by_data( b )->is_ddic_type( ) }| ).
    out->write( cl_abap_typedescr=>describe_by_data( abap_true )->absolute_name ).
    out->write( cl_abap_typedescr=>describe_by_data( sy-subrc )->absolute_name ).";
    assert_eq!(
        out(main),
        "X--\n\\TYPE-POOL=ABAP\\TYPE=ABAP_BOOL\n\\TYPE=SYST_SUBRC"
    );
}

#[test]
fn absolute_names_follow_where_a_type_is_defined() {
    let intf = r"INTERFACE zif_t PUBLIC.
  TYPES ty_id TYPE n LENGTH 6.
ENDINTERFACE.
";
    let decl = r"    INTERFACES zif_t.
    TYPES ty_amount TYPE p LENGTH 8 DECIMALS 2.";
    let main = r"    TYPES ty_local TYPE c LENGTH 5.
    DATA a TYPE ty_amount.
    DATA l TYPE ty_local.
    DATA i1 TYPE zif_t=>ty_id.
    DATA i2 TYPE zif_t~ty_id.
    out->write( cl_abap_typedescr=>describe_by_data( a )->absolute_name ).
    out->write( cl_abap_typedescr=>describe_by_data( l )->absolute_name ).
    out->write( cl_abap_typedescr=>describe_by_data( i1 )->absolute_name ).
    out->write( cl_abap_typedescr=>describe_by_data( i2 )->absolute_name ).
    out->write( cl_abap_typedescr=>describe_by_data( l )->get_relative_name( ) ).";
    assert_eq!(
        out_with(decl, main, &[("zif_t.intf.abap", intf)]),
        r"\CLASS=ZCL_T\TYPE=TY_AMOUNT
\CLASS=ZCL_T\METHOD=IF_OO_ADT_CLASSRUN~MAIN\TYPE=TY_LOCAL
\INTERFACE=ZIF_T\TYPE=TY_ID
\INTERFACE=ZIF_T\TYPE=TY_ID
TY_LOCAL"
    );
}

#[test]
fn local_classes_and_reports_name_their_program() {
    let locals = r"CLASS lcl_helper DEFINITION.
  PUBLIC SECTION.
    TYPES ty_flag TYPE c LENGTH 1.
    CLASS-METHODS name RETURNING VALUE(r) TYPE string.
ENDCLASS.

CLASS lcl_helper IMPLEMENTATION.
  METHOD name.
    DATA f TYPE ty_flag.
    r = cl_abap_typedescr=>describe_by_data( f )->absolute_name.
  ENDMETHOD.
ENDCLASS.
";
    let main = r"    out->write( lcl_helper=>name( ) ).
    out->write( cl_abap_typedescr=>describe_by_object_ref( NEW lcl_helper( ) )->absolute_name ).";
    assert_eq!(
        out_with("", main, &[("zcl_t.clas.locals_imp.abap", locals)]),
        r"\CLASS-POOL=ZCL_T\CLASS=LCL_HELPER\TYPE=TY_FLAG
\CLASS-POOL=ZCL_T\CLASS=LCL_HELPER"
    );
    let report = r"REPORT zrtti_report.
TYPES: BEGIN OF ty_row,
         id TYPE i,
       END OF ty_row.
DATA gs_row TYPE ty_row.

START-OF-SELECTION.
  WRITE / cl_abap_typedescr=>describe_by_data( gs_row )->absolute_name.
";
    let list = harness::repo(&[("zrtti_report.prog.abap", report)])
        .run_report("ZRTTI_REPORT", &mut NoDebugger)
        .unwrap_or_else(|e| panic!("report failed: {e:?}"));
    assert_eq!(list.trim(), r"\PROGRAM=ZRTTI_REPORT\TYPE=TY_ROW");
}

#[test]
fn a_generic_parameter_reports_the_type_of_its_actual_parameter() {
    let decl = r"    METHODS kind_of IMPORTING value TYPE any RETURNING VALUE(r) TYPE string.
    METHODS outer IMPORTING value TYPE any RETURNING VALUE(r) TYPE string.";
    let methods = r"  METHOD kind_of.
    r = cl_abap_typedescr=>describe_by_data( value )->absolute_name.
  ENDMETHOD.
  METHOD outer.
    r = kind_of( value ).
  ENDMETHOD.";
    let main = r"    DATA flag TYPE abap_bool.
    DATA n TYPE i.
    out->write( kind_of( flag ) ).
    out->write( kind_of( abap_false ) ).
    out->write( outer( flag ) ).
    out->write( kind_of( n ) ).
    out->write( kind_of( `text` ) ).";
    let o = harness::run_class(&class_source(decl, main, methods))
        .unwrap_or_else(|e| panic!("run failed: {e:?}"));
    assert_eq!(
        o,
        r"\TYPE-POOL=ABAP\TYPE=ABAP_BOOL
\TYPE-POOL=ABAP\TYPE=ABAP_BOOL
\TYPE-POOL=ABAP\TYPE=ABAP_BOOL
\TYPE=I
\TYPE=STRING"
    );
}

#[test]
fn structure_components_and_their_types() {
    let decl = r"    TYPES: BEGIN OF ty_inner,
             a TYPE i,
           END OF ty_inner.
    TYPES: BEGIN OF ty_s,
             id    TYPE i,
             code  TYPE c LENGTH 3,
             flag  TYPE abap_bool,
             inner TYPE ty_inner,
           END OF ty_s.
    TYPES: BEGIN OF ty_deep,
             name TYPE string,
           END OF ty_deep.";
    let main = r"    DATA s TYPE ty_s.
    DATA deep TYPE ty_deep.
    DATA(sd) = CAST cl_abap_structdescr( cl_abap_typedescr=>describe_by_data( s ) ).
    out->write( |{ sd->type_kind } { sd->struct_kind } { sd->length } { lines( sd->components ) }| ).
    LOOP AT sd->components INTO DATA(c).
      out->write( |{ c-name } { c-type_kind } { c-length } { c-decimals }| ).
    ENDLOOP.
    LOOP AT sd->get_components( ) INTO DATA(comp).
      out->write( |{ comp-name } { comp-type->absolute_name }| ).
    ENDLOOP.
    out->write( sd->get_component_type( 'FLAG' )->get_relative_name( ) ).
    DATA(dd) = CAST cl_abap_structdescr( cl_abap_typedescr=>describe_by_data( deep ) ).
    out->write( |{ dd->type_kind } { dd->struct_kind }| ).
    out->write( cl_abap_typedescr=>describe_by_data( s-inner-a )->absolute_name ).";
    let o = out_with(decl, main, &[]);
    assert_eq!(
        o,
        r"u N 16 4
ID I 4 0
CODE C 6 0
FLAG C 2 0
INNER u 4 0
ID \TYPE=I
CODE \TYPE=%_T0000000001
FLAG \TYPE-POOL=ABAP\TYPE=ABAP_BOOL
INNER \CLASS=ZCL_T\TYPE=TY_INNER
ABAP_BOOL
v D
\TYPE=I"
    );
}

#[test]
fn a_missing_component_is_a_classic_exception() {
    let main = r"    DATA: BEGIN OF s,
            a TYPE i,
          END OF s.
    DATA(sd) = CAST cl_abap_structdescr( cl_abap_typedescr=>describe_by_data( s ) ).
    sd->get_component_type( 'B' ).";
    let (id, text) = harness::dump(run(main));
    assert_eq!(id, "RAISE_EXCEPTION");
    assert!(text.contains("COMPONENT_NOT_FOUND"), "{text}");
}

#[test]
fn table_kinds_keys_and_line_types() {
    let decl = r"    TYPES: BEGIN OF ty_row,
             id   TYPE i,
             name TYPE string,
           END OF ty_row.";
    let main = r"    DATA std TYPE STANDARD TABLE OF ty_row WITH DEFAULT KEY.
    DATA srt TYPE SORTED TABLE OF ty_row WITH UNIQUE KEY id.
    DATA hsh TYPE HASHED TABLE OF i WITH UNIQUE KEY table_line.
    DATA emp TYPE STANDARD TABLE OF i WITH EMPTY KEY.
    DATA refs TYPE STANDARD TABLE OF REF TO zcl_t WITH EMPTY KEY.
    DATA row TYPE ty_row.
    DATA(t1) = CAST cl_abap_tabledescr( cl_abap_typedescr=>describe_by_data( std ) ).
    DATA(t2) = CAST cl_abap_tabledescr( cl_abap_typedescr=>describe_by_data( srt ) ).
    DATA(t3) = CAST cl_abap_tabledescr( cl_abap_typedescr=>describe_by_data( hsh ) ).
    DATA(t4) = CAST cl_abap_tabledescr( cl_abap_typedescr=>describe_by_data( emp ) ).
    DATA(t5) = CAST cl_abap_tabledescr( cl_abap_typedescr=>describe_by_data( refs ) ).
    out->write( |{ t1->table_kind } { t1->key_defkind } { t1->has_unique_key } { lines( t1->key ) }| ).
    out->write( |{ t2->table_kind } { t2->key_defkind } { t2->has_unique_key } { t2->key[ 1 ]-name }| ).
    out->write( |{ t3->table_kind } { t3->key_defkind } { t3->has_unique_key } { t3->key[ 1 ]-name }| ).
    out->write( |{ t4->table_kind } { t4->key_defkind } { lines( t4->key ) }| ).
    out->write( t5->get_table_line_type( )->type_kind ).
    IF t1->get_table_line_type( ) = cl_abap_typedescr=>describe_by_data( row ).
      out->write( `same line type` ).
    ENDIF.
    out->write( t1->get_table_line_type( )->absolute_name ).";
    assert_eq!(
        out_with(decl, main, &[]),
        "S D  1\nO U X ID\nH L X TABLE_LINE\nS E 0\nr\nsame line type\n\\CLASS=ZCL_T\\TYPE=TY_ROW"
    );
}

#[test]
fn references_to_data_and_objects() {
    let main = r"    DATA dref TYPE REF TO i.
    DATA any TYPE REF TO data.
    DATA oref TYPE REF TO zcl_t.
    DATA n TYPE i VALUE 7.
    DATA(rd) = CAST cl_abap_refdescr( cl_abap_typedescr=>describe_by_data( dref ) ).
    out->write( |{ rd->kind } { rd->type_kind } { rd->length } { rd->get_referenced_type( )->absolute_name }| ).
    DATA(ro) = CAST cl_abap_refdescr( cl_abap_typedescr=>describe_by_data( oref ) ).
    out->write( |{ ro->type_kind } { ro->get_referenced_type( )->absolute_name } { ro->get_referenced_type( )->kind }| ).
    out->write( cl_abap_typedescr=>describe_by_data( any )->type_kind ).
    any = REF #( n ).
    out->write( cl_abap_typedescr=>describe_by_data_ref( any )->absolute_name ).";
    assert_eq!(out(main), "R l 8 \\TYPE=I\nr \\CLASS=ZCL_T C\nl\n\\TYPE=I");
    let (id, _) = harness::dump(run(r"    DATA any TYPE REF TO data.
    cl_abap_typedescr=>describe_by_data_ref( any )."));
    assert_eq!(id, "RAISE_EXCEPTION");
}

#[test]
fn classes_and_interfaces() {
    let intf = r"INTERFACE zif_shape PUBLIC.
  DATA sides TYPE i.
  METHODS area RETURNING VALUE(r) TYPE i.
ENDINTERFACE.
";
    let base = r"CLASS zcl_base DEFINITION PUBLIC ABSTRACT CREATE PUBLIC.
  PUBLIC SECTION.
    DATA name TYPE string.
    METHODS describe RETURNING VALUE(r) TYPE string.
  PROTECTED SECTION.
    DATA hidden_count TYPE i.
  PRIVATE SECTION.
    DATA secret TYPE i.
ENDCLASS.

CLASS zcl_base IMPLEMENTATION.
  METHOD describe.
  ENDMETHOD.
ENDCLASS.
";
    let square = r"CLASS zcl_square DEFINITION PUBLIC INHERITING FROM zcl_base FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES zif_shape.
    CLASS-DATA count TYPE i.
    CONSTANTS c_max TYPE i VALUE 4.
    METHODS describe REDEFINITION.
    CLASS-METHODS create IMPORTING side TYPE i OPTIONAL RETURNING VALUE(r) TYPE REF TO zcl_square.
  PRIVATE SECTION.
    METHODS helper CHANGING value TYPE p.
ENDCLASS.

CLASS zcl_square IMPLEMENTATION.
  METHOD zif_shape~area.
  ENDMETHOD.
  METHOD describe.
  ENDMETHOD.
  METHOD create.
  ENDMETHOD.
  METHOD helper.
  ENDMETHOD.
ENDCLASS.
";
    let decl = "    METHODS f IMPORTING x TYPE abap_bool RETURNING VALUE(r) TYPE string.";
    let methods = r"  METHOD f.
    r = COND #( WHEN x = abap_true THEN `X` ELSE `-` ).
  ENDMETHOD.";
    let main = r"    DATA(cd) = CAST cl_abap_classdescr( cl_abap_typedescr=>describe_by_name( 'ZCL_SQUARE' ) ).
    out->write( |{ cd->kind } { cd->type_kind } { cd->absolute_name } { cd->get_relative_name( ) } { cd->class_kind }| ).
    DATA(attributes) = cd->attributes.
    SORT attributes BY name.
    LOOP AT attributes INTO DATA(a).
      out->write( |a { a-name } { a-visibility } { f( a-is_class ) } { f( a-is_constant ) } { f( a-is_inherited ) } { f( a-is_interface ) } { a-type_kind }| ).
    ENDLOOP.
    DATA(methods) = cd->methods.
    SORT methods BY name.
    LOOP AT methods INTO DATA(m).
      out->write( |m { m-name } { m-visibility } { f( m-is_class ) } { f( m-is_inherited ) } { f( m-is_redefined ) } { f( m-is_interface ) } { lines( m-parameters ) }| ).
    ENDLOOP.
    LOOP AT cd->interfaces INTO DATA(i).
      out->write( |i { i-name }| ).
    ENDLOOP.
    DATA(parameters) = methods[ name = 'CREATE' ]-parameters.
    SORT parameters BY name.
    LOOP AT parameters INTO DATA(p).
      out->write( |p { p-name } { p-parm_kind } { f( p-by_value ) } { f( p-is_optional ) } { p-type_kind }| ).
    ENDLOOP.
    out->write( cd->get_super_class_type( )->absolute_name ).
    out->write( CAST cl_abap_classdescr( cd->get_super_class_type( ) )->class_kind ).
    out->write( cd->get_attribute_type( 'NAME' )->absolute_name ).
    DATA(id) = cl_abap_typedescr=>describe_by_name( 'ZIF_SHAPE' ).
    out->write( |{ id->kind } { id->type_kind } { id->absolute_name }| ).
    IF cl_abap_typedescr=>describe_by_object_ref( NEW zcl_square( ) ) = cd.
      out->write( `one description per class` ).
    ENDIF.
    out->write( cl_abap_classdescr=>get_class_name( NEW zcl_square( ) ) ).";
    let source = class_source(decl, main, methods);
    let files = [
        ("zcl_t.clas.abap", source.as_str()),
        ("zif_shape.intf.abap", intf),
        ("zcl_base.clas.abap", base),
        ("zcl_square.clas.abap", square),
    ];
    let o = harness::repo(&files)
        .run_classrun("ZCL_T", &mut NoDebugger)
        .unwrap_or_else(|e| panic!("run failed: {e:?}"));
    assert_eq!(
        o,
        r"C * \CLASS=ZCL_SQUARE ZCL_SQUARE F
a COUNT U X - - - I
a C_MAX U X X - - I
a HIDDEN_COUNT O - - X - I
a NAME U - - X - g
a ZIF_SHAPE~SIDES U - - - X I
m CREATE U X - - - 2
m DESCRIBE U - X X - 1
m HELPER I - - - - 1
m ZIF_SHAPE~AREA U - - - X 1
i ZIF_SHAPE
p R R X - r
p SIDE I - X I
\CLASS=ZCL_BASE
A
\TYPE=STRING
I + \INTERFACE=ZIF_SHAPE
one description per class
\CLASS=ZCL_SQUARE"
    );
}

#[test]
fn types_created_at_run_time() {
    let main = r"    DATA(sd) = cl_abap_structdescr=>create( VALUE #(
      ( name = 'ID' type = cl_abap_elemdescr=>get_i( ) )
      ( name = 'CODE' type = cl_abap_elemdescr=>get_c( 4 ) )
      ( name = 'AMOUNT' type = cl_abap_elemdescr=>get_p( p_length = 5 p_decimals = 2 ) ) ) ).
    out->write( |{ sd->kind } { sd->type_kind } { sd->length } { sd->struct_kind }| ).
    LOOP AT sd->components INTO DATA(c).
      out->write( |{ c-name } { c-type_kind } { c-length } { c-decimals }| ).
    ENDLOOP.
    DATA dref TYPE REF TO data.
    CREATE DATA dref TYPE HANDLE sd.
    ASSIGN dref->* TO FIELD-SYMBOL(<s>).
    ASSIGN COMPONENT 'ID' OF STRUCTURE <s> TO FIELD-SYMBOL(<id>).
    <id> = 5.
    ASSIGN COMPONENT 'AMOUNT' OF STRUCTURE <s> TO FIELD-SYMBOL(<amount>).
    <amount> = '1.235'.
    out->write( |{ <id> } { <amount> }| ).
    DATA(td) = cl_abap_tabledescr=>create( p_line_type = sd p_table_kind = cl_abap_tabledescr=>tablekind_sorted
                                           p_unique = abap_true
                                           p_key = VALUE #( ( name = 'ID' ) ) ).
    DATA tref TYPE REF TO data.
    CREATE DATA tref TYPE HANDLE td.
    FIELD-SYMBOLS <t> TYPE ANY TABLE.
    ASSIGN tref->* TO <t>.
    INSERT <s> INTO TABLE <t>.
    <id> = 2.
    INSERT <s> INTO TABLE <t>.
    INSERT <s> INTO TABLE <t>.
    out->write( |{ lines( <t> ) } { td->table_kind } { td->has_unique_key } { td->key_defkind }| ).
    LOOP AT <t> ASSIGNING FIELD-SYMBOL(<row>).
      ASSIGN COMPONENT 1 OF STRUCTURE <row> TO FIELD-SYMBOL(<k>).
      out->write( |{ <k> }| ).
    ENDLOOP.
    DATA(rd) = cl_abap_refdescr=>create( cl_abap_elemdescr=>get_string( ) ).
    DATA rref TYPE REF TO data.
    CREATE DATA rref TYPE HANDLE rd.
    out->write( cl_abap_typedescr=>describe_by_data_ref( rref )->type_kind ).
    DATA(nd) = cl_abap_elemdescr=>get_n( 3 ).
    CREATE DATA dref TYPE HANDLE nd.
    ASSIGN dref->* TO FIELD-SYMBOL(<n>).
    <n> = 7.
    out->write( <n> ).
    IF cl_abap_elemdescr=>get_c( 4 ) = cl_abap_elemdescr=>get_c( 4 ).
      out->write( `one description per type` ).
    ENDIF.";
    assert_eq!(
        out(main),
        "S u 20 F\nID I 4 0\nCODE C 8 0\nAMOUNT P 5 2\n5 1.24\n2 O X U\n2\n5\nl\n007\none description per type"
    );
}

#[test]
fn invalid_type_creations_raise_their_exceptions() {
    let main = r"    TRY.
        cl_abap_structdescr=>create( VALUE #( ) ).
      CATCH cx_sy_struct_attributes.
        out->write( `no components` ).
    ENDTRY.
    TRY.
        cl_abap_structdescr=>create( VALUE #( ( name = 'A' type = cl_abap_elemdescr=>get_i( ) )
                                              ( name = 'A' type = cl_abap_elemdescr=>get_i( ) ) ) ).
      CATCH cx_sy_struct_comp_name.
        out->write( `duplicate name` ).
    ENDTRY.
    TRY.
        cl_abap_structdescr=>create( VALUE #( ( name = 'A' ) ) ).
      CATCH cx_sy_struct_creation INTO DATA(e).
        out->write( cl_abap_typedescr=>describe_by_object_ref( e )->get_relative_name( ) ).
    ENDTRY.
    TRY.
        cl_abap_tabledescr=>create( p_line_type = cl_abap_elemdescr=>get_i( ) p_table_kind = 'H' ).
      CATCH cx_sy_table_creation.
        out->write( `hashed without unique key` ).
    ENDTRY.
    TRY.
        cl_abap_elemdescr=>get_c( 0 ).
      CATCH cx_parameter_invalid_range.
        out->write( `length 0` ).
    ENDTRY.
    TRY.
        cl_abap_elemdescr=>get_p( p_length = 17 p_decimals = 0 ).
      CATCH cx_parameter_invalid_range.
        out->write( `length 17` ).
    ENDTRY.";
    assert_eq!(
        out(main),
        "no components\nduplicate name\nCX_SY_STRUCT_COMP_TYPE\nhashed without unique key\nlength 0\nlength 17"
    );
    let (id, _) = harness::dump(run(r"    DATA dref TYPE REF TO data.
    DATA(cd) = cl_abap_typedescr=>describe_by_name( 'ZCL_T' ).
    CREATE DATA dref TYPE HANDLE cd."));
    assert_eq!(id, "CREATE_DATA_ILLEGAL_HANDLE");
}

#[test]
fn describe_by_name_takes_relative_and_absolute_names() {
    let decl = r"    TYPES ty_code TYPE c LENGTH 4.";
    let main = r"    DATA c TYPE c LENGTH 2.
    out->write( cl_abap_typedescr=>describe_by_name( 'i' )->absolute_name ).
    out->write( cl_abap_typedescr=>describe_by_name( 'TY_CODE' )->absolute_name ).
    out->write( cl_abap_typedescr=>describe_by_name( '\TYPE=STRING' )->type_kind ).
    out->write( |{ cl_abap_typedescr=>describe_by_name( '\CLASS=ZCL_T\TYPE=TY_CODE' )->length }| ).
    out->write( cl_abap_typedescr=>describe_by_name( '\TYPE-POOL=ABAP\TYPE=ABAP_BOOL' )->get_relative_name( ) ).
    DATA(tech) = cl_abap_typedescr=>describe_by_data( c ).
    IF cl_abap_typedescr=>describe_by_name( tech->absolute_name ) = tech.
      out->write( `technical name found` ).
    ENDIF.
    out->write( cl_abap_typedescr=>describe_by_name( '\CLASS=ZCL_T' )->kind ).";
    assert_eq!(
        out_with(decl, main, &[]),
        "\\TYPE=I\n\\CLASS=ZCL_T\\TYPE=TY_CODE\ng\n8\nABAP_BOOL\ntechnical name found\nC"
    );
    let (id, text) = harness::dump(run(
        r"    cl_abap_typedescr=>describe_by_name( 'ZZ_NO_SUCH_TYPE' ).",
    ));
    assert_eq!(id, "RAISE_EXCEPTION");
    assert!(text.contains("TYPE_NOT_FOUND"), "{text}");
}

#[test]
fn constants_have_the_values_of_a_real_system() {
    let main = r"    out->write( cl_abap_typedescr=>typekind_int && cl_abap_typedescr=>typekind_char
      && cl_abap_typedescr=>typekind_string && cl_abap_typedescr=>typekind_xstring
      && cl_abap_typedescr=>typekind_packed && cl_abap_typedescr=>typekind_struct1
      && cl_abap_typedescr=>typekind_struct2 && cl_abap_typedescr=>typekind_table
      && cl_abap_typedescr=>typekind_dref && cl_abap_typedescr=>typekind_oref
      && cl_abap_typedescr=>typekind_int8 && cl_abap_typedescr=>typekind_utclong ).
    out->write( cl_abap_elemdescr=>kind_elem && cl_abap_structdescr=>kind_struct
      && cl_abap_tabledescr=>kind_table && cl_abap_refdescr=>kind_ref
      && cl_abap_classdescr=>kind_class && cl_abap_intfdescr=>kind_intf ).
    out->write( cl_abap_tabledescr=>tablekind_std && cl_abap_tabledescr=>tablekind_sorted
      && cl_abap_tabledescr=>tablekind_hashed && cl_abap_structdescr=>structkind_flat
      && cl_abap_classdescr=>public && cl_abap_classdescr=>protected && cl_abap_classdescr=>private ).";
    assert_eq!(out(main), "ICgyPuvhlr8p\nESTRCI\nSOHFUOI");
}

#[test]
fn the_debugger_shows_a_descriptor_as_an_object_reference() {
    let main = r"    DATA i TYPE i.
    DATA(descr) = cl_abap_typedescr=>describe_by_data( i ).
    out->write( descr->absolute_name ).";
    let source = class_source("", main, "");
    let repo = harness::repo(&[("zcl_t.clas.abap", &source)]);
    let mut seen = None;
    let mut hook = on_stop(|ctx| {
        if ctx.statement() == "ENDMETHOD" {
            let records = ctx.variables(0, &["DESCR".to_string()]);
            let children = records
                .first()
                .and_then(|r| ctx.children(0, &r.id))
                .unwrap_or_default();
            seen = Some((records, children));
        }
        Resume::Run
    });
    let o = repo.run_classrun("ZCL_T", &mut hook);
    assert!(matches!(o, Ok(ref s) if s == "\\TYPE=I"), "{o:?}");
    let Some((records, children)) = seen else {
        panic!("no stop at ENDMETHOD");
    };
    let [descr] = records.as_slice() else {
        panic!("{records:?}");
    };
    assert_eq!(descr.meta_type, "objectref", "{descr:?}");
    let value = |name: &str| {
        children
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.value.clone())
            .unwrap_or_else(|| panic!("{name} missing: {children:?}"))
    };
    assert_eq!(value("ABSOLUTE_NAME"), "\\TYPE=I");
    assert_eq!(value("TYPE_KIND"), "I");
    assert_eq!(value("LENGTH"), "4 ");
}

#[test]
fn rtti_errors_never_panic() {
    for main in [
        "    cl_abap_typedescr=>describe_by_name( `` ).",
        "    DATA o TYPE REF TO object.\n    cl_abap_typedescr=>describe_by_object_ref( o ).",
        "    DATA d TYPE REF TO cl_abap_structdescr.\n    d->get_components( ).",
        "    cl_abap_tabledescr=>create( p_line_type = VALUE #( ) ).",
        "    cl_abap_refdescr=>create( VALUE #( ) ).",
        "    cl_abap_typedescr=>describe_by_name( '\\PROGRAM=X\\TYPE=Y' ).",
    ] {
        match run(main) {
            Err(RunError::Dump { .. }) => {}
            other => panic!("{main}: {other:?}"),
        }
    }
}

#[test]
fn the_included_view_and_the_types_of_cl_abap_structdescr() {
    let main = r"    TYPES: BEGIN OF ty_base,
             a TYPE i,
           END OF ty_base.
    TYPES: BEGIN OF ty_s.
             INCLUDE TYPE ty_base.
    TYPES:   b TYPE string,
           END OF ty_s.
    DATA s TYPE ty_s.
    DATA view TYPE cl_abap_structdescr=>included_view.
    DATA comps TYPE cl_abap_structdescr=>component_table.
    DATA(sd) = CAST cl_abap_structdescr( cl_abap_typedescr=>describe_by_data( s ) ).
    view = sd->get_included_view( ).
    LOOP AT view INTO DATA(v).
      out->write( |{ v-name } { v-type->type_kind }| ).
    ENDLOOP.
    out->write( |{ lines( comps ) }| ).";
    assert_eq!(out(main), "A I\nB g\n0");
    // `get_components( )` lists an included structure as one component: not here.
    let (id, text) = harness::dump(run(&format!(
        "{}\n    sd->get_components( ).",
        main.lines().take(12).collect::<Vec<_>>().join("\n")
    )));
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED", "{text}");
}

/// Declarations and statements that code using RTTI writes around it (the JSON library
/// ajson, among others).
#[test]
fn interface_types_references_to_them_and_their_components() {
    let intf = r"INTERFACE zif_nodes PUBLIC.
  TYPES: BEGIN OF ty_node,
           path  TYPE string,
           name  TYPE string,
           order TYPE i,
         END OF ty_node.
  TYPES ty_nodes TYPE SORTED TABLE OF ty_node WITH UNIQUE KEY path name
    WITH NON-UNIQUE SORTED KEY item_order COMPONENTS path order.
ENDINTERFACE.
";
    let decl = r"    METHODS first_name IMPORTING ir_node TYPE REF TO zif_nodes=>ty_node RETURNING VALUE(r) TYPE string.";
    let methods = r"  METHOD first_name.
    r = ir_node->name.
  ENDMETHOD.";
    let main = r"    DATA stack TYPE STANDARD TABLE OF REF TO zif_nodes=>ty_node WITH EMPTY KEY.
    DATA order TYPE zif_nodes=>ty_node-order.
    DATA nodes TYPE zif_nodes=>ty_nodes.
    INSERT VALUE #( path = '/' name = 'zulu' order = 1 ) INTO TABLE nodes.
    INSERT VALUE #( path = '/' name = 'alpha' order = 2 ) INTO TABLE nodes.
    LOOP AT nodes REFERENCE INTO DATA(r).
      APPEND r TO stack.
    ENDLOOP.
    out->write( first_name( stack[ 1 ] ) ).
    order = 7.
    out->write( cl_abap_typedescr=>describe_by_data( order )->type_kind ).
    DATA key TYPE string VALUE 'item_order'.
    LOOP AT nodes ASSIGNING FIELD-SYMBOL(<n>) USING KEY (key) WHERE path = '/'.
      out->write( <n>-name ).
    ENDLOOP.
    key = 'primary_key'.
    LOOP AT nodes ASSIGNING <n> USING KEY (key).
      out->write( <n>-name ).
    ENDLOOP.";
    let source = class_source(decl, main, methods);
    let o = harness::repo(&[
        ("zcl_t.clas.abap", source.as_str()),
        ("zif_nodes.intf.abap", intf),
    ])
    .run_classrun("ZCL_T", &mut NoDebugger)
    .unwrap_or_else(|e| panic!("run failed: {e:?}"));
    assert_eq!(o, "alpha\nI\nzulu\nalpha\nalpha\nzulu");
}

#[test]
fn constants_of_a_local_interface_with_typekind_values() {
    let locals = r"INTERFACE lif_kind.
  TYPES ty_kind TYPE c LENGTH 1.
  CONSTANTS table TYPE ty_kind VALUE cl_abap_typedescr=>typekind_table.
  CONSTANTS:
    BEGIN OF texts,
      string TYPE ty_kind VALUE cl_abap_typedescr=>typekind_string,
      char   TYPE ty_kind VALUE cl_abap_typedescr=>typekind_char,
    END OF texts.
ENDINTERFACE.
";
    let main = r"    DATA t TYPE string_table.
    CASE cl_abap_typedescr=>describe_by_data( t )->type_kind.
      WHEN lif_kind=>table.
        out->write( `a table` ).
    ENDCASE.
    out->write( lif_kind=>texts-string && lif_kind=>texts-char ).";
    assert_eq!(
        out_with("", main, &[("zcl_t.clas.locals_imp.abap", locals)]),
        "a table\ngC"
    );
}

#[test]
fn local_friends_of_the_global_class_declare_no_class() {
    let tests = r"CLASS ltcl_test DEFINITION DEFERRED.
CLASS zcl_t DEFINITION LOCAL FRIENDS ltcl_test.

CLASS ltcl_test DEFINITION FOR TESTING RISK LEVEL HARMLESS DURATION SHORT.
  PRIVATE SECTION.
    METHODS name FOR TESTING.
ENDCLASS.

CLASS ltcl_test IMPLEMENTATION.
  METHOD name.
    cl_abap_unit_assert=>assert_equals(
      act = cl_abap_typedescr=>describe_by_data( zcl_t=>create( ) )->type_kind
      exp = cl_abap_typedescr=>typekind_oref ).
  ENDMETHOD.
ENDCLASS.
";
    let decl = r"    CLASS-METHODS create RETURNING VALUE(r) TYPE REF TO zcl_t.";
    let methods = r"  METHOD create.
    r = NEW #( ).
  ENDMETHOD.";
    let source = class_source(decl, "", methods);
    let repo = harness::repo(&[
        ("zcl_t.clas.abap", source.as_str()),
        ("zcl_t.clas.testclasses.abap", tests),
    ]);
    let result = repo
        .run_unit_tests("ZCL_T", abap::ObjectKind::Class, None, &mut NoDebugger)
        .unwrap_or_else(|e| panic!("unit run failed: {e:?}"));
    assert!(result.passed(), "{result:?}");
    assert_eq!(result.classes.len(), 1, "{result:?}");
}

#[test]
fn classic_exceptions_of_descriptor_methods_set_sy_subrc() {
    let main = r"    DATA d TYPE REF TO cl_abap_typedescr.
    cl_abap_typedescr=>describe_by_name( EXPORTING p_name = 'ZZ_NO_SUCH_TYPE'
                                         RECEIVING p_descr_ref = d
                                         EXCEPTIONS type_not_found = 4 OTHERS = 8 ).
    out->write( |{ sy-subrc } { xsdbool( d IS BOUND ) }| ).
    cl_abap_typedescr=>describe_by_name( EXPORTING p_name = 'I'
                                         RECEIVING p_descr_ref = d
                                         EXCEPTIONS type_not_found = 4 ).
    out->write( |{ sy-subrc } { d->absolute_name }| ).
    DATA: BEGIN OF s,
            a TYPE i,
          END OF s.
    DATA(sd) = CAST cl_abap_structdescr( cl_abap_typedescr=>describe_by_data( s ) ).
    CALL METHOD sd->get_component_type
      EXPORTING
        p_name      = 'B'
      RECEIVING
        p_descr_ref = DATA(component)
      EXCEPTIONS
        OTHERS      = 3.
    out->write( |{ sy-subrc } { xsdbool( component IS BOUND ) }| ).";
    assert_eq!(out(main), "4 \n0 \\TYPE=I\n3 ");
}

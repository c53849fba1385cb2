//! Dynamic programming: `CREATE OBJECT`/`CREATE DATA` with types named at run time, `CALL
//! METHOD` with dynamic names, parameter lists and parameter tables, dynamic `ASSIGN`, `SORT
//! … BY (name)`/`BY (otab)`, `READ TABLE … WITH KEY (name) = …`, `WHERE (cond)`, and the
//! exceptions and sy-subrc values these give when a name does not resolve.

use crate::harness::{class_source, dump, repo, run, run_class};

/// Runs `main` in `ZCL_T` with `decl` in its public section and `methods` implemented.
fn run_with(decl: &str, main: &str, methods: &str) -> String {
    match run_class(&class_source(decl, main, methods)) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

const COUNTER: &str = "    DATA mv_count TYPE i.
    METHODS constructor IMPORTING iv_start TYPE i OPTIONAL.
    METHODS add IMPORTING iv_by TYPE i EXPORTING ev_old TYPE i CHANGING cv_log TYPE string
      RETURNING VALUE(rv_new) TYPE i.
    CLASS-METHODS twice IMPORTING iv TYPE i RETURNING VALUE(rv) TYPE i.
    METHODS hidden_call IMPORTING iv_name TYPE string RETURNING VALUE(rv) TYPE i.";

const COUNTER_IMPL: &str = "  METHOD constructor.
    mv_count = iv_start.
  ENDMETHOD.
  METHOD add.
    ev_old = mv_count.
    mv_count = mv_count + iv_by.
    cv_log = cv_log && |+{ iv_by }|.
    rv_new = mv_count.
  ENDMETHOD.
  METHOD twice.
    rv = iv * 2.
  ENDMETHOD.
  METHOD hidden_call.
    CALL METHOD (iv_name) EXPORTING iv = 21 RECEIVING rv = rv.
  ENDMETHOD.";

#[test]
fn create_object_takes_the_class_from_a_text_and_passes_exporting() {
    let o = run_with(
        COUNTER,
        "    DATA lo TYPE REF TO object.
    DATA lv_class TYPE string VALUE `ZCL_T`.
    CREATE OBJECT lo TYPE (lv_class) EXPORTING iv_start = 5.
    DATA lo_t TYPE REF TO zcl_t.
    lo_t ?= lo.
    out->write( |{ lo_t->mv_count }| ).
    CREATE OBJECT lo_t TYPE ('ZCL_T').
    out->write( |{ lo_t->mv_count }| ).",
        COUNTER_IMPL,
    );
    assert_eq!(o, "5\n0");
}

#[test]
fn create_object_of_an_unknown_or_abstract_class_raises_cx_sy_create_object_error() {
    let main = "    DATA lo TYPE REF TO object.
    TRY.
        CREATE OBJECT lo TYPE ('ZCL_DOES_NOT_EXIST').
      CATCH cx_sy_create_object_error.
        out->write( `unknown class` ).
    ENDTRY.
    TRY.
        CREATE OBJECT lo TYPE ('ZCL_T_ABSTRACT').
      CATCH cx_sy_create_object_error.
        out->write( `abstract class` ).
    ENDTRY.
    IF lo IS NOT BOUND.
      out->write( `not bound` ).
    ENDIF.";
    let abstract_class = "CLASS zcl_t_abstract DEFINITION PUBLIC ABSTRACT CREATE PUBLIC.
ENDCLASS.
CLASS zcl_t_abstract IMPLEMENTATION.
ENDCLASS.
";
    let r = repo(&[
        ("zcl_t.clas.abap", &class_source("", main, "")),
        ("zcl_t_abstract.clas.abap", abstract_class),
    ])
    .run_classrun("ZCL_T", &mut abap::NoDebugger);
    assert_eq!(r.expect("runs"), "unknown class\nabstract class\nnot bound");
}

#[test]
fn create_object_with_a_parameter_the_constructor_lacks_raises_param_not_found() {
    let o = run_with(
        COUNTER,
        "    DATA lo TYPE REF TO object.
    TRY.
        CREATE OBJECT lo TYPE ('ZCL_T') EXPORTING iv_other = 1.
      CATCH cx_sy_dyn_call_param_not_found.
        out->write( `no such parameter` ).
    ENDTRY.",
        COUNTER_IMPL,
    );
    assert_eq!(o, "no such parameter");
}

#[test]
fn create_data_with_dynamic_types() {
    let o = out("    DATA lr TYPE REF TO data.
    FIELD-SYMBOLS <lv> TYPE any.
    FIELD-SYMBOLS <lt> TYPE STANDARD TABLE.
    CREATE DATA lr TYPE ('I').
    ASSIGN lr->* TO <lv>.
    <lv> = 41.
    <lv> = <lv> + 1.
    out->write( |{ <lv> }| ).
    DATA lv_name TYPE c LENGTH 30 VALUE 'string'.
    CREATE DATA lr TYPE TABLE OF (lv_name).
    ASSIGN lr->* TO <lt>.
    APPEND `a` TO <lt>.
    APPEND `b` TO <lt>.
    out->write( |rows: { lines( <lt> ) }| ).
    CREATE DATA lr TYPE STANDARD TABLE OF ('I').
    ASSIGN lr->* TO <lt>.
    out->write( |rows: { lines( <lt> ) }| ).
    CREATE DATA lr TYPE REF TO ('STRING').
    ASSIGN lr->* TO <lv>.
    IF <lv> IS INITIAL.
      out->write( `initial reference` ).
    ENDIF.
    DATA lv_text TYPE string VALUE `like`.
    CREATE DATA lr LIKE lv_text.
    ASSIGN lr->* TO <lv>.
    <lv> = lv_text.
    out->write( <lv> ).");
    assert_eq!(o, "42\nrows: 2\nrows: 0\ninitial reference\nlike");
}

#[test]
fn create_data_of_an_unknown_or_generic_type_raises_cx_sy_create_data_error() {
    let o = out("    DATA lr TYPE REF TO data.
    TRY.
        CREATE DATA lr TYPE ('ZZ_NO_SUCH_TYPE').
      CATCH cx_sy_create_data_error.
        out->write( `unknown` ).
    ENDTRY.
    TRY.
        CREATE DATA lr TYPE ('ANY').
      CATCH cx_sy_create_data_error.
        out->write( `generic` ).
    ENDTRY.
    IF lr IS NOT BOUND.
      out->write( `not bound` ).
    ENDIF.");
    assert_eq!(o, "unknown\ngeneric\nnot bound");
}

#[test]
fn call_method_in_all_five_dynamic_forms() {
    let o = run_with(
        COUNTER,
        "    DATA lo TYPE REF TO object.
    lo = NEW zcl_t( ).
    DATA: lv_old TYPE i, lv_new TYPE i, lv_log TYPE string.
    DATA lv_meth TYPE string VALUE `ADD`.
    CALL METHOD lo->(lv_meth) EXPORTING iv_by = 3 IMPORTING ev_old = lv_old
      CHANGING cv_log = lv_log RECEIVING rv_new = lv_new.
    out->write( |{ lv_old } { lv_new } { lv_log }| ).
    DATA lv_class TYPE string VALUE `ZCL_T`.
    DATA lv_r TYPE i.
    CALL METHOD (lv_class)=>('TWICE') EXPORTING iv = 4 RECEIVING rv = lv_r.
    out->write( |{ lv_r }| ).
    CALL METHOD (lv_class)=>twice EXPORTING iv = 5 RECEIVING rv = lv_r.
    out->write( |{ lv_r }| ).
    CALL METHOD zcl_t=>('TWICE') EXPORTING iv = 6 RECEIVING rv = lv_r.
    out->write( |{ lv_r }| ).
    DATA lo_t TYPE REF TO zcl_t.
    lo_t ?= lo.
    out->write( |{ lo_t->hidden_call( `TWICE` ) }| ).
    out->write( |sy-subrc { sy-subrc }| ).",
        COUNTER_IMPL,
    );
    assert_eq!(o, "0 3 +3\n8\n10\n12\n42\nsy-subrc 0");
}

#[test]
fn dynamic_call_errors_are_catchable_cx_sy_dyn_call_exceptions() {
    let o = run_with(
        COUNTER,
        "    DATA lo TYPE REF TO object.
    lo = NEW zcl_t( ).
    DATA lv_r TYPE i.
    TRY.
        CALL METHOD lo->('NO_SUCH_METHOD').
      CATCH cx_sy_dyn_call_illegal_method.
        out->write( `unknown method` ).
    ENDTRY.
    TRY.
        CALL METHOD lo->('add').
      CATCH cx_sy_dyn_call_illegal_method.
        out->write( `lower case name` ).
    ENDTRY.
    TRY.
        CALL METHOD ('ZCL_NO_SUCH_CLASS')=>('TWICE').
      CATCH cx_sy_dyn_call_illegal_class.
        out->write( `unknown class` ).
    ENDTRY.
    TRY.
        CALL METHOD ('ZCL_T')=>('ADD') EXPORTING iv_by = 1.
      CATCH cx_sy_dyn_call_illegal_method.
        out->write( `instance method from the class` ).
    ENDTRY.
    TRY.
        CALL METHOD lo->('CONSTRUCTOR').
      CATCH cx_sy_dyn_call_illegal_method.
        out->write( `constructor` ).
    ENDTRY.
    TRY.
        CALL METHOD lo->('TWICE') RECEIVING rv = lv_r.
      CATCH cx_sy_dyn_call_param_missing.
        out->write( `missing parameter` ).
    ENDTRY.
    TRY.
        CALL METHOD lo->('TWICE') EXPORTING iv = 1 iv_extra = 2.
      CATCH cx_sy_dyn_call_param_not_found.
        out->write( `unknown parameter` ).
    ENDTRY.
    TRY.
        CALL METHOD lo->('TWICE') IMPORTING iv = lv_r.
      CATCH cx_sy_dyn_call_illegal_type.
        out->write( `wrong kind` ).
    ENDTRY.
    DATA lo_none TYPE REF TO object.
    TRY.
        CALL METHOD lo_none->('TWICE').
      CATCH cx_sy_ref_is_initial.
        out->write( `initial reference` ).
    ENDTRY.
    TRY.
        CALL METHOD lo->('NO_SUCH_METHOD').
      CATCH cx_sy_dyn_call_error.
        out->write( `superclass catches` ).
    ENDTRY.",
        COUNTER_IMPL,
    );
    assert_eq!(
        o,
        "unknown method\nlower case name\nunknown class\ninstance method from the class\n\
         constructor\nmissing parameter\nunknown parameter\nwrong kind\ninitial reference\n\
         superclass catches"
    );
}

#[test]
fn an_uncaught_unknown_method_ends_with_dyn_call_meth_not_found() {
    let (id, _) = dump(run("    DATA lo TYPE REF TO object.
    lo = NEW zcl_t( ).
    CALL METHOD lo->('NO_SUCH_METHOD')."));
    assert_eq!(id, "DYN_CALL_METH_NOT_FOUND");
}

#[test]
fn parameter_table_binds_by_kind_and_aliases_the_referenced_data() {
    let o = run_with(
        COUNTER,
        "    DATA lo TYPE REF TO object.
    lo = NEW zcl_t( iv_start = 10 ).
    DATA: lv_by TYPE i VALUE 7, lv_old TYPE i, lv_new TYPE i, lv_log TYPE string VALUE `log`.
    DATA(lt_params) = VALUE abap_parmbind_tab(
      ( name = 'IV_BY' kind = cl_abap_objectdescr=>exporting value = REF #( lv_by ) )
      ( name = 'EV_OLD' kind = cl_abap_objectdescr=>importing value = REF #( lv_old ) )
      ( name = 'CV_LOG' kind = cl_abap_objectdescr=>changing value = REF #( lv_log ) )
      ( name = 'RV_NEW' kind = cl_abap_objectdescr=>receiving value = REF #( lv_new ) ) ).
    CALL METHOD lo->('ADD') PARAMETER-TABLE lt_params.
    out->write( |{ lv_old } { lv_new } { lv_log }| ).
    DATA(lt_no_kind) = VALUE abap_parmbind_tab( ( name = 'IV_BY' value = REF #( lv_by ) )
                                                ( name = 'CV_LOG' value = REF #( lv_log ) ) ).
    DATA(lt_excp) = VALUE abap_excpbind_tab( ( name = 'OTHERS' value = 4 ) ).
    CALL METHOD lo->('ADD') PARAMETER-TABLE lt_no_kind EXCEPTION-TABLE lt_excp.
    out->write( |sy-subrc { sy-subrc }| ).
    CALL METHOD lo->('ADD') PARAMETER-TABLE lt_params.
    out->write( |{ lv_old } { lv_new } { lv_log }| ).",
        COUNTER_IMPL,
    );
    assert_eq!(o, "10 17 log+7\nsy-subrc 0\n24 31 log+7+7+7");
}

#[test]
fn parameter_table_errors_are_catchable() {
    let o = run_with(
        COUNTER,
        "    DATA lo TYPE REF TO object.
    lo = NEW zcl_t( ).
    DATA lv_by TYPE i VALUE 1.
    DATA lv_log TYPE string.
    DATA lr_none TYPE REF TO data.
    DATA lt_params TYPE abap_parmbind_tab.
    lt_params = VALUE #( ( name = 'IV_BY' value = REF #( lv_by ) )
                         ( name = 'CV_LOG' value = REF #( lv_log ) )
                         ( name = 'IV_NOPE' value = REF #( lv_by ) ) ).
    TRY.
        CALL METHOD lo->('ADD') PARAMETER-TABLE lt_params.
      CATCH cx_sy_dyn_call_param_not_found.
        out->write( `unknown parameter` ).
    ENDTRY.
    lt_params = VALUE #( ( name = 'IV_BY' kind = cl_abap_objectdescr=>importing
                           value = REF #( lv_by ) )
                         ( name = 'CV_LOG' value = REF #( lv_log ) ) ).
    TRY.
        CALL METHOD lo->('ADD') PARAMETER-TABLE lt_params.
      CATCH cx_sy_dyn_call_illegal_type.
        out->write( `wrong kind` ).
    ENDTRY.
    lt_params = VALUE #( ( name = 'IV_BY' value = lr_none )
                         ( name = 'CV_LOG' value = REF #( lv_log ) ) ).
    TRY.
        CALL METHOD lo->('ADD') PARAMETER-TABLE lt_params.
      CATCH cx_sy_dyn_call_param_missing.
        out->write( `initial reference` ).
    ENDTRY.
    CLEAR lt_params.
    TRY.
        CALL METHOD lo->('ADD') PARAMETER-TABLE lt_params.
      CATCH cx_sy_dyn_call_param_missing.
        out->write( `missing parameter` ).
    ENDTRY.",
        COUNTER_IMPL,
    );
    assert_eq!(
        o,
        "unknown parameter\nwrong kind\ninitial reference\nmissing parameter"
    );
}

#[test]
fn classic_exceptions_of_dynamic_calls_set_sy_subrc() {
    let o = run_with(
        "    METHODS find IMPORTING iv TYPE i RETURNING VALUE(rv) TYPE i EXCEPTIONS not_found.",
        "    DATA lv_r TYPE i.
    CALL METHOD me->('FIND') EXPORTING iv = 0 RECEIVING rv = lv_r EXCEPTIONS not_found = 4.
    out->write( |list: { sy-subrc }| ).
    DATA lv_in TYPE i.
    DATA(lt_params) = VALUE abap_parmbind_tab(
      ( name = 'IV' kind = cl_abap_objectdescr=>exporting value = REF #( lv_in ) )
      ( name = 'RV' kind = cl_abap_objectdescr=>receiving value = REF #( lv_r ) ) ).
    DATA(lt_excp) = VALUE abap_excpbind_tab( ( name = 'NOT_FOUND' value = 7 ) ).
    CALL METHOD me->('FIND') PARAMETER-TABLE lt_params EXCEPTION-TABLE lt_excp.
    out->write( |table: { sy-subrc }| ).
    lt_excp = VALUE #( ( name = 'OTHERS' value = 9 ) ).
    CALL METHOD me->('FIND') PARAMETER-TABLE lt_params EXCEPTION-TABLE lt_excp.
    out->write( |others: { sy-subrc }| ).
    lv_in = 5.
    CALL METHOD me->('FIND') PARAMETER-TABLE lt_params EXCEPTION-TABLE lt_excp.
    out->write( |found: { sy-subrc } { lv_r }| ).",
        "  METHOD find.
    IF iv = 0.
      RAISE not_found.
    ENDIF.
    rv = iv * 10.
  ENDMETHOD.",
    );
    assert_eq!(o, "list: 4\ntable: 7\nothers: 9\nfound: 0 50");
}

#[test]
fn a_functional_dynamic_call_is_not_supported() {
    let (id, _) = dump(run("    DATA lo TYPE REF TO object.
    lo = NEW zcl_t( ).
    DATA(lv_x) = lo->('GET')( )."));
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
}

#[test]
fn assign_with_dynamic_class_attribute_and_component_names() {
    let o = run_with(
        "    CLASS-DATA gv_static TYPE i VALUE 8.
    DATA mv_attr TYPE i VALUE 9.",
        "    DATA lv_class TYPE string VALUE `ZCL_T`.
    DATA lv_attr TYPE string VALUE `GV_STATIC`.
    ASSIGN (lv_class)=>(lv_attr) TO FIELD-SYMBOL(<lv_a>).
    out->write( |{ sy-subrc } { <lv_a> }| ).
    ASSIGN (lv_class)=>gv_static TO FIELD-SYMBOL(<lv_b>).
    out->write( |{ sy-subrc } { <lv_b> }| ).
    ASSIGN zcl_t=>(lv_attr) TO FIELD-SYMBOL(<lv_c>).
    <lv_c> = 80.
    out->write( |{ sy-subrc } { gv_static }| ).
    DATA(lo) = NEW zcl_t( ).
    ASSIGN lo->('MV_ATTR') TO FIELD-SYMBOL(<lv_d>).
    out->write( |{ sy-subrc } { <lv_d> }| ).
    TYPES: BEGIN OF ty_pair, key TYPE string, val TYPE i, END OF ty_pair.
    DATA ls_pair TYPE ty_pair.
    DATA lv_comp TYPE string VALUE `VAL`.
    ASSIGN ls_pair-(lv_comp) TO FIELD-SYMBOL(<lv_e>).
    <lv_e> = 3.
    out->write( |{ sy-subrc } { ls_pair-val }| ).
    ASSIGN ('ZCL_NO_SUCH_CLASS')=>(lv_attr) TO <lv_a>.
    out->write( |{ sy-subrc } { <lv_a> }| ).
    ASSIGN ls_pair-('NO_SUCH_COMPONENT') TO <lv_e>.
    out->write( |{ sy-subrc } { <lv_e> }| ).
    ASSIGN lo->('NO_SUCH_ATTR') TO <lv_d>.
    out->write( |{ sy-subrc }| ).",
        "",
    );
    assert_eq!(o, "0 8\n0 8\n0 80\n0 9\n0 3\n4 80\n4 3\n4");
}

const ROWS: &str = "    TYPES: BEGIN OF ty_row, id TYPE i, name TYPE string, END OF ty_row.
    DATA lt TYPE STANDARD TABLE OF ty_row WITH EMPTY KEY.
    DATA ls TYPE ty_row.
    lt = VALUE #( ( id = 2 name = `b` ) ( id = 1 name = `c` ) ( id = 3 name = `a` ) ).
";

fn rows_then(main: &str) -> String {
    out(&format!("{ROWS}{main}"))
}

#[test]
fn sort_by_dynamic_components_and_sort_order_tables() {
    let o = rows_then(
        "    DATA lv_comp TYPE string VALUE `NAME`.
    SORT lt BY (lv_comp).
    LOOP AT lt INTO ls. out->write( ls-name ). ENDLOOP.
    SORT lt BY (lv_comp) DESCENDING.
    LOOP AT lt INTO ls. out->write( ls-name ). ENDLOOP.
    DATA(lt_order) = VALUE abap_sortorder_tab( ( name = 'ID' descending = abap_true ) ).
    SORT lt BY (lt_order).
    LOOP AT lt INTO ls. out->write( |{ ls-id }| ). ENDLOOP.
    CLEAR lv_comp.
    SORT lt BY (lv_comp).
    LOOP AT lt INTO ls. out->write( |{ ls-id }| ). ENDLOOP.",
    );
    assert_eq!(o, "a\nb\nc\nc\nb\na\n3\n2\n1\n3\n2\n1");
}

#[test]
fn a_sort_order_table_naming_no_component_raises_cx_sy_dyn_table_ill_comp_val() {
    let o = rows_then(
        "    DATA(lt_order) = VALUE abap_sortorder_tab( ( name = 'NO_SUCH' ) ).
    TRY.
        SORT lt BY (lt_order).
      CATCH cx_sy_dyn_table_ill_comp_val.
        out->write( `invalid component` ).
    ENDTRY.
    lt_order = VALUE #( ( name = 'ID' descending = 'Y' ) ).
    TRY.
        SORT lt BY (lt_order).
      CATCH cx_sy_dyn_table_ill_comp_val.
        out->write( `invalid flag` ).
    ENDTRY.",
    );
    assert_eq!(o, "invalid component\ninvalid flag");
}

#[test]
fn a_single_dynamic_sort_component_that_does_not_exist_is_a_runtime_error() {
    let (id, _) = dump(run(&format!(
        "{ROWS}    DATA lv_comp TYPE string VALUE `NO_SUCH`.
    SORT lt BY (lv_comp)."
    )));
    assert_eq!(id, "ITAB_ILLEGAL_COMPONENT");
}

#[test]
fn read_table_with_a_dynamic_key() {
    let o = rows_then(
        "    DATA lv_comp TYPE string VALUE `NAME`.
    READ TABLE lt INTO ls WITH KEY (lv_comp) = `c`.
    out->write( |{ sy-subrc } { sy-tabix } { ls-id }| ).
    READ TABLE lt WITH KEY ('ID') = 3 (lv_comp) = `a` ASSIGNING FIELD-SYMBOL(<ls_row>).
    out->write( |{ sy-subrc } { sy-tabix } { <ls_row>-name }| ).
    READ TABLE lt TRANSPORTING NO FIELDS WITH KEY (lv_comp) = `zzz`.
    out->write( |{ sy-subrc } { sy-tabix }| ).",
    );
    assert_eq!(o, "0 2 1\n0 3 a\n4 0");
}

#[test]
fn loop_and_delete_with_a_dynamic_where_condition() {
    let o = rows_then(
        "    DATA lv_where TYPE string VALUE `ID >= 2 AND name <> 'a'`.
    LOOP AT lt INTO ls WHERE (lv_where).
      out->write( ls-name ).
    ENDLOOP.
    CLEAR lv_where.
    LOOP AT lt INTO ls WHERE (lv_where).
      out->write( |{ ls-id }| ).
    ENDLOOP.
    DATA lt_cond TYPE STANDARD TABLE OF string WITH EMPTY KEY.
    lt_cond = VALUE #( ( `ID = 1` ) ( `OR ID = 3` ) ).
    DELETE lt WHERE (lt_cond).
    out->write( |left { lines( lt ) } { sy-subrc }| ).
    TRY.
        LOOP AT lt INTO ls WHERE ('ID >').
        ENDLOOP.
      CATCH cx_sy_itab_dyn_loop.
        out->write( `invalid condition` ).
    ENDTRY.",
    );
    assert_eq!(o, "b\n2\n1\n3\nleft 1 0\ninvalid condition");
}

const SHAPES: &str = "INTERFACE zif_t_shape PUBLIC.
  METHODS area RETURNING VALUE(rv) TYPE i.
ENDINTERFACE.
";

const SQUARE: &str = "CLASS zcl_t_square DEFINITION PUBLIC CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES zif_t_shape.
    TYPES ty_side TYPE p LENGTH 8 DECIMALS 2.
    DATA mv_side TYPE i VALUE 3.
ENDCLASS.
CLASS zcl_t_square IMPLEMENTATION.
  METHOD zif_t_shape~area.
    rv = mv_side * mv_side.
  ENDMETHOD.
ENDCLASS.
";

#[test]
fn interface_references_and_class_types_work_with_dynamic_names() {
    let main = "    DATA lo_shape TYPE REF TO zif_t_shape.
    CREATE OBJECT lo_shape TYPE ('ZCL_T_SQUARE').
    DATA lv_area TYPE i.
    CALL METHOD lo_shape->('AREA') RECEIVING rv = lv_area.
    out->write( |{ lv_area }| ).
    DATA lo_any TYPE REF TO object.
    lo_any = lo_shape.
    CALL METHOD lo_any->('ZIF_T_SHAPE~AREA') RECEIVING rv = lv_area.
    out->write( |{ lv_area }| ).
    DATA lr TYPE REF TO data.
    CREATE DATA lr TYPE ('ZCL_T_SQUARE=>TY_SIDE').
    ASSIGN lr->* TO FIELD-SYMBOL(<lv_side>).
    <lv_side> = '1.255'.
    out->write( |{ <lv_side> }| ).
    CREATE DATA lr TYPE ('\\TYPE=I').
    ASSIGN lr->* TO FIELD-SYMBOL(<lv_int>).
    <lv_int> = 7.
    out->write( |{ <lv_int> }| ).
    CREATE DATA lr TYPE REF TO ('ZCL_T_SQUARE').
    ASSIGN lr->* TO FIELD-SYMBOL(<lo_ref>).
    IF <lo_ref> IS INITIAL.
      out->write( `initial object reference` ).
    ENDIF.";
    let r = repo(&[
        ("zcl_t.clas.abap", &class_source("", main, "")),
        ("zif_t_shape.intf.abap", SHAPES),
        ("zcl_t_square.clas.abap", SQUARE),
    ])
    .run_classrun("ZCL_T", &mut abap::NoDebugger);
    assert_eq!(r.expect("runs"), "9\n9\n1.26\n7\ninitial object reference");
}

#[test]
fn static_create_statements_with_parentheses_in_their_arguments_stay_static() {
    let o = run_with(
        COUNTER,
        "    DATA lo TYPE REF TO zcl_t.
    CREATE OBJECT lo TYPE zcl_t EXPORTING iv_start = ( 2 + 3 ).
    out->write( |{ lo->mv_count }| ).
    DATA lr TYPE REF TO data.
    CREATE DATA lr TYPE c LENGTH 4.
    ASSIGN lr->* TO FIELD-SYMBOL(<lv_c>).
    <lv_c> = 'abcdef'.
    out->write( |{ <lv_c> }| ).",
        COUNTER_IMPL,
    );
    assert_eq!(o, "5\nabcd");
}

#[test]
fn sort_by_an_expression_giving_a_sort_order_table() {
    let o = rows_then(
        "    SORT lt BY VALUE abap_sortorder_tab( ( name = 'NAME' descending = abap_true ) ).
    LOOP AT lt INTO ls. out->write( ls-name ). ENDLOOP.",
    );
    assert_eq!(o, "c\nb\na");
}

#[test]
fn read_table_with_a_dynamic_table_key() {
    let o = out(
        "    TYPES: BEGIN OF ty_row, id TYPE i, name TYPE string, END OF ty_row.
    DATA lt TYPE SORTED TABLE OF ty_row WITH UNIQUE KEY id.
    lt = VALUE #( ( id = 3 name = `c` ) ( id = 1 name = `a` ) ( id = 2 name = `b` ) ).
    DATA lv_comp TYPE c LENGTH 10 VALUE 'id'.
    READ TABLE lt WITH TABLE KEY (lv_comp) = 2 INTO DATA(ls).
    out->write( |{ sy-subrc } { sy-tabix } { ls-name }| ).",
    );
    assert_eq!(o, "0 2 b");
}

#[test]
fn receiving_from_a_method_without_returning_raises_param_not_found() {
    let o = run_with(
        "    METHODS nothing.",
        "    DATA lv_r TYPE i.
    TRY.
        CALL METHOD me->('NOTHING') RECEIVING r = lv_r.
      CATCH cx_sy_dyn_call_param_not_found.
        out->write( `no RETURNING parameter` ).
    ENDTRY.
    CALL METHOD me->('NOTHING').
    out->write( `called` ).",
        "  METHOD nothing.
  ENDMETHOD.",
    );
    assert_eq!(o, "no RETURNING parameter\ncalled");
}

#[test]
fn create_data_with_lengths_and_decimals_known_at_run_time() {
    let o = out("    DATA lr TYPE REF TO data.
    DATA lv_len TYPE i VALUE 5.
    DATA lv_dec TYPE i VALUE 2.
    CREATE DATA lr TYPE c LENGTH lv_len.
    ASSIGN lr->* TO FIELD-SYMBOL(<lv_c>).
    <lv_c> = 'abcdefgh'.
    out->write( |{ <lv_c> }| ).
    CREATE DATA lr TYPE p LENGTH lv_len DECIMALS lv_dec.
    ASSIGN lr->* TO FIELD-SYMBOL(<lv_p>).
    <lv_p> = '3.14159'.
    out->write( |{ <lv_p> }| ).
    DATA lv_type TYPE string VALUE `N`.
    CREATE DATA lr TYPE (lv_type) LENGTH 3.
    ASSIGN lr->* TO FIELD-SYMBOL(<lv_n>).
    <lv_n> = 7.
    out->write( |{ <lv_n> }| ).
    lv_len = 0.
    TRY.
        CREATE DATA lr TYPE c LENGTH lv_len.
      CATCH cx_sy_create_data_error.
        out->write( `length 0` ).
    ENDTRY.
    TRY.
        CREATE DATA lr TYPE ('I') LENGTH 4.
      CATCH cx_sy_create_data_error.
        out->write( `LENGTH for i` ).
    ENDTRY.
    lv_dec = 15.
    TRY.
        CREATE DATA lr TYPE p LENGTH 16 DECIMALS lv_dec.
      CATCH cx_sy_create_data_error.
        out->write( `15 decimals` ).
    ENDTRY.");
    assert_eq!(o, "abcde\n3.14\n007\nlength 0\nLENGTH for i\n15 decimals");
}

#[test]
fn create_private_and_protected_classes_refuse_dynamic_creation_from_outside() {
    let single = "CLASS zcl_t_single DEFINITION PUBLIC FINAL CREATE PRIVATE.
  PUBLIC SECTION.
    CLASS-METHODS create RETURNING VALUE(ro) TYPE REF TO zcl_t_single.
ENDCLASS.
CLASS zcl_t_single IMPLEMENTATION.
  METHOD create.
    CREATE OBJECT ro TYPE ('ZCL_T_SINGLE').
  ENDMETHOD.
ENDCLASS.
";
    let guarded = "CLASS zcl_t_guarded DEFINITION PUBLIC CREATE PROTECTED.
ENDCLASS.
CLASS zcl_t_guarded IMPLEMENTATION.
ENDCLASS.
";
    let befriended = "CLASS zcl_t_friendly DEFINITION PUBLIC CREATE PRIVATE GLOBAL FRIENDS zcl_t.
ENDCLASS.
CLASS zcl_t_friendly IMPLEMENTATION.
ENDCLASS.
";
    let main = "    DATA lo TYPE REF TO object.
    TRY.
        CREATE OBJECT lo TYPE ('ZCL_T_SINGLE').
      CATCH cx_sy_create_object_error.
        out->write( `CREATE PRIVATE refused` ).
    ENDTRY.
    TRY.
        CREATE OBJECT lo TYPE ('ZCL_T_GUARDED').
      CATCH cx_sy_create_object_error.
        out->write( `CREATE PROTECTED refused` ).
    ENDTRY.
    IF zcl_t_single=>create( ) IS BOUND.
      out->write( `created by its own factory` ).
    ENDIF.
    CREATE OBJECT lo TYPE ('ZCL_T_FRIENDLY').
    IF lo IS BOUND.
      out->write( `created by a friend` ).
    ENDIF.";
    let r = repo(&[
        ("zcl_t.clas.abap", &class_source("", main, "")),
        ("zcl_t_single.clas.abap", single),
        ("zcl_t_guarded.clas.abap", guarded),
        ("zcl_t_friendly.clas.abap", befriended),
    ])
    .run_classrun("ZCL_T", &mut abap::NoDebugger);
    assert_eq!(
        r.expect("runs"),
        "CREATE PRIVATE refused\nCREATE PROTECTED refused\ncreated by its own factory\n\
         created by a friend"
    );
}

#[test]
fn private_and_protected_methods_cannot_be_called_dynamically_from_outside() {
    let vault = "CLASS zcl_t_vault DEFINITION PUBLIC CREATE PUBLIC.
  PUBLIC SECTION.
    METHODS open RETURNING VALUE(rv) TYPE string.
  PROTECTED SECTION.
    METHODS hinge RETURNING VALUE(rv) TYPE string.
  PRIVATE SECTION.
    METHODS secret RETURNING VALUE(rv) TYPE string.
ENDCLASS.
CLASS zcl_t_vault IMPLEMENTATION.
  METHOD open.
    CALL METHOD me->('SECRET') RECEIVING rv = rv.
  ENDMETHOD.
  METHOD hinge.
    rv = `hinge`.
  ENDMETHOD.
  METHOD secret.
    rv = `secret`.
  ENDMETHOD.
ENDCLASS.
";
    let main = "    DATA lo TYPE REF TO object.
    lo = NEW zcl_t_vault( ).
    DATA lv TYPE string.
    TRY.
        CALL METHOD lo->('SECRET') RECEIVING rv = lv.
      CATCH cx_sy_dyn_call_illegal_method.
        out->write( `private refused` ).
    ENDTRY.
    TRY.
        CALL METHOD lo->('HINGE') RECEIVING rv = lv.
      CATCH cx_sy_dyn_call_illegal_method.
        out->write( `protected refused` ).
    ENDTRY.
    CALL METHOD lo->('OPEN') RECEIVING rv = lv.
    out->write( lv ).";
    let r = repo(&[
        ("zcl_t.clas.abap", &class_source("", main, "")),
        ("zcl_t_vault.clas.abap", vault),
    ])
    .run_classrun("ZCL_T", &mut abap::NoDebugger);
    assert_eq!(
        r.expect("runs"),
        "private refused\nprotected refused\nsecret"
    );
}

#[test]
fn the_debugger_stops_in_a_dynamically_called_method_and_names_dynamic_statements() {
    let main = "    DATA lo TYPE REF TO object.
    CREATE OBJECT lo TYPE ('ZCL_T').
    DATA: lv_old TYPE i, lv_log TYPE string.
    CALL METHOD lo->('ADD') EXPORTING iv_by = 1 IMPORTING ev_old = lv_old
      CHANGING cv_log = lv_log.
    DATA lt TYPE string_table.
    SORT lt BY ('TABLE_LINE').";
    let r = repo(&[(
        "zcl_t.clas.abap",
        &class_source(COUNTER, main, COUNTER_IMPL),
    )]);
    let mut stops: Vec<(String, String, usize)> = Vec::new();
    let mut hook = crate::harness::on_stop(|ctx| {
        let at = ctx.location();
        stops.push((at.event_name, ctx.statement(), ctx.depth()));
        abap::Resume::Run
    });
    r.run_classrun("ZCL_T", &mut hook).expect("runs");
    let main_stmts: Vec<&str> = stops
        .iter()
        .filter(|(e, _, d)| e == "IF_OO_ADT_CLASSRUN~MAIN" && *d == 1)
        .map(|(_, s, _)| s.as_str())
        .collect();
    assert!(main_stmts.contains(&"CREATE OBJECT"), "{stops:?}");
    assert!(main_stmts.contains(&"CALL METHOD"), "{stops:?}");
    assert!(main_stmts.contains(&"SORT"), "{stops:?}");
    assert!(
        stops.iter().any(|(e, _, d)| e == "ADD" && *d == 2),
        "no stop inside ADD: {stops:?}"
    );
    assert!(
        stops.iter().any(|(e, _, d)| e == "CONSTRUCTOR" && *d == 2),
        "no stop inside the constructor: {stops:?}"
    );
}

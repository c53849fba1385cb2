//! Open SQL against the sample tables (`samples/zsmp_*.tabl.xml` with their data files):
//! results, `sy-subrc`/`sy-dbcnt`, targets, loops, writes and the logical unit of work,
//! dictionary types, and what the debugger sees at a `SELECT`.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use abap::{NoDebugger, Repository, Resume, RunError};

use crate::harness::{class_source, dump, on_stop, repo};

fn database() -> Arc<Mutex<opensql::Database>> {
    let mut db = opensql::Database::open(&opensql::Options::default()).expect("database opens");
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    db.load_dir(&samples).expect("the sample tables load");
    Arc::new(Mutex::new(db))
}

fn repo_with(db: &Arc<Mutex<opensql::Database>>, main: &str) -> Repository {
    let mut r = repo(&[("zcl_t.clas.abap", &class_source("", main, ""))]);
    r.set_database(db.clone());
    r
}

fn run_sql(main: &str) -> Result<String, RunError> {
    repo_with(&database(), main).run_classrun("ZCL_T", &mut NoDebugger)
}

#[test]
fn select_single_sets_the_target_subrc_and_dbcnt() {
    let out = run_sql(
        r#"
    SELECT SINGLE customer, total FROM zsmp_orders WHERE order_id = '0001' INTO @DATA(ls).
    out->write( |{ sy-subrc } { sy-dbcnt } { ls-customer } { ls-total }| ).
    SELECT SINGLE customer FROM zsmp_orders WHERE order_id = '0042' INTO @DATA(lv_none).
    out->write( |{ sy-subrc } { sy-dbcnt } [{ lv_none }]| )."#,
    )
    .expect("runs");
    assert_eq!(out, "0 1 ACME 100.50\n4 0 []");
}

#[test]
fn select_into_table_with_where_and_order_by() {
    let out = run_sql(
        r#"
    DATA lt TYPE STANDARD TABLE OF zsmp_orders WITH EMPTY KEY.
    SELECT * FROM zsmp_orders WHERE status = 'O' ORDER BY total DESCENDING INTO TABLE @lt.
    out->write( |{ sy-subrc } { sy-dbcnt } { lines( lt ) }| ).
    LOOP AT lt INTO DATA(ls).
      out->write( |{ ls-order_id } { ls-customer } { ls-total }| ).
    ENDLOOP."#,
    )
    .expect("runs");
    assert_eq!(
        out,
        "0 3 3\n0004 GAMMA 310.00\n0001 ACME 100.50\n0003 ACME 75.00"
    );
}

#[test]
fn select_endselect_runs_the_body_per_row_with_dbcnt() {
    let out = run_sql(
        r#"
    DATA ls TYPE zsmp_orders.
    SELECT * FROM zsmp_orders INTO @ls WHERE customer = 'BETA' ORDER BY order_id.
      out->write( |{ sy-dbcnt }: { ls-order_id }| ).
    ENDSELECT.
    out->write( |after { sy-subrc } { sy-dbcnt }| ).
    SELECT * FROM zsmp_orders INTO @ls WHERE customer = 'NOBODY'.
      out->write( 'never' ).
    ENDSELECT.
    out->write( |none { sy-subrc } { sy-dbcnt }| )."#,
    )
    .expect("runs");
    assert_eq!(out, "1: 0002\n2: 0005\nafter 0 2\nnone 4 0");
}

#[test]
fn writes_are_seen_at_once_and_rollback_undoes_them() {
    let out = run_sql(
        r#"
    DATA ls TYPE zsmp_stock.
    ls = VALUE #( product = 'GEAR' on_hand = 7 location = 'C3' ).
    INSERT zsmp_stock FROM @ls.
    out->write( |insert { sy-subrc } { sy-dbcnt }| ).
    INSERT zsmp_stock FROM @ls.
    out->write( |again { sy-subrc } { sy-dbcnt }| ).
    UPDATE zsmp_stock SET on_hand = on_hand + 3 WHERE location LIKE 'A%'.
    out->write( |update { sy-subrc } { sy-dbcnt }| ).
    DELETE FROM zsmp_stock WHERE on_hand < 50.
    out->write( |delete { sy-subrc } { sy-dbcnt }| ).
    SELECT COUNT( * ) FROM zsmp_stock INTO @DATA(n).
    out->write( |count { n }| ).
    ROLLBACK WORK.
    SELECT COUNT( * ) FROM zsmp_stock INTO @n.
    out->write( |after rollback { n }| )."#,
    )
    .expect("runs");
    assert_eq!(
        out,
        "insert 0 1\nagain 4 0\nupdate 0 2\ndelete 0 2\ncount 2\nafter rollback 3"
    );
}

#[test]
fn a_program_commits_at_its_end_and_a_runtime_error_rolls_back() {
    let db = database();
    let write = r#"
    DATA ls TYPE zsmp_stock.
    ls = VALUE #( product = 'GEAR' on_hand = 7 ).
    MODIFY zsmp_stock FROM @ls."#;
    repo_with(&db, write)
        .run_classrun("ZCL_T", &mut NoDebugger)
        .expect("runs");
    let failing = r#"
    DELETE FROM zsmp_stock.
    DATA(zero) = 0.
    DATA(x) = 1 / zero."#;
    let (id, _) = dump(repo_with(&db, failing).run_classrun("ZCL_T", &mut NoDebugger));
    assert_eq!(id, "COMPUTE_INT_ZERODIVIDE");
    let count = r#"
    SELECT COUNT( * ) FROM zsmp_stock INTO @DATA(n).
    out->write( |{ n }| )."#;
    let out = repo_with(&db, count)
        .run_classrun("ZCL_T", &mut NoDebugger)
        .expect("runs");
    assert_eq!(out, "4");
}

#[test]
fn a_duplicate_key_in_an_array_insert_is_catchable_and_inserts_nothing() {
    let out = run_sql(
        r#"
    DATA lt TYPE STANDARD TABLE OF zsmp_stock WITH EMPTY KEY.
    lt = VALUE #( ( product = 'AXLE' ) ( product = 'BOLT' ) ).
    TRY.
        INSERT zsmp_stock FROM TABLE @lt.
      CATCH cx_sy_open_sql_db.
        out->write( 'caught' ).
    ENDTRY.
    SELECT SINGLE product FROM zsmp_stock WHERE product = 'AXLE' INTO @DATA(p).
    out->write( |{ sy-subrc }| )."#,
    )
    .expect("runs");
    assert_eq!(out, "caught\n4");
}

#[test]
fn modify_and_delete_of_an_internal_table_stay_table_statements() {
    let out = run_sql(
        r#"
    DATA zsmp_stock TYPE STANDARD TABLE OF i WITH EMPTY KEY.
    zsmp_stock = VALUE #( ( 1 ) ( 2 ) ( 3 ) ).
    DELETE zsmp_stock FROM 2.
    out->write( |{ lines( zsmp_stock ) }| )."#,
    )
    .expect("runs");
    assert_eq!(out, "1");
    // The same words with a database table and no data object of that name.
    let out = run_sql(
        r#"
    DATA ls TYPE zsmp_stock.
    ls-product = 'NUT'.
    DELETE zsmp_stock FROM ls.
    out->write( |{ sy-subrc } { sy-dbcnt }| ).
    SELECT COUNT( * ) FROM zsmp_stock.
    out->write( |{ sy-dbcnt }| )."#,
    )
    .expect("runs");
    assert_eq!(out, "0 1\n2");
}

#[test]
fn dictionary_types_declare_structures_and_tables() {
    let out = run_sql(
        r#"
    DATA ls TYPE zsmp_items.
    DATA lt TYPE STANDARD TABLE OF zsmp_items WITH DEFAULT KEY.
    DATA lv_price TYPE zsmp_items-price.
    lv_price = '1.234'.
    ls-quantity = 3.
    APPEND ls TO lt.
    out->write( |{ lines( lt ) } { lv_price } { ls-order_id }| )."#,
    )
    .expect("runs");
    assert_eq!(out, "1 1.23 0000");
}

#[test]
fn without_a_database_a_select_is_not_supported() {
    let r = repo(&[(
        "zcl_t.clas.abap",
        &class_source(
            "",
            "    SELECT SINGLE * FROM zsmp_orders INTO @DATA(ls).",
            "",
        ),
    )]);
    let (id, text) = dump(r.run_classrun("ZCL_T", &mut NoDebugger));
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
    assert!(text.contains("SELECT"), "{text}");
}

#[test]
fn the_debugger_sees_select_as_the_statement_and_stops_in_the_loop_body() {
    let db = database();
    let main = r#"
    DATA ls TYPE zsmp_orders.
    SELECT * FROM zsmp_orders INTO @ls WHERE status = 'C' ORDER BY order_id.
      DATA(id) = ls-order_id.
    ENDSELECT."#;
    let r = repo_with(&db, main);
    let mut seen = Vec::new();
    r.run_classrun(
        "ZCL_T",
        &mut on_stop(|ctx| {
            seen.push((ctx.location().line, ctx.statement()));
            Resume::Run
        }),
    )
    .expect("runs");
    let lines: Vec<String> = seen.iter().map(|(l, s)| format!("{l} {s}")).collect();
    assert_eq!(
        lines,
        ["10 SELECT", "11 MOVE", "11 MOVE", "13 ENDMETHOD"],
        "{lines:?}"
    );
}

#[test]
fn idioms_of_real_code_read_as_a_real_system_reads_them() {
    let out = run_sql(
        r#"
    SELECT SINGLE @abap_true FROM zsmp_orders WHERE customer = 'ACME' INTO @DATA(lv_exists).
    out->write( |exists { lv_exists } { sy-subrc }| ).
    DATA lv_status TYPE c LENGTH 1 VALUE 'C'.
    SELECT order_id FROM zsmp_orders WHERE status = @lv_status ORDER BY order_id INTO TABLE @DATA(lt_closed).
    out->write( |closed { lines( lt_closed ) }| ).
    DATA: lv_customer TYPE c LENGTH 10,
          lv_total    TYPE p LENGTH 8 DECIMALS 2.
    SELECT SINGLE customer, total FROM zsmp_orders WHERE order_id = '0004' INTO (@lv_customer, @lv_total).
    out->write( |list { lv_customer } { lv_total }| ).
    DATA ls_order TYPE zsmp_orders.
    FIELD-SYMBOLS <ls_order> TYPE zsmp_orders.
    ASSIGN ls_order TO <ls_order>.
    SELECT SINGLE * FROM zsmp_orders WHERE order_id = '0002' INTO @<ls_order>.
    out->write( |field symbol { ls_order-customer }| ).
    SELECT * FROM zsmp_orders INTO @ls_order ORDER BY order_id.
      IF sy-dbcnt = 2.
        EXIT.
      ENDIF.
    ENDSELECT.
    out->write( |exit { sy-subrc } { sy-dbcnt } { ls_order-order_id }| ).
    SELECT * FROM zsmp_orders INTO @ls_order UP TO 1 ROWS WHERE customer = 'BETA' ORDER BY order_id DESCENDING.
    ENDSELECT.
    out->write( |up to one { ls_order-order_id }| ).
    TYPES: BEGIN OF ty_pair,
             total    TYPE p LENGTH 8 DECIMALS 2,
             customer TYPE c LENGTH 10,
           END OF ty_pair.
    DATA ls_pair TYPE ty_pair.
    SELECT SINGLE * FROM zsmp_orders WHERE order_id = '0003' INTO CORRESPONDING FIELDS OF @ls_pair.
    out->write( |corresponding { ls_pair-customer } { ls_pair-total }| )."#,
    )
    .expect("runs");
    assert_eq!(
        out,
        "exists X 0\nclosed 2\nlist GAMMA 310.00\nfield symbol BETA\nexit 0 2 0002\nup to one 0005\ncorresponding ACME 75.00"
    );
}

#[test]
fn host_values_through_references_and_class_constants() {
    let db = database();
    let source = class_source(
        "    DATA mv_customer TYPE c LENGTH 10 VALUE 'ACME'.\n    CONSTANTS c_open TYPE c LENGTH 1 VALUE 'O'.",
        r#"
    SELECT COUNT( * ) FROM zsmp_orders WHERE customer = @me->mv_customer AND status = @zcl_t=>c_open.
    out->write( |{ sy-dbcnt }| ).
    DATA(lo) = me.
    SELECT SINGLE order_date FROM zsmp_orders WHERE customer = @lo->mv_customer AND order_id = '0001' INTO @lo->mv_customer.
    out->write( |{ mv_customer }| )."#,
        "",
    );
    let mut r = repo(&[("zcl_t.clas.abap", &source)]);
    r.set_database(db);
    let out = r.run_classrun("ZCL_T", &mut NoDebugger).expect("runs");
    assert_eq!(out, "2\n20240315");
}

#[test]
fn a_select_loop_does_not_go_on_after_a_commit_closed_its_cursor() {
    let (id, text) = dump(run_sql(
        r#"
    DATA ls TYPE zsmp_orders.
    SELECT * FROM zsmp_orders INTO @ls ORDER BY order_id.
      COMMIT WORK.
    ENDSELECT."#,
    ));
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
    assert!(text.contains("closed its cursor"), "{text}");
    // A commit in the last pass ends the loop as usual.
    let out = run_sql(
        r#"
    DATA ls TYPE zsmp_orders.
    SELECT * FROM zsmp_orders INTO @ls UP TO 1 ROWS ORDER BY order_id.
      COMMIT WORK.
    ENDSELECT.
    out->write( |{ sy-subrc } { sy-dbcnt }| )."#,
    )
    .expect("runs");
    assert_eq!(out, "0 1");
}

#[test]
fn unit_tests_leave_the_database_as_they_found_it() {
    let db = database();
    let main = "    DELETE FROM zsmp_stock.";
    let tests = r#"
CLASS ltc_t DEFINITION FOR TESTING RISK LEVEL HARMLESS DURATION SHORT.
  PRIVATE SECTION.
    METHODS clears FOR TESTING.
ENDCLASS.
CLASS ltc_t IMPLEMENTATION.
  METHOD clears.
    DELETE FROM zsmp_stock.
    SELECT COUNT( * ) FROM zsmp_stock.
    cl_abap_unit_assert=>assert_equals( act = sy-dbcnt exp = 0 ).
  ENDMETHOD.
ENDCLASS.
"#;
    let mut r = repo(&[
        ("zcl_t.clas.abap", &class_source("", main, "")),
        ("zcl_t.clas.testclasses.abap", tests),
    ]);
    r.set_database(db.clone());
    let result = r
        .run_unit_tests("ZCL_T", abap::ObjectKind::Class, None, &mut NoDebugger)
        .expect("the tests run");
    let failed: usize = result
        .classes
        .iter()
        .flat_map(|c| &c.methods)
        .filter(|m| m.status != abap::TestStatus::Passed)
        .count();
    assert_eq!(failed, 0, "{result:?}");
    let count = r#"
    SELECT COUNT( * ) FROM zsmp_stock.
    out->write( |{ sy-dbcnt }| )."#;
    let out = repo_with(&db, count)
        .run_classrun("ZCL_T", &mut NoDebugger)
        .expect("runs");
    assert_eq!(out, "3");
}

#[test]
fn rows_go_into_sorted_tables_by_key_and_appending_keeps_the_rows_there() {
    let out = run_sql(
        r#"
    DATA lt_sorted TYPE SORTED TABLE OF zsmp_orders WITH UNIQUE KEY customer order_id.
    SELECT * FROM zsmp_orders ORDER BY order_id DESCENDING INTO TABLE @lt_sorted.
    DATA(lv_text) = ``.
    LOOP AT lt_sorted INTO DATA(ls).
      lv_text = |{ lv_text } { ls-customer }/{ ls-order_id }|.
    ENDLOOP.
    out->write( lv_text ).
    DATA lt_std TYPE STANDARD TABLE OF zsmp_orders WITH EMPTY KEY.
    SELECT * FROM zsmp_orders WHERE order_id = '0001' INTO TABLE @lt_std.
    READ TABLE lt_std ASSIGNING FIELD-SYMBOL(<first>) INDEX 1.
    SELECT * FROM zsmp_orders WHERE order_id = '0002' APPENDING TABLE @lt_std.
    out->write( |{ lines( lt_std ) } { <first>-customer }| )."#,
    )
    .expect("runs");
    assert_eq!(
        out,
        " ACME/0001 ACME/0003 BETA/0002 BETA/0005 GAMMA/0004\n2 ACME"
    );
}

#[test]
fn a_work_area_named_like_the_table_leaves_delete_a_database_statement() {
    let out = run_sql(
        r#"
    DATA zsmp_stock TYPE zsmp_stock.
    DATA ls TYPE zsmp_stock.
    ls-product = 'BOLT'.
    DELETE zsmp_stock FROM ls.
    out->write( |{ sy-subrc } { sy-dbcnt }| )."#,
    )
    .expect("runs");
    assert_eq!(out, "0 1");
}

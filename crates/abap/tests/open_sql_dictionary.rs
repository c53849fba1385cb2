//! Types from the database's dictionary besides tables: data elements (with their own
//! built-in type or their domain's) in declarations, structures, ranges and tables; and
//! aggregates over no rows as the interpreter moves their one row into the target.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use abap::{NoDebugger, Repository, RunError};

use crate::harness::{class_source, dump, repo};

fn database() -> Arc<Mutex<opensql::Database>> {
    let mut db = opensql::Database::open(&opensql::Options::default()).expect("database opens");
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    db.load_dir(&samples).expect("the sample tables load");
    Arc::new(Mutex::new(db))
}

fn run_with_tables(decl: &str, main: &str) -> Result<String, RunError> {
    let mut r: Repository = repo(&[("zcl_t.clas.abap", &class_source(decl, main, ""))]);
    r.set_database(database());
    r.run_classrun("ZCL_T", &mut NoDebugger)
}

#[test]
fn data_elements_declare_data_with_their_domains_or_own_type() {
    let out = run_with_tables(
        r#"    TYPES: BEGIN OF ty_order,
             order_no TYPE zsmp_order_no,
             amount   TYPE zsmp_amount,
           END OF ty_order."#,
        r#"
    DATA lv_no TYPE zsmp_order_no.
    DATA lv_amount TYPE zsmp_amount.
    DATA lv_customer TYPE zsmp_customer_id.
    DATA ls_order TYPE ty_order.
    DATA lt_numbers TYPE RANGE OF zsmp_order_no.
    DATA lt_customers TYPE STANDARD TABLE OF zsmp_customer_id WITH EMPTY KEY.
    lv_no = 42.
    lv_amount = '-3.005'.
    lv_customer = 'ABCDEFGHIJKL'.
    ls_order-order_no = 5.
    ls_order-amount = '1.5'.
    APPEND VALUE #( sign = 'I' option = 'EQ' low = 3 ) TO lt_numbers.
    APPEND 'LONGER THAN TEN' TO lt_customers.
    out->write( |{ lv_no } { lv_amount } { lv_customer }| ).
    out->write( |{ ls_order-order_no } { ls_order-amount } { lt_numbers[ 1 ]-low } { lt_customers[ 1 ] }| ).
    SELECT order_id, customer FROM zsmp_orders WHERE order_id IN @lt_numbers INTO TABLE @DATA(lt_found).
    out->write( |{ sy-dbcnt } { lt_found[ 1 ]-customer }| )."#,
    )
    .expect("runs");
    assert_eq!(
        out,
        "0042 -3.01 ABCDEFGHIJ\n0005 1.50 0003 LONGER THA\n1 ACME"
    );
}

#[test]
fn a_data_element_without_a_file_is_still_not_supported() {
    let (id, text) = dump(run_with_tables(
        "",
        "    DATA lv_x TYPE zsmp_no_such_element.",
    ));
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
    assert!(text.contains("ZSMP_NO_SUCH_ELEMENT"), "{text}");
}

#[test]
fn aggregates_over_no_rows_fill_the_target_with_zero_and_initial_values() {
    let out = run_with_tables(
        "",
        r#"
    DATA lv_count TYPE i VALUE 7.
    SELECT COUNT( * ) FROM zsmp_orders WHERE customer = 'NOBODY' INTO @lv_count.
    out->write( |{ lv_count } { sy-subrc } { sy-dbcnt }| ).
    DATA lv_sum TYPE zsmp_amount VALUE '9.99'.
    SELECT SUM( total ) FROM zsmp_orders WHERE customer = 'NOBODY' INTO @lv_sum.
    out->write( |{ lv_sum } { sy-subrc } { sy-dbcnt }| ).
    DATA: lv_n TYPE i VALUE 5, lv_max TYPE d VALUE '20990101'.
    SELECT COUNT( * ), MAX( order_date ) FROM zsmp_orders WHERE status = 'X' INTO (@lv_n, @lv_max).
    out->write( |{ lv_n } { lv_max } { sy-subrc } { sy-dbcnt }| )."#,
    )
    .expect("runs");
    assert_eq!(out, "0 4 0\n0.00 0 1\n0 00000000 0 1");
}

fn run_report_with_tables(source: &str) -> Result<String, RunError> {
    let mut r: Repository = repo(&[("zr_t.prog.abap", source)]);
    r.set_database(database());
    r.run_report("ZR_T", &mut NoDebugger)
}

#[test]
fn tables_work_areas_receive_selects_without_into() {
    let out = run_report_with_tables(
        r#"REPORT zr_t.
TABLES: zsmp_orders, zsmp_items.
START-OF-SELECTION.
  SELECT SINGLE * FROM zsmp_orders WHERE order_id = '0004'.
  WRITE / |{ sy-subrc } { zsmp_orders-order_id } { zsmp_orders-customer } { zsmp_orders-total }|.
  SELECT * FROM zsmp_items WHERE order_id = '0001' ORDER BY item_no DESCENDING.
    WRITE / |{ sy-dbcnt } { zsmp_items-item_no } { zsmp_items-product }|.
  ENDSELECT.
  WRITE / |{ sy-subrc } { sy-dbcnt }|.
  CLEAR zsmp_items.
  SELECT * FROM zsmp_items WHERE product = 'NONE'.
    WRITE / 'never'.
  ENDSELECT.
  WRITE / |{ sy-subrc } { sy-dbcnt } [{ zsmp_items-product }]|."#,
    )
    .expect("runs");
    assert_eq!(
        out,
        "0 0004 GAMMA 310.00\n1 020 NUT\n2 010 BOLT\n0 2\n4 0 []"
    );
}

#[test]
fn a_select_without_into_and_without_a_work_area_is_not_supported() {
    let (id, text) = dump(run_with_tables(
        "",
        "    SELECT SINGLE * FROM zsmp_orders WHERE order_id = '0001'.",
    ));
    assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
    assert!(text.contains("TABLES work area ZSMP_ORDERS"), "{text}");
}

#[test]
fn writes_without_from_use_the_tables_work_area() {
    let out = run_report_with_tables(
        r#"REPORT zr_t.
TABLES zsmp_stock.
DATA gt_lines TYPE STANDARD TABLE OF zsmp_stock WITH EMPTY KEY.
START-OF-SELECTION.
  zsmp_stock-product = 'GEAR'.
  zsmp_stock-on_hand = 3.
  INSERT zsmp_stock.
  WRITE / |insert { sy-subrc } { sy-dbcnt }|.
  INSERT zsmp_stock.
  WRITE / |again { sy-subrc } { sy-dbcnt }|.
  zsmp_stock-on_hand = 9.
  UPDATE zsmp_stock.
  WRITE / |update { sy-subrc }|.
  zsmp_stock-product = 'CLIP'.
  MODIFY zsmp_stock.
  WRITE / |modify { sy-subrc } { sy-dbcnt }|.
  zsmp_stock-product = 'BOLT'.
  DELETE zsmp_stock.
  WRITE / |delete { sy-subrc }|.
  SELECT * FROM zsmp_stock ORDER BY product INTO TABLE @gt_lines.
  LOOP AT gt_lines INTO DATA(ls).
    WRITE / |{ ls-product } { ls-on_hand }|.
  ENDLOOP.
  " An internal table of that name keeps the statement an internal table statement.
  DATA lt_names TYPE STANDARD TABLE OF string WITH EMPTY KEY.
  APPEND `x` TO lt_names.
  LOOP AT lt_names INTO DATA(lv_name).
    DELETE lt_names.
  ENDLOOP.
  WRITE / |names { lines( lt_names ) }|."#,
    )
    .expect("runs");
    assert_eq!(
        out,
        "insert 0 1\nagain 4 0\nupdate 0\nmodify 0 1\ndelete 0\nCLIP 9\nGEAR 9\nNUT 500\nSCREW 40\nnames 0"
    );
}

#[test]
fn the_classic_report_selects_by_select_options_for_a_tables_field() {
    let out = run_report_with_tables(
        r#"REPORT zr_t.
TABLES zsmp_orders.
PARAMETERS p_cust TYPE zsmp_customer_id DEFAULT 'BETA'.
SELECT-OPTIONS so_id FOR zsmp_orders-order_id.
START-OF-SELECTION.
  APPEND VALUE #( sign = 'I' option = 'BT' low = '0002' high = '0005' ) TO so_id.
  SELECT * FROM zsmp_orders WHERE order_id IN so_id AND customer = p_cust ORDER BY order_id.
    WRITE / |{ zsmp_orders-order_id } { zsmp_orders-total }|.
  ENDSELECT.
  WRITE / |{ sy-dbcnt } [{ p_cust }]|."#,
    )
    .expect("runs");
    assert_eq!(out, "0002 20.25\n0005 0.99\n2 [BETA]");
}

#[test]
fn a_form_reads_into_the_programs_tables_work_area() {
    let out = run_report_with_tables(
        r#"REPORT zr_t.
TABLES zsmp_stock.
START-OF-SELECTION.
  PERFORM read USING 'NUT'.
  WRITE / |{ sy-subrc } { zsmp_stock-on_hand } { zsmp_stock-location }|.
FORM read USING iv_product TYPE c.
  SELECT SINGLE * FROM zsmp_stock WHERE product = iv_product.
ENDFORM."#,
    )
    .expect("runs");
    assert_eq!(out, "0 500 A2");
}

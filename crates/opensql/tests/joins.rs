//! INNER and LEFT OUTER joins, aliases, `tab~field`, client handling across tables.

use opensql::Cell;

use crate::common::{c, column, db, n, p, select};

#[test]
fn inner_join_with_aliases() {
    let mut db = db();
    let (rc, cnt, r) = select(
        &mut db,
        "SELECT h~order_id, h~customer, i~item_no, i~amount FROM zsql_head AS h INNER JOIN zsql_item AS i ON i~order_id = h~order_id WHERE h~currency = 'EUR' ORDER BY h~order_id, i~item_no INTO TABLE @DATA(t)",
    );
    assert_eq!((rc, cnt), (0, 4));
    assert_eq!(
        column(&r, "ORDER_ID"),
        [n("0001"), n("0001"), n("0002"), n("0002")]
    );
    assert_eq!(
        column(&r, "ITEM_NO"),
        [n("010"), n("020"), n("010"), n("020")]
    );
    assert_eq!(
        column(&r, "CUSTOMER"),
        [c("ACME"), c("ACME"), c("ACME"), c("ACME")]
    );
    assert_eq!(column(&r, "AMOUNT")[2], p(10, 2));
}

#[test]
fn old_syntax_join_without_aliases() {
    let mut db = db();
    let (_, _, r) = select(
        &mut db,
        "SELECT zsql_head~order_id zsql_item~product INTO TABLE lt_rows FROM zsql_head INNER JOIN zsql_item ON zsql_item~order_id = zsql_head~order_id WHERE zsql_item~product = 'NUT' ORDER BY zsql_head~order_id",
    );
    assert_eq!(column(&r, "ORDER_ID"), [n("0001"), n("0009")]);
}

#[test]
fn left_outer_join_gives_null_for_missing_partners() {
    let mut db = db();
    let (_, cnt, r) = select(
        &mut db,
        "SELECT h~order_id, i~product FROM zsql_head AS h LEFT OUTER JOIN zsql_item AS i ON i~order_id = h~order_id ORDER BY h~order_id, i~item_no INTO TABLE @DATA(t)",
    );
    assert_eq!(cnt, 7);
    assert_eq!(
        column(&r, "PRODUCT"),
        [
            c("BOLT"),
            c("NUT"),
            c("BOLT"),
            c("SCREW"),
            c("NUT"),
            Cell::Null,
            Cell::Null
        ]
    );
    let (_, _, r) = select(
        &mut db,
        "SELECT h~order_id FROM zsql_head AS h LEFT JOIN zsql_item AS i ON i~order_id = h~order_id WHERE i~product IS NULL ORDER BY h~order_id INTO TABLE @DATA(t)",
    );
    assert_eq!(column(&r, "ORDER_ID"), [n("0010"), n("0011")]);
}

#[test]
fn join_with_a_client_independent_table_and_star_of_one_table() {
    let mut db = db();
    let (_, cnt, r) = select(
        &mut db,
        "SELECT h~order_id, k~city FROM zsql_head AS h INNER JOIN zsql_cust AS k ON k~kunnr = h~customer ORDER BY h~order_id INTO TABLE @DATA(t)",
    );
    assert_eq!(cnt, 3);
    assert_eq!(column(&r, "CITY"), [c("Berlin"), c("Berlin"), c("Paris")]);
    let (_, _, r) = select(
        &mut db,
        "SELECT k~*, h~order_id FROM zsql_head AS h INNER JOIN zsql_cust AS k ON k~kunnr = h~customer WHERE h~order_id = '0009' INTO TABLE @DATA(t)",
    );
    let names: Vec<&str> = r.columns.iter().map(|col| col.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "KUNNR", "STREET", "CITY", "RATING", "LOGO", "SCORE", "ORDER_ID"
        ]
    );
    assert_eq!(r.rows[0][3], Cell::Int(3));
}

#[test]
fn using_client_applies_to_every_joined_table() {
    let mut db = db();
    // Client 002 has order 1 but no items.
    let (rc, cnt, _) = select(
        &mut db,
        "SELECT h~order_id, i~item_no FROM zsql_head AS h INNER JOIN zsql_item AS i ON i~order_id = h~order_id USING CLIENT '002' INTO TABLE @DATA(t)",
    );
    assert_eq!((rc, cnt), (4, 0));
    let (_, cnt, r) = select(
        &mut db,
        "SELECT h~customer, i~item_no FROM zsql_head AS h LEFT OUTER JOIN zsql_item AS i ON i~order_id = h~order_id USING CLIENT '002' INTO TABLE @DATA(t)",
    );
    assert_eq!(cnt, 1);
    assert_eq!(r.rows[0], [c("OTHER"), Cell::Null]);
}

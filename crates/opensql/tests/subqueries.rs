//! Subqueries: IN, EXISTS (also correlated), a comparison with one aggregate value; the
//! statement's client applies to them.

use opensql::{Error, HostMap};

use crate::common::{c, column, db, n, run, select};

fn ids(db: &mut opensql::Database, text: &str) -> Vec<opensql::Cell> {
    let (_, _, r) = select(db, text);
    column(&r, "ORDER_ID")
}

#[test]
fn in_and_not_in_a_subquery() {
    let mut db = db();
    assert_eq!(
        ids(
            &mut db,
            "SELECT order_id FROM zsql_head WHERE order_id IN ( SELECT order_id FROM zsql_item WHERE product = 'NUT' ) ORDER BY order_id INTO TABLE @DATA(t)"
        ),
        [n("0001"), n("0009")]
    );
    assert_eq!(
        ids(
            &mut db,
            "SELECT order_id FROM zsql_head WHERE order_id NOT IN ( SELECT order_id FROM zsql_item ) ORDER BY order_id INTO TABLE @DATA(t)"
        ),
        [n("0010"), n("0011")]
    );
}

#[test]
fn correlated_exists() {
    let mut db = db();
    // Unqualified ORDER_ID in the subquery is the item's own column.
    assert_eq!(
        ids(
            &mut db,
            "SELECT order_id FROM zsql_head AS h WHERE EXISTS ( SELECT * FROM zsql_item WHERE order_id = h~order_id AND product = 'BOLT' ) ORDER BY order_id INTO TABLE @DATA(t)"
        ),
        [n("0001"), n("0002")]
    );
    assert_eq!(
        ids(
            &mut db,
            "SELECT order_id FROM zsql_head AS h WHERE NOT EXISTS ( SELECT * FROM zsql_item AS i WHERE i~order_id = h~order_id ) ORDER BY order_id INTO TABLE @DATA(t)"
        ),
        [n("0010"), n("0011")]
    );
}

#[test]
fn comparison_with_one_aggregate_value_in_the_statements_client() {
    let mut db = db();
    // Client 002's 999.99 is not this client's maximum.
    let (_, _, r) = select(
        &mut db,
        "SELECT customer FROM zsql_head WHERE total = ( SELECT MAX( total ) FROM zsql_head ) INTO TABLE @DATA(t)",
    );
    assert_eq!(column(&r, "CUSTOMER"), [c("ACME")]);
    let (_, _, r) = select(
        &mut db,
        "SELECT customer FROM zsql_head USING CLIENT '002' WHERE total = ( SELECT MAX( total ) FROM zsql_head ) INTO TABLE @DATA(t)",
    );
    assert_eq!(column(&r, "CUSTOMER"), [c("OTHER")]);
    assert_eq!(
        ids(
            &mut db,
            "SELECT order_id FROM zsql_head AS h WHERE priority > ( SELECT COUNT(*) FROM zsql_item WHERE order_id = h~order_id ) ORDER BY order_id INTO TABLE @DATA(t)"
        ),
        [n("0009"), n("0010"), n("0011")],
        "priority above the item count: 3 > 1, 1 > 0, 5 > 0"
    );
    let e = db
        .run(
            "SELECT * FROM zsql_head WHERE order_id = ( SELECT order_id FROM zsql_item ) INTO TABLE @DATA(t)",
            &mut HostMap::new(),
        )
        .err();
    assert!(matches!(e, Some(Error::NotSupported(_))), "{e:?}");
    // CURR 15,2 and CURR 18,2 are both stored as cents.
    assert_eq!(
        ids(
            &mut db,
            "SELECT order_id FROM zsql_head WHERE total IN ( SELECT amount FROM zsql_item ) ORDER BY order_id INTO TABLE @DATA(t)"
        ),
        [n("0009"), n("0011")],
        "totals 0.10 and 0.20 are item amounts"
    );
    let e = db
        .run(
            "SELECT * FROM zsql_head WHERE total IN ( SELECT quantity FROM zsql_item ) INTO TABLE @DATA(t)",
            &mut HostMap::new(),
        )
        .err();
    assert!(
        matches!(e, Some(Error::NotSupported(_))),
        "CURR 15,2 and QUAN 13,3 are stored at other scales: {e:?}"
    );
}

#[test]
fn subqueries_in_writes() {
    let mut db = db();
    let o = run(
        &mut db,
        "DELETE FROM zsql_item WHERE order_id IN ( SELECT order_id FROM zsql_head WHERE currency = 'USD' )",
        &mut HostMap::new(),
    );
    assert_eq!((o.subrc, o.dbcnt), (0, Some(1)), "order 9's one item");
    let o = run(
        &mut db,
        "UPDATE zsql_head SET priority = 0 WHERE NOT EXISTS ( SELECT * FROM zsql_item WHERE order_id = zsql_head~order_id )",
        &mut HostMap::new(),
    );
    assert_eq!(
        (o.subrc, o.dbcnt),
        (0, Some(3)),
        "orders 9, 10, 11 have no items now"
    );
}

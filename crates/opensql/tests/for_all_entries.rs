//! FOR ALL ENTRIES: one condition per driver row, duplicates removed, an empty driver table
//! selects everything.

use opensql::{Cell, HostMap, HostValue};

use crate::common::{c, column, db, n, row, select_with};

fn driver(ids: &[&str]) -> HostValue {
    HostValue::Table(
        ids.iter()
            .map(|id| row(&[("ORDER_ID", n(id)), ("X", c(""))]))
            .collect(),
    )
}

#[test]
fn rows_of_every_driver_row_without_duplicates() {
    let mut db = db();
    let mut host = HostMap::new().with("lt_ids", driver(&["0001", "0009", "0001"]));
    let (rc, cnt, r) = select_with(
        &mut db,
        "SELECT * FROM zsql_item FOR ALL ENTRIES IN @lt_ids WHERE order_id = @lt_ids-order_id INTO TABLE @DATA(items)",
        &mut host,
    );
    assert_eq!((rc, cnt), (0, 3));
    let mut got: Vec<(Cell, Cell)> = column(&r, "ORDER_ID")
        .into_iter()
        .zip(column(&r, "ITEM_NO"))
        .collect();
    got.sort_by_key(|(a, b)| format!("{a}{b}"));
    assert_eq!(
        got,
        [
            (n("0001"), n("010")),
            (n("0001"), n("020")),
            (n("0009"), n("010"))
        ]
    );

    // BOLT appears in orders 1 and 2: once in the result.
    let mut host = HostMap::new().with("drv", driver(&["0001", "0002"]));
    let (_, cnt, r) = select_with(
        &mut db,
        "SELECT product FROM zsql_item FOR ALL ENTRIES IN drv WHERE order_id = drv-order_id INTO TABLE lt_products",
        &mut host,
    );
    assert_eq!(cnt, 3);
    let mut products = column(&r, "PRODUCT");
    products.sort_by_key(|p| p.to_string());
    assert_eq!(products, [c("BOLT"), c("NUT"), c("SCREW")]);
}

#[test]
fn an_empty_driver_table_selects_every_row_of_the_client() {
    let mut db = db();
    let mut host = HostMap::new().with("empty", HostValue::Table(Vec::new()));
    let (rc, cnt, _) = select_with(
        &mut db,
        "SELECT * FROM zsql_head FOR ALL ENTRIES IN @empty WHERE order_id = @empty-order_id AND priority = 99 INTO TABLE @DATA(t)",
        &mut host,
    );
    // The WHERE is ignored; the client condition is not (client 002's row stays out).
    assert_eq!((rc, cnt), (0, 5));
}

#[test]
fn many_driver_rows() {
    let mut db = db();
    let ids: Vec<String> = (1..=250).map(|i| format!("{i:04}")).collect();
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut host = HostMap::new().with("drv", driver(&refs));
    let (_, cnt, _) = select_with(
        &mut db,
        "SELECT * FROM zsql_item FOR ALL ENTRIES IN @drv WHERE order_id = @drv-order_id INTO TABLE @DATA(t)",
        &mut host,
    );
    assert_eq!(cnt, 5);
    let err = db
        .run(
            "SELECT * FROM zsql_item FOR ALL ENTRIES IN @drv WHERE order_id = @drv-order_id ORDER BY PRIMARY KEY INTO TABLE @DATA(t)",
            &mut host,
        )
        .err();
    assert!(
        matches!(err, Some(opensql::Error::NotSupported(_))),
        "{err:?}"
    );
}

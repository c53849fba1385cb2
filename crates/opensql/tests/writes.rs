//! INSERT, UPDATE, MODIFY, DELETE and the sy-subrc / sy-dbcnt each sets.

use opensql::{Cell, Database, Error, HostMap, HostValue};

use crate::common::{c, column, db, head, n, p, run, scalar, select};

fn customers(db: &mut Database) -> Vec<(String, Cell)> {
    let (_, _, r) = select(
        db,
        "SELECT order_id, customer FROM zsql_head ORDER BY order_id INTO TABLE @DATA(t)",
    );
    column(&r, "ORDER_ID")
        .into_iter()
        .map(|id| id.to_string())
        .zip(column(&r, "CUSTOMER"))
        .collect()
}

fn customer_of(db: &mut Database, id: &str) -> Option<Cell> {
    customers(db)
        .into_iter()
        .find(|(i, _)| i == &format!("'{id}'"))
        .map(|(_, c)| c)
}

fn outcome(db: &mut Database, text: &str, host: &mut HostMap) -> (i32, i64) {
    let o = run(db, text, host);
    (o.subrc, o.dbcnt.expect("sy-dbcnt"))
}

#[test]
fn insert_single_rows() {
    let mut db = db();
    let mut host = HostMap::new()
        .with(
            "wa",
            HostValue::Struct(head("0042", "NEW", "20250101", 123)),
        )
        .with(
            "wa2",
            HostValue::Struct(head("0043", "NEWER", "20250102", 1)),
        );
    assert_eq!(
        outcome(&mut db, "INSERT zsql_head FROM @wa", &mut host),
        (0, 1)
    );
    assert_eq!(customer_of(&mut db, "0042"), Some(c("NEW")));
    // The key exists now.
    assert_eq!(
        outcome(&mut db, "INSERT zsql_head FROM @wa", &mut host),
        (4, 0)
    );
    assert_eq!(
        outcome(&mut db, "INSERT INTO zsql_head VALUES @wa2", &mut host),
        (0, 1)
    );
    assert_eq!(
        outcome(&mut db, "INSERT INTO zsql_head VALUES wa2", &mut host),
        (4, 0)
    );
    // The work area's client ('' here) is replaced by the logon client.
    let (_, cnt, _) = select(
        &mut db,
        "SELECT * FROM zsql_head WHERE order_id = '0042' INTO TABLE @DATA(t)",
    );
    assert_eq!(cnt, 1);
    // CLIENT SPECIFIED takes the work area's client.
    let mut wa = head("0042", "THIRD", "20250101", 5);
    wa[0].1 = c("003");
    let mut host = HostMap::new().with("wa", HostValue::Struct(wa));
    assert_eq!(
        outcome(
            &mut db,
            "INSERT zsql_head CLIENT SPECIFIED FROM @wa",
            &mut host
        ),
        (0, 1)
    );
    let (_, cnt, _) = select(
        &mut db,
        "SELECT * FROM zsql_head USING CLIENT '003' INTO TABLE @DATA(t)",
    );
    assert_eq!(cnt, 1);
}

#[test]
fn insert_from_table_and_duplicate_keys() {
    let mut db = db();
    let rows = |ids: &[&str]| {
        HostValue::Table(
            ids.iter()
                .map(|id| head(id, "BULK", "20250101", 0))
                .collect(),
        )
    };
    let mut host = HostMap::new()
        .with("new", rows(&["0100", "0101"]))
        .with("clash", rows(&["0102", "0001"]))
        .with("none", rows(&[]));
    assert_eq!(
        outcome(&mut db, "INSERT zsql_head FROM TABLE @new", &mut host),
        (0, 2)
    );
    // A duplicate without ACCEPTING DUPLICATE KEYS: the runtime error, and the statement's
    // other row is not inserted either.
    match db.run("INSERT zsql_head FROM TABLE @clash", &mut host) {
        Err(Error::Runtime { name, .. }) => assert_eq!(name, "SAPSQL_ARRAY_INSERT_DUPREC"),
        other => panic!("{other:?}"),
    }
    assert_eq!(customer_of(&mut db, "0102"), None);
    assert_eq!(customer_of(&mut db, "0001"), Some(c("ACME")));
    assert_eq!(
        outcome(
            &mut db,
            "INSERT zsql_head FROM TABLE @clash ACCEPTING DUPLICATE KEYS",
            &mut host
        ),
        (4, 1)
    );
    assert_eq!(customer_of(&mut db, "0102"), Some(c("BULK")));
    assert_eq!(
        outcome(&mut db, "INSERT zsql_head FROM TABLE none", &mut host),
        (0, 0)
    );
}

#[test]
fn update_by_key_and_by_set() {
    let mut db = db();
    let mut host = HostMap::new()
        .with(
            "wa",
            HostValue::Struct(head("0001", "CHANGED", "20240315", 1)),
        )
        .with(
            "ghost",
            HostValue::Struct(head("0077", "GHOST", "20240315", 1)),
        )
        .with(
            "both",
            HostValue::Table(vec![
                head("0002", "TWO", "20231201", 1),
                head("0078", "X", "20231201", 1),
            ]),
        );
    assert_eq!(
        outcome(&mut db, "UPDATE zsql_head FROM @wa", &mut host),
        (0, 1)
    );
    assert_eq!(customer_of(&mut db, "0001"), Some(c("CHANGED")));
    assert_eq!(
        outcome(&mut db, "UPDATE zsql_head FROM ghost", &mut host),
        (4, 0)
    );
    assert_eq!(
        outcome(&mut db, "UPDATE zsql_head FROM TABLE @both", &mut host),
        (4, 1)
    );
    assert_eq!(customer_of(&mut db, "0002"), Some(c("TWO")));
    assert_eq!(customer_of(&mut db, "0078"), None, "UPDATE never inserts");

    let mut host = HostMap::new()
        .with("note", scalar(Cell::String("dollar".into())))
        .with("inc", scalar(p(5, 2)));
    assert_eq!(
        outcome(
            &mut db,
            "UPDATE zsql_head SET note = @note, priority = priority + 1, total = total + @inc WHERE currency = 'USD'",
            &mut host
        ),
        (0, 2)
    );
    let (_, _, r) = select(
        &mut db,
        "SELECT priority, total, note FROM zsql_head WHERE currency = 'USD' ORDER BY order_id INTO TABLE @DATA(t)",
    );
    assert_eq!(column(&r, "PRIORITY"), [Cell::Int(4), Cell::Int(2)]);
    assert_eq!(
        column(&r, "TOTAL"),
        [p(15, 2), p(705, 2)],
        "0.10 + 0.05, 7.00 + 0.05"
    );
    assert_eq!(
        column(&r, "NOTE"),
        [Cell::String("dollar".into()), Cell::String("dollar".into())]
    );
    assert_eq!(
        outcome(
            &mut db,
            "UPDATE zsql_head SET priority = priority - 1 WHERE currency = 'CHF'",
            &mut host
        ),
        (4, 0)
    );
    // Old syntax, no commas; client 002 is untouched by an update of all rows.
    assert_eq!(
        outcome(
            &mut db,
            "UPDATE zsql_head SET currency = 'CHF' note = `x`",
            &mut host
        ),
        (0, 5)
    );
    let (_, _, r) = select(
        &mut db,
        "SELECT currency FROM zsql_head USING CLIENT '002' INTO TABLE @DATA(t)",
    );
    assert_eq!(column(&r, "CURRENCY"), [c("EUR")]);
}

#[test]
fn modify_inserts_or_overwrites() {
    let mut db = db();
    let mut host = HostMap::new()
        .with("old", HostValue::Struct(head("0001", "MOD", "20240315", 1)))
        .with(
            "new",
            HostValue::Struct(head("0050", "FIFTY", "20240315", 1)),
        )
        .with(
            "rows",
            HostValue::Table(vec![
                head("0002", "M2", "20231201", 1),
                head("0051", "M51", "20231201", 1),
            ]),
        );
    assert_eq!(
        outcome(&mut db, "MODIFY zsql_head FROM @old", &mut host),
        (0, 1)
    );
    assert_eq!(
        outcome(&mut db, "MODIFY zsql_head FROM @new", &mut host),
        (0, 1)
    );
    assert_eq!(
        outcome(&mut db, "MODIFY zsql_head FROM TABLE @rows", &mut host),
        (0, 2)
    );
    assert_eq!(customer_of(&mut db, "0001"), Some(c("MOD")));
    assert_eq!(customer_of(&mut db, "0050"), Some(c("FIFTY")));
    assert_eq!(customer_of(&mut db, "0002"), Some(c("M2")));
    assert_eq!(customer_of(&mut db, "0051"), Some(c("M51")));
    assert_eq!(customers(&mut db).len(), 7);
}

#[test]
fn delete_by_key_and_by_where() {
    let mut db = db();
    let key = |id: &str| {
        HostValue::Struct(vec![
            ("ORDER_ID".into(), n(id)),
            ("ITEM_NO".into(), n("010")),
        ])
    };
    let mut host = HostMap::new().with("wa", key("0001")).with(
        "both",
        HostValue::Table(vec![
            vec![("ORDER_ID".into(), n("0002")), ("ITEM_NO".into(), n("010"))],
            vec![("ORDER_ID".into(), n("0002")), ("ITEM_NO".into(), n("099"))],
        ]),
    );
    assert_eq!(
        outcome(&mut db, "DELETE zsql_item FROM @wa", &mut host),
        (0, 1)
    );
    assert_eq!(
        outcome(&mut db, "DELETE zsql_item FROM wa", &mut host),
        (4, 0)
    );
    assert_eq!(
        outcome(&mut db, "DELETE zsql_item FROM TABLE @both", &mut host),
        (4, 1)
    );
    assert_eq!(
        outcome(
            &mut db,
            "DELETE FROM zsql_item WHERE product = 'NUT'",
            &mut host
        ),
        (0, 2)
    );
    assert_eq!(
        outcome(
            &mut db,
            "DELETE FROM zsql_item WHERE product = 'NUT'",
            &mut host
        ),
        (4, 0)
    );
    let (_, cnt, _) = select(&mut db, "SELECT * FROM zsql_item INTO TABLE @DATA(t)");
    assert_eq!(cnt, 1, "only order 2's SCREW is left");
    assert_eq!(outcome(&mut db, "DELETE FROM zsql_head", &mut host), (0, 5));
    let (_, cnt, _) = select(
        &mut db,
        "SELECT * FROM zsql_head CLIENT SPECIFIED INTO TABLE @DATA(t)",
    );
    assert_eq!(cnt, 1, "client 002 keeps its row");
}

#[test]
fn write_errors_are_typed() {
    let mut db = db();
    let mut wa = head("0060", "X", "20240101", 0);
    wa[1].1 = n("12345");
    let mut host = HostMap::new()
        .with("wa", HostValue::Struct(wa))
        .with(
            "partial",
            HostValue::Struct(vec![("ORDER_ID".into(), n("0061"))]),
        )
        .with("scalar", scalar(c("X")));
    assert!(matches!(
        db.run("INSERT zsql_head FROM @wa", &mut host),
        Err(Error::Conversion { .. })
    ));
    assert!(matches!(
        db.run("INSERT zsql_head FROM @partial", &mut host),
        Err(Error::Host { .. })
    ));
    assert!(matches!(
        db.run("INSERT zsql_head FROM @scalar", &mut host),
        Err(Error::Host { .. })
    ));
    assert!(matches!(
        db.run("INSERT zsql_head FROM TABLE @wa", &mut host),
        Err(Error::Host { .. })
    ));
    assert!(matches!(
        db.run("INSERT zsql_s_addr FROM @wa", &mut host),
        Err(Error::UnknownTable(_))
    ));
}

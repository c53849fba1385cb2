//! Packed columns of more than 18 digits: ZSQL_HEAD-CHANGED_AT (TIMESTAMPL, DEC 21,7) and
//! ZSQL_ITEM-DELTA (DEC 25,5, both signs) compare, sort, sum and add exactly.

use opensql::{AbapType, Cell, HostMap};

use crate::common::{column, db, n, p, run, scalar, select, select_with};

/// DELTA of items 1/10, 1/20, 2/10, 2/20, 9/10 in 1/100000.
const BIG: i128 = 12_345_678_901_234_567_812_345;
const NEG_BIG: i128 = -12_345_678_901_234_567_800_001;

#[test]
fn values_read_back_exactly() {
    let mut db = db();
    let (_, _, r) = select(
        &mut db,
        "SELECT SINGLE changed_at FROM zsql_head WHERE order_id = '0001' INTO @DATA(ts)",
    );
    assert_eq!(
        column(&r, "CHANGED_AT"),
        [p(202_403_151_200_001_234_567, 7)]
    );
    assert_eq!(r.columns[0].ty, AbapType::P { len: 11, dec: 7 });
    let (_, _, r) = select(
        &mut db,
        "SELECT delta FROM zsql_item ORDER BY order_id, item_no INTO TABLE @DATA(t)",
    );
    assert_eq!(
        column(&r, "DELTA"),
        [
            p(BIG, 5),
            p(-50_000, 5),
            p(NEG_BIG, 5),
            p(0, 5),
            p(100_000, 5)
        ]
    );
}

#[test]
fn order_compare_and_aggregate() {
    let mut db = db();
    let (_, _, r) = select(
        &mut db,
        "SELECT order_id, item_no FROM zsql_item ORDER BY delta INTO TABLE @DATA(t)",
    );
    let keys: Vec<(Cell, Cell)> = column(&r, "ORDER_ID")
        .into_iter()
        .zip(column(&r, "ITEM_NO"))
        .collect();
    assert_eq!(
        keys,
        [
            (n("0002"), n("010")),
            (n("0001"), n("020")),
            (n("0002"), n("020")),
            (n("0009"), n("010")),
            (n("0001"), n("010")),
        ]
    );
    let (_, cnt, _) = select(
        &mut db,
        "SELECT * FROM zsql_item WHERE delta < 0 INTO TABLE @DATA(t)",
    );
    assert_eq!(cnt, 2);
    let mut host = HostMap::new().with("v", scalar(Cell::Int(-1)));
    let (_, cnt, _) = select_with(
        &mut db,
        "SELECT * FROM zsql_item WHERE delta > @v INTO TABLE @DATA(t)",
        &mut host,
    );
    assert_eq!(cnt, 4);
    let (_, _, r) = select(
        &mut db,
        "SELECT SUM( delta ) AS s, MIN( delta ) AS lo, MAX( delta ) AS hi, AVG( delta ) AS avg FROM zsql_item INTO @DATA(wa)",
    );
    // 123456789012345678.12345 - 0.5 - 123456789012345678.00001 + 0 + 1
    assert_eq!(column(&r, "S"), [p(62_344, 5)]);
    assert_eq!(column(&r, "LO"), [p(NEG_BIG, 5)]);
    assert_eq!(column(&r, "HI"), [p(BIG, 5)]);
    assert!(matches!(column(&r, "AVG").as_slice(), [Cell::Float(_)]));
    let (_, _, r) = select(
        &mut db,
        "SELECT order_id, SUM( delta ) AS s FROM zsql_item GROUP BY order_id ORDER BY order_id INTO TABLE @DATA(t)",
    );
    assert_eq!(
        column(&r, "S"),
        [p(BIG - 50_000, 5), p(NEG_BIG, 5), p(100_000, 5)]
    );
}

#[test]
fn set_arithmetic_stays_exact() {
    let mut db = db();
    let mut host = HostMap::new().with("inc", scalar(p(25, 1)));
    let o = run(
        &mut db,
        "UPDATE zsql_item SET delta = delta + @inc WHERE item_no = '020'",
        &mut host,
    );
    assert_eq!((o.subrc, o.dbcnt), (0, Some(2)));
    let o = run(
        &mut db,
        "UPDATE zsql_item SET delta = delta - 1 WHERE order_id = '0009'",
        &mut host,
    );
    assert_eq!((o.subrc, o.dbcnt), (0, Some(1)));
    let (_, _, r) = select(
        &mut db,
        "SELECT SUM( delta ) AS s FROM zsql_item INTO @DATA(s)",
    );
    assert_eq!(
        column(&r, "S"),
        [p(62_344 + 250_000 + 250_000 - 100_000, 5)]
    );
    let e = db
        .run(
            "SELECT * FROM zsql_item WHERE delta = amount INTO TABLE @DATA(t)",
            &mut host,
        )
        .err();
    assert!(matches!(e, Some(opensql::Error::NotSupported(_))), "{e:?}");
}

//! Aggregates, GROUP BY and HAVING; packed sums stay exact.

use opensql::{AbapType, Cell};

use crate::common::{c, column, db, n, p, select};

#[test]
fn packed_sums_are_exact_where_floating_point_is_not() {
    let mut db = db();
    let (rc, cnt, r) = select(
        &mut db,
        "SELECT SUM( amount ) AS total FROM zsql_item WHERE order_id = '0001' INTO @DATA(lv_total)",
    );
    assert_eq!((rc, cnt), (0, 1));
    // 1000000000000000.11 + 2000000000000000.22
    assert_eq!(column(&r, "TOTAL"), [p(300_000_000_000_000_033, 2)]);
    assert_eq!(r.columns[0].ty, AbapType::P { len: 10, dec: 2 });
    // The same sum in binary floating point is off by far more than a cent.
    let float = ["1000000000000000.11", "2000000000000000.22"]
        .iter()
        .map(|t| t.parse::<f64>().unwrap_or_default())
        .sum::<f64>();
    assert_ne!(format!("{float:.2}"), "3000000000000000.33");

    let (_, _, r) = select(&mut db, "SELECT SUM( total ) FROM zsql_head INTO @DATA(s)");
    assert_eq!(
        column(&r, "SUM"),
        [p(12805, 2)],
        "100.50 + 20.25 + 0.10 + 7.00 + 0.20"
    );
    let (_, _, r) = select(
        &mut db,
        "SELECT SUM( quantity ) AS q FROM zsql_item INTO @DATA(s)",
    );
    assert_eq!(column(&r, "Q"), [p(11750, 3)]);
}

#[test]
fn group_by_having_and_counts() {
    let mut db = db();
    let (rc, cnt, r) = select(
        &mut db,
        "SELECT order_id, COUNT(*) AS cnt, SUM( amount ) AS amount, MAX( product ) AS maxprod FROM zsql_item GROUP BY order_id ORDER BY order_id INTO TABLE @DATA(t)",
    );
    assert_eq!((rc, cnt), (0, 3));
    assert_eq!(column(&r, "ORDER_ID"), [n("0001"), n("0002"), n("0009")]);
    assert_eq!(
        column(&r, "CNT"),
        [Cell::Int(2), Cell::Int(2), Cell::Int(1)]
    );
    assert_eq!(
        column(&r, "AMOUNT"),
        [p(300_000_000_000_000_033, 2), p(30, 2), p(10, 2)]
    );
    assert_eq!(column(&r, "MAXPROD"), [c("NUT"), c("SCREW"), c("NUT")]);
    let count_ty = r
        .columns
        .iter()
        .find(|col| col.name == "CNT")
        .map(|col| col.ty);
    assert_eq!(count_ty, Some(AbapType::I));

    let (_, cnt, r) = select(
        &mut db,
        "SELECT order_id FROM zsql_item GROUP BY order_id HAVING COUNT( * ) > 1 ORDER BY order_id INTO TABLE @DATA(t)",
    );
    assert_eq!(cnt, 2);
    assert_eq!(column(&r, "ORDER_ID"), [n("0001"), n("0002")]);
    let (_, _, r) = select(
        &mut db,
        "SELECT order_id, SUM( quantity ) AS q FROM zsql_item GROUP BY order_id HAVING SUM( quantity ) >= '3.5' ORDER BY q DESCENDING INTO TABLE @DATA(t)",
    );
    assert_eq!(column(&r, "ORDER_ID"), [n("0009"), n("0002"), n("0001")]);

    let (_, _, r) = select(
        &mut db,
        "SELECT COUNT( DISTINCT product ) AS products, COUNT(*) AS items FROM zsql_item INTO (@DATA(a), @DATA(b))",
    );
    assert_eq!(r.rows, [vec![Cell::Int(3), Cell::Int(5)]]);
}

#[test]
fn min_max_avg_keep_abap_order() {
    let mut db = db();
    let (_, _, r) = select(
        &mut db,
        "SELECT MIN( order_date ) AS first, MAX( order_id ) AS last, AVG( priority ) AS prio FROM zsql_head INTO @DATA(wa)",
    );
    assert_eq!(column(&r, "FIRST"), [Cell::Date("20220630".into())]);
    assert_eq!(
        column(&r, "LAST"),
        [n("0011")],
        "numeric text: 0011 is the largest"
    );
    assert_eq!(column(&r, "PRIO"), [Cell::Float(12.0 / 5.0)]);
    let (_, _, r) = select(
        &mut db,
        "SELECT AVG( quantity ) AS q FROM zsql_item INTO @DATA(a)",
    );
    assert_eq!(r.columns[0].ty, AbapType::F);
    match column(&r, "Q").as_slice() {
        [Cell::Float(x)] => assert!((x - 2.35).abs() < 1e-12, "{x}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn aggregates_over_no_rows_give_one_row_of_zero_counts_and_nulls() {
    let mut db = db();
    // One row: COUNT 0, the other aggregates null (the target keeps its initial value);
    // sy-subrc 0 and sy-dbcnt 1.
    let (rc, cnt, r) = select(
        &mut db,
        "SELECT SUM( total ) AS s, COUNT(*) AS n, MAX( customer ) AS m, AVG( total ) AS a, COUNT( DISTINCT customer ) AS d FROM zsql_head WHERE priority = 99 INTO (@DATA(s), @DATA(n), @DATA(m), @DATA(a), @DATA(d))",
    );
    assert_eq!((rc, cnt), (0, 1));
    assert_eq!(
        r.rows,
        [vec![
            Cell::Null,
            Cell::Int(0),
            Cell::Null,
            Cell::Null,
            Cell::Int(0)
        ]]
    );
    let (rc, cnt, r) = select(
        &mut db,
        "SELECT SINGLE MAX( total ) FROM zsql_head WHERE priority = 99 INTO @DATA(m)",
    );
    assert_eq!((rc, cnt), (0, 1));
    assert_eq!(r.rows, [vec![Cell::Null]]);
    // COUNT( * ) with an alias is no exception to that rule.
    let (rc, cnt, r) = select(
        &mut db,
        "SELECT COUNT( * ) AS n FROM zsql_head WHERE priority = 99 INTO @DATA(n)",
    );
    assert_eq!((rc, cnt, r.rows), (0, 1, vec![vec![Cell::Int(0)]]));
}

#[test]
fn count_star_alone_over_no_rows_sets_four_and_zero() {
    let mut db = db();
    for text in [
        "SELECT COUNT( * ) FROM zsql_head WHERE priority = 99 INTO @DATA(n)",
        "SELECT SINGLE COUNT(*) FROM zsql_head WHERE priority = 99 INTO @DATA(n)",
        "SELECT COUNT(*) FROM zsql_head WHERE priority = 99",
    ] {
        let (rc, cnt, r) = select(&mut db, text);
        assert_eq!((rc, cnt), (4, 0), "{text}");
        assert_eq!(r.rows, [vec![Cell::Int(0)]], "{text}");
    }
}

#[test]
fn an_aggregate_row_removed_by_having_is_refused_as_uncertain() {
    let mut db = db();
    let e = db
        .run(
            "SELECT COUNT(*) AS n FROM zsql_head HAVING COUNT(*) > 100 INTO @DATA(n)",
            &mut opensql::HostMap::new(),
        )
        .err();
    assert!(matches!(e, Some(opensql::Error::NotSupported(_))), "{e:?}");
}

#[test]
fn group_by_over_no_rows_is_an_empty_result() {
    let mut db = db();
    // With GROUP BY no row is no group: an empty result, 4 and 0.
    let (rc, cnt, r) = select(
        &mut db,
        "SELECT currency, SUM( total ) AS s FROM zsql_head WHERE priority = 99 GROUP BY currency INTO TABLE @DATA(t)",
    );
    assert_eq!((rc, cnt), (4, 0));
    assert!(r.rows.is_empty());
}

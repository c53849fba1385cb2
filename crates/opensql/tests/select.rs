//! SELECT forms against ZSQL_HEAD (client 001: orders 1, 2, 9, 10, 11; client 002: order 1).

use opensql::ast::{IntoKind, Statement, Target};
use opensql::{AbapType, Cell, Error, HostMap, HostValue, SelectLoop, parse};

use crate::common::{c, column, db, n, p, range_line, row, scalar, select, select_with};

fn ids(r: &opensql::ResultSet) -> Vec<String> {
    column(r, "ORDER_ID")
        .into_iter()
        .map(|cell| match cell {
            Cell::Numc(s) => s.trim_start_matches('0').to_string(),
            other => panic!("{other:?}"),
        })
        .collect()
}

fn where_ids(text_where: &str, host: &mut HostMap) -> Vec<String> {
    let mut db = db();
    let (_, _, r) = select_with(
        &mut db,
        &format!(
            "SELECT order_id FROM zsql_head WHERE {text_where} ORDER BY order_id INTO TABLE @DATA(t)"
        ),
        host,
    );
    ids(&r)
}

#[test]
fn select_single_found_and_not_found() {
    let mut db = db();
    let mut host = HostMap::new().with("id", scalar(n("0009")));
    let (rc, cnt, r) = select_with(
        &mut db,
        "SELECT SINGLE * FROM zsql_head WHERE order_id = @id INTO @DATA(wa)",
        &mut host,
    );
    assert_eq!((rc, cnt), (0, 1));
    assert_eq!(column(&r, "CUSTOMER"), [c("BETA")]);
    assert_eq!(column(&r, "TOTAL"), [p(10, 2)]);
    assert_eq!(column(&r, "ORDER_DATE"), [Cell::Date("20240101".into())]);
    assert_eq!(column(&r, "NOTE"), [Cell::String("ninth".into())]);
    assert_eq!(column(&r, "PRIORITY"), [Cell::Int(3)]);
    // Result types, for inline declarations.
    let ty = |name: &str| {
        r.columns
            .iter()
            .find(|col| col.name == name)
            .map(|col| col.ty)
    };
    assert_eq!(ty("ORDER_ID"), Some(AbapType::N(4)));
    assert_eq!(ty("CUSTOMER"), Some(AbapType::C(10)));
    assert_eq!(ty("TOTAL"), Some(AbapType::P { len: 8, dec: 2 }));
    assert_eq!(ty("MANDT"), Some(AbapType::C(3)));

    // Old syntax: INTO before FROM, host variable without @.
    let mut host = HostMap::new().with("lv_id", scalar(Cell::Int(4)));
    let (rc, cnt, r) = select_with(
        &mut db,
        "SELECT SINGLE customer INTO lv_customer FROM zsql_head WHERE order_id = lv_id",
        &mut host,
    );
    assert_eq!((rc, cnt), (4, 0));
    assert!(r.rows.is_empty());
}

#[test]
fn numc_and_dats_order_as_abap_does() {
    let mut db = db();
    let (rc, cnt, r) = select(
        &mut db,
        "SELECT * FROM zsql_head INTO TABLE @DATA(t) ORDER BY order_id",
    );
    assert_eq!((rc, cnt), (0, 5));
    // '0009' before '0010': numeric text is kept with its leading zeros.
    assert_eq!(ids(&r), ["1", "2", "9", "10", "11"]);
    let (_, _, r) = select(
        &mut db,
        "SELECT order_id, order_date FROM zsql_head ORDER BY order_date DESCENDING, order_id ASCENDING INTO TABLE @DATA(t)",
    );
    assert_eq!(ids(&r), ["1", "9", "10", "2", "11"]);
    let (_, _, r) = select(
        &mut db,
        "SELECT * FROM zsql_head ORDER BY PRIMARY KEY INTO TABLE @DATA(t)",
    );
    assert_eq!(ids(&r), ["1", "2", "9", "10", "11"]);
    // Binary order of CHAR: '%' sorts before 'C'.
    let (_, _, r) = select(
        &mut db,
        "SELECT order_id, customer FROM zsql_head ORDER BY customer DESCENDING, order_id INTO TABLE @DATA(t)",
    );
    assert_eq!(ids(&r), ["10", "9", "1", "2", "11"]);
}

#[test]
fn char_comparisons_ignore_trailing_blanks() {
    // Order 2's customer was written 'ACME ' in the data file; a c(10) host value carries
    // six trailing blanks.
    let mut host = HostMap::new().with("cust", scalar(c("ACME      ")));
    assert_eq!(where_ids("customer = @cust", &mut host), ["1", "2"]);
    assert_eq!(
        where_ids("customer = 'ACME'", &mut HostMap::new()),
        ["1", "2"]
    );
    assert_eq!(
        where_ids("customer = 'ACME  '", &mut HostMap::new()),
        ["1", "2"]
    );
    assert_eq!(where_ids("customer < 'ACME '", &mut HostMap::new()), ["11"]);
    // A c value compared with a STRING column: its trailing blanks go, as c-to-string does;
    // a string's stay.
    let mut host = HostMap::new()
        .with("c", scalar(c("first     ")))
        .with("s", scalar(Cell::String("first ".into())));
    assert_eq!(where_ids("note = @c", &mut host), ["1"]);
    assert!(where_ids("note = @s", &mut host).is_empty());
    // Leading blanks count.
    assert!(where_ids("customer = ' ACME'", &mut HostMap::new()).is_empty());
}

#[test]
fn field_lists_old_and_strict() {
    let mut db = db();
    let (_, _, r) = select(
        &mut db,
        "SELECT order_id customer INTO TABLE lt_orders FROM zsql_head WHERE priority = 1 ORDER BY order_id",
    );
    let names: Vec<&str> = r.columns.iter().map(|col| col.name.as_str()).collect();
    assert_eq!(names, ["ORDER_ID", "CUSTOMER"]);
    assert_eq!(ids(&r), ["2", "10"]);
    let (_, _, r) = select(
        &mut db,
        "SELECT FROM zsql_head FIELDS order_id, customer AS cust, total WHERE priority = 1 ORDER BY cust INTO TABLE @DATA(t)",
    );
    let names: Vec<&str> = r.columns.iter().map(|col| col.name.as_str()).collect();
    assert_eq!(names, ["ORDER_ID", "CUST", "TOTAL"]);
    assert_eq!(column(&r, "CUST"), [c("ACME"), c("GAMMA")]);
    assert_eq!(column(&r, "TOTAL"), [p(2025, 2), p(700, 2)]);
}

#[test]
fn into_forms_are_modelled() {
    let into = |text: &str| match parse(text) {
        Ok(Statement::Select(s)) => (s.is_loop(), s.into.expect("INTO")),
        other => panic!("{other:?}"),
    };
    let (looped, i) = into("SELECT * FROM zsql_head INTO @wa WHERE priority = 1");
    assert!(looped, "SELECT … ENDSELECT");
    assert_eq!((i.kind, i.corresponding), (IntoKind::Row, false));
    assert_eq!(i.target, Target::Host("WA".into()));
    let (looped, i) = into("SELECT * FROM zsql_head APPENDING CORRESPONDING FIELDS OF TABLE @lt");
    assert!(!looped);
    assert_eq!((i.kind, i.corresponding), (IntoKind::Appending, true));
    let (_, i) = into("SELECT * FROM zsql_head INTO CORRESPONDING FIELDS OF TABLE lt");
    assert_eq!((i.kind, i.corresponding), (IntoKind::Table, true));
    let (looped, i) = into(
        "SELECT SINGLE customer, total FROM zsql_head WHERE order_id = '0001' INTO (@lv_c, @DATA(lv_t))",
    );
    assert!(!looped);
    assert_eq!(
        i.target,
        Target::List(vec![
            Target::Host("LV_C".into()),
            Target::Inline("LV_T".into())
        ])
    );
    let (looped, _) = into("SELECT SUM( total ) FROM zsql_head INTO @lv_sum");
    assert!(!looped, "aggregates only: one row, no loop");

    // The loop's rows: the interpreter hands them out one by one.
    let mut db = db();
    let (rc, cnt, r) = select(
        &mut db,
        "SELECT * FROM zsql_head INTO @wa WHERE priority = 1 ORDER BY order_id",
    );
    assert_eq!((rc, cnt), (0, 2));
    assert_eq!(ids(&r), ["2", "10"]);
    let mut pass = SelectLoop::new(r);
    assert_eq!(pass.columns()[1].name, "ORDER_ID");
    let (first, dbcnt) = pass.next_row().expect("first pass");
    assert_eq!((first[1].clone(), dbcnt), (n("0002"), 1));
    let (second, dbcnt) = pass.next_row().expect("second pass");
    assert_eq!((second[1].clone(), dbcnt), (n("0010"), 2));
    assert!(pass.next_row().is_none());
    assert_eq!(pass.finish(), (0, 2));
    let (_, _, r) = select(
        &mut db,
        "SELECT * FROM zsql_head INTO @wa WHERE priority = 7",
    );
    let mut pass = SelectLoop::new(r);
    assert!(pass.next_row().is_none());
    assert_eq!(pass.finish(), (4, 0));
}

#[test]
fn where_logic_and_comparison_operators() {
    let h = || HostMap::new();
    assert_eq!(
        where_ids(
            "( priority = 1 OR priority = 5 ) AND NOT currency = 'USD'",
            &mut h()
        ),
        ["2", "11"]
    );
    assert_eq!(
        where_ids("priority GE 2 AND priority LT 5", &mut h()),
        ["1", "9"]
    );
    assert_eq!(
        where_ids("priority >= 2 AND priority < 5", &mut h()),
        ["1", "9"]
    );
    assert_eq!(
        where_ids("priority GT 2 AND priority LE 5", &mut h()),
        ["9", "11"]
    );
    assert_eq!(where_ids("priority > 2 AND priority <= 3", &mut h()), ["9"]);
    assert_eq!(where_ids("priority EQ 1", &mut h()), ["2", "10"]);
    assert_eq!(
        where_ids("priority NE 1 AND priority <> 2", &mut h()),
        ["9", "11"]
    );
    assert_eq!(
        where_ids("NOT ( priority = 1 OR NOT currency = 'EUR' )", &mut h()),
        ["1", "11"]
    );
    let mut host = HostMap::new().with("min", scalar(p(1000, 2)));
    assert_eq!(where_ids("total > @min", &mut host), ["1", "2"]);
    // A packed host value with more decimals is converted to the column's 2 decimals.
    let mut host = HostMap::new().with("v", scalar(p(1001, 4)));
    assert_eq!(where_ids("total = @v", &mut host), ["9"]);
}

#[test]
fn in_lists_between_like_null_initial() {
    let h = || HostMap::new();
    let mut host = HostMap::new()
        .with("a", scalar(Cell::Int(9)))
        .with("b", scalar(n("11")));
    assert_eq!(where_ids("order_id IN (@a, @b)", &mut host), ["9", "11"]);
    assert_eq!(where_ids("order_id IN ('0001', '2')", &mut h()), ["1", "2"]);
    assert_eq!(
        where_ids("order_id NOT IN ('0001', '2')", &mut h()),
        ["9", "10", "11"]
    );
    assert_eq!(
        where_ids("order_date BETWEEN '20231201' AND '20240101'", &mut h()),
        ["2", "9", "10"]
    );
    assert_eq!(
        where_ids("order_date NOT BETWEEN '20231201' AND '20240101'", &mut h()),
        ["1", "11"]
    );
    assert_eq!(where_ids("customer LIKE 'A%'", &mut h()), ["1", "2", "11"]);
    assert_eq!(where_ids("customer LIKE 'BET_'", &mut h()), ["9"]);
    assert_eq!(
        where_ids("customer LIKE 'A#%B#_C' ESCAPE '#'", &mut h()),
        ["11"]
    );
    // The database compares case-sensitively.
    assert!(where_ids("customer LIKE 'acme'", &mut h()).is_empty());
    assert_eq!(where_ids("customer NOT LIKE 'A%'", &mut h()), ["9", "10"]);
    let mut host = HostMap::new().with("pat", scalar(c("G*%      ")));
    assert!(
        where_ids("customer LIKE @pat", &mut host).is_empty(),
        "* is no wildcard of LIKE"
    );
    assert!(where_ids("note IS NULL", &mut h()).is_empty());
    assert_eq!(where_ids("note IS NOT NULL", &mut h()).len(), 5);
    assert_eq!(where_ids("note IS INITIAL", &mut h()), ["2", "10"]);
    assert_eq!(where_ids("note IS NOT INITIAL", &mut h()), ["1", "9", "11"]);
}

#[test]
fn ranges_tables() {
    let range = |lines: Vec<opensql::Components>| HostMap::new().with("r", HostValue::Table(lines));
    let mut host = range(vec![
        range_line("I", "EQ", n("0001"), n("0000")),
        range_line("I", "BT", n("0009"), n("0010")),
    ]);
    assert_eq!(where_ids("order_id IN @r", &mut host), ["1", "9", "10"]);
    let mut host = range(vec![
        range_line("I", "CP", c("A*"), c("")),
        range_line("E", "EQ", c("ACME"), c("")),
    ]);
    assert_eq!(where_ids("customer IN @r", &mut host), ["11"]);
    let mut host = range(vec![range_line("E", "EQ", c("ACME"), c(""))]);
    assert_eq!(where_ids("customer IN @r", &mut host), ["9", "10", "11"]);
    let mut host = range(vec![]);
    assert_eq!(
        where_ids("customer IN @r", &mut host).len(),
        5,
        "an empty range selects all"
    );
    let mut host = range(vec![range_line("I", "CP", c("BET+"), c(""))]);
    assert_eq!(where_ids("customer IN @r", &mut host), ["9"]);
    let mut host = range(vec![range_line("I", "CP", c("A%B+C"), c(""))]);
    assert_eq!(
        where_ids("customer IN @r", &mut host),
        ["11"],
        "% is no wildcard of CP"
    );
    let mut host = range(vec![range_line("I", "CP", c("ACME"), c(""))]);
    assert_eq!(
        where_ids("customer IN @r", &mut host),
        ["1", "2"],
        "CP without wildcard: EQ"
    );
    let mut host = range(vec![range_line("I", "NP", c("A*"), c(""))]);
    assert_eq!(where_ids("customer IN @r", &mut host), ["9", "10"]);
    let mut host = range(vec![range_line(
        "I",
        "GE",
        Cell::Date("20240101".into()),
        c(""),
    )]);
    assert_eq!(where_ids("order_date IN @r", &mut host), ["1", "9", "10"]);
    let mut host = range(vec![range_line(
        "I",
        "LT",
        Cell::Date("20240101".into()),
        c(""),
    )]);
    assert_eq!(where_ids("order_date IN @r", &mut host), ["2", "11"]);
    let mut host = range(vec![range_line("I", "NB", n("0002"), n("0010"))]);
    assert_eq!(where_ids("order_id IN @r", &mut host), ["1", "11"]);
    let mut host = range(vec![
        range_line("I", "NE", n("0002"), n("0")),
        range_line("E", "GT", n("0009"), n("0")),
        range_line("E", "LE", n("0001"), n("0")),
    ]);
    assert_eq!(where_ids("order_id IN @r", &mut host), ["9"]);
    let mut host = range(vec![range_line("I", "BT", n("1"), n("2"))]);
    assert_eq!(
        where_ids("order_id NOT IN @r", &mut host),
        ["9", "10", "11"]
    );

    let mut db = db();
    let mut host = range(vec![range_line("X", "EQ", n("1"), n("0"))]);
    let e = db
        .run(
            "SELECT order_id FROM zsql_head WHERE order_id IN @r INTO TABLE @DATA(t)",
            &mut host,
        )
        .err();
    assert!(matches!(e, Some(Error::Host { .. })), "{e:?}");
    let mut host = HostMap::new().with("r", HostValue::Table(vec![row(&[("LOW", n("1"))])]));
    let e = db
        .run(
            "SELECT order_id FROM zsql_head WHERE order_id IN @r INTO TABLE @DATA(t)",
            &mut host,
        )
        .err();
    assert!(matches!(e, Some(Error::Host { .. })), "{e:?}");
}

#[test]
fn up_to_offset_distinct() {
    let mut db = db();
    let (rc, cnt, r) = select(
        &mut db,
        "SELECT * FROM zsql_head ORDER BY order_id INTO TABLE @DATA(t) UP TO 2 ROWS",
    );
    assert_eq!((rc, cnt), (0, 2));
    assert_eq!(ids(&r), ["1", "2"]);
    let (_, cnt, _) = select(
        &mut db,
        "SELECT * FROM zsql_head INTO TABLE @DATA(t) UP TO 0 ROWS",
    );
    assert_eq!(cnt, 5, "UP TO 0 ROWS reads all");
    let (_, _, r) = select(
        &mut db,
        "SELECT * FROM zsql_head ORDER BY order_id INTO TABLE @DATA(t) OFFSET 3",
    );
    assert_eq!(ids(&r), ["10", "11"]);
    let mut host = HostMap::new().with("n", scalar(Cell::Int(2)));
    let (_, _, r) = select_with(
        &mut db,
        "SELECT * FROM zsql_head ORDER BY order_id INTO TABLE @DATA(t) UP TO @n ROWS OFFSET 1",
        &mut host,
    );
    assert_eq!(ids(&r), ["2", "9"]);
    let (_, cnt, r) = select(
        &mut db,
        "SELECT DISTINCT currency FROM zsql_head ORDER BY currency INTO TABLE @DATA(t)",
    );
    assert_eq!(cnt, 2);
    assert_eq!(column(&r, "CURRENCY"), [c("EUR"), c("USD")]);
}

#[test]
fn client_handling() {
    let mut db = db();
    let (rc, cnt, r) = select(
        &mut db,
        "SELECT * FROM zsql_head USING CLIENT '002' INTO TABLE @DATA(t)",
    );
    assert_eq!((rc, cnt), (0, 1));
    assert_eq!(column(&r, "CUSTOMER"), [c("OTHER")]);
    let mut host = HostMap::new().with("cl", scalar(c("002")));
    let (_, cnt, _) = select_with(
        &mut db,
        "SELECT * FROM zsql_head USING CLIENT @cl INTO TABLE @DATA(t)",
        &mut host,
    );
    assert_eq!(cnt, 1);
    let (_, cnt, r) = select(
        &mut db,
        "SELECT * FROM zsql_head CLIENT SPECIFIED INTO TABLE @DATA(t) WHERE mandt = '002'",
    );
    assert_eq!(cnt, 1);
    assert_eq!(column(&r, "MANDT"), [c("002")]);
    let (_, cnt, _) = select(
        &mut db,
        "SELECT * FROM zsql_head CLIENT SPECIFIED INTO TABLE @DATA(t)",
    );
    assert_eq!(cnt, 6);
    let (rc, cnt, _) = select(
        &mut db,
        "SELECT * FROM zsql_head USING CLIENT '003' INTO TABLE @DATA(t)",
    );
    assert_eq!((rc, cnt), (4, 0));
}

#[test]
fn count_star_without_target_sets_dbcnt() {
    let mut db = db();
    let (rc, cnt, _) = select(&mut db, "SELECT COUNT(*) FROM zsql_head WHERE priority = 1");
    assert_eq!((rc, cnt), (0, 2));
    let (rc, cnt, _) = select(
        &mut db,
        "SELECT COUNT( * ) FROM zsql_head WHERE priority = 99",
    );
    assert_eq!((rc, cnt), (4, 0));
}

#[test]
fn errors_are_typed() {
    let mut db = db();
    let mut h = HostMap::new();
    let e = db
        .run("SELECT * FROM znope INTO TABLE @DATA(t)", &mut h)
        .err();
    assert!(matches!(e, Some(Error::UnknownTable(_))), "{e:?}");
    let e = db
        .run("SELECT nope FROM zsql_head INTO TABLE @DATA(t)", &mut h)
        .err();
    assert!(matches!(e, Some(Error::UnknownColumn(_))), "{e:?}");
    let e = db
        .run(
            "SELECT * FROM zsql_head WHERE order_id = @missing INTO TABLE @DATA(t)",
            &mut h,
        )
        .err();
    assert!(matches!(e, Some(Error::Host { .. })), "{e:?}");
    let e = db
        .run(
            "SELECT * FROM zsql_head WHERE order_id = 'ABC' INTO TABLE @DATA(t)",
            &mut h,
        )
        .err();
    assert!(matches!(e, Some(Error::Conversion { .. })), "{e:?}");
    let e = db
        .run("SELECT * FROM zsql_s_addr INTO TABLE @DATA(t)", &mut h)
        .err();
    assert!(
        matches!(e, Some(Error::UnknownTable(_))),
        "a structure is no table: {e:?}"
    );
}

#[test]
fn a_constant_in_the_select_list_tells_existence() {
    let mut db = db();
    let mut host = HostMap::new().with("abap_true", scalar(c("X")));
    let (rc, cnt, r) = select_with(
        &mut db,
        "SELECT SINGLE @abap_true FROM zsql_head WHERE customer = 'BETA' INTO @DATA(exists)",
        &mut host,
    );
    assert_eq!((rc, cnt), (0, 1));
    assert_eq!(r.rows, [vec![c("X")]]);
    assert_eq!(r.columns[0].ty, AbapType::C(1));
    let (rc, _, r) = select_with(
        &mut db,
        "SELECT SINGLE FROM zsql_head FIELDS 'it''s', 42 AS n WHERE customer = 'NOBODY' INTO @DATA(exists)",
        &mut host,
    );
    assert_eq!(rc, 4);
    assert!(r.rows.is_empty());
    let (_, _, r) = select(
        &mut db,
        "SELECT 'it''s' AS q, 42 AS n FROM zsql_head WHERE order_id = '0001' INTO TABLE @DATA(t)",
    );
    assert_eq!(r.rows, [vec![c("it's"), Cell::Int(42)]]);
    assert!(matches!(
        parse("SELECT CAST( f AS CHAR ) FROM t INTO TABLE @x"),
        Err(Error::NotSupported(_))
    ));
}

#[test]
fn appending_and_corresponding_read_the_same_rows() {
    let mut db = db();
    for text in [
        "SELECT order_id, customer FROM zsql_head WHERE priority = 1 ORDER BY order_id APPENDING TABLE @lt",
        "SELECT order_id customer FROM zsql_head APPENDING CORRESPONDING FIELDS OF TABLE lt WHERE priority = 1 ORDER BY order_id",
        "SELECT order_id, customer FROM zsql_head WHERE priority = 1 ORDER BY order_id INTO CORRESPONDING FIELDS OF TABLE @lt",
    ] {
        let (stmt, o) = db
            .run(text, &mut HostMap::new())
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(matches!(stmt, Statement::Select(_)));
        assert_eq!((o.subrc, o.dbcnt), (0, Some(2)), "{text}");
        let r = o.result.expect("rows");
        assert_eq!(ids(&r), ["2", "10"], "{text}");
        assert_eq!(column(&r, "CUSTOMER"), [c("ACME"), c("GAMMA")], "{text}");
    }
}

//! The statement model the parser builds, what it refuses, and that no input makes it (or
//! the engine behind it) panic.

use opensql::ast::*;
use opensql::{Error, HostMap, parse};
use proptest::prelude::*;

fn select(text: &str) -> Select {
    match parse(text) {
        Ok(Statement::Select(s)) => *s,
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn select_clauses() {
    let s = select(
        "SELECT SINGLE FOR UPDATE DISTINCT a~f AS x, COUNT(*), COUNT( DISTINCT b~g ) FROM ztab AS a LEFT OUTER JOIN zother AS b ON b~k = a~k AND b~l EQ @v CLIENT SPECIFIED WHERE a~f IN @r GROUP BY a~f HAVING COUNT( * ) > 1 ORDER BY x DESCENDING, a~f INTO @DATA(wa) UP TO 5 ROWS OFFSET @o BYPASSING BUFFER",
    );
    assert!(s.single && s.distinct);
    let fields = s.fields.clone().expect("fields");
    assert_eq!(fields.len(), 3);
    assert_eq!(fields[0].alias.as_deref(), Some("X"));
    assert_eq!(
        fields[1].expr,
        SelectExpr::Aggregate(Aggregate {
            func: AggFunc::Count,
            distinct: false,
            arg: None
        })
    );
    assert!(matches!(&fields[2].expr, SelectExpr::Aggregate(a) if a.distinct));
    assert_eq!(s.from.table.qualifier(), "A");
    assert_eq!(s.from.joins[0].kind, JoinKind::LeftOuter);
    assert_eq!(s.client, ClientHandling::Specified);
    assert!(matches!(s.where_, Some(Cond::InRange { .. })));
    assert_eq!(s.group_by.len(), 1);
    assert!(s.having.is_some());
    assert!(matches!(&s.order_by, Some(OrderBy::Columns(k)) if k.len() == 2 && k[0].1));
    assert_eq!(s.up_to, Some(Operand::Number(5)));
    assert_eq!(s.offset, Some(Operand::Host("O".into())));
    let s = select("select * from ztab into table @data(t) where f = 'x' order by primary key");
    assert_eq!(s.order_by, Some(OrderBy::PrimaryKey));
    assert!(s.fields.is_none());
    let s = select("SELECT * FROM ztab USING CLIENT @lv_client INTO TABLE lt");
    assert_eq!(
        s.client,
        ClientHandling::Using(Operand::Host("LV_CLIENT".into()))
    );
}

#[test]
fn conditions() {
    let s = select(
        "SELECT * FROM t INTO TABLE @x WHERE NOT ( a = 1 OR b <> -2 ) AND c BETWEEN @lo AND @hi AND d NOT LIKE 'x%' ESCAPE '#' AND e IN ( 'a', @b ) AND f IS NOT NULL AND g IS INITIAL AND h NOT IN r",
    );
    let w = format!("{:?}", s.where_);
    for part in [
        "Not(Or(Compare(Name(\"A\"), Eq, Number(1)), Compare(Name(\"B\"), Ne, Number(-2))))",
        "Between { operand: Name(\"C\"), low: Host(\"LO\"), high: Host(\"HI\"), negated: false }",
        "Like { operand: Name(\"D\"), pattern: Text(\"x%\"), escape: Some(Text(\"#\")), negated: true }",
        "InList { operand: Name(\"E\"), list: [Text(\"a\"), Host(\"B\")], negated: false }",
        "IsNull { operand: Name(\"F\"), negated: true }",
        "IsInitial { operand: Name(\"G\"), negated: false }",
        "InRange { operand: Name(\"H\"), range: \"R\", negated: true }",
    ] {
        assert!(w.contains(part), "{part} not in {w}");
    }
}

#[test]
fn writes_and_transactions() {
    let w = |t: &str| parse(t).unwrap_or_else(|e| panic!("{t}: {e}"));
    assert!(matches!(
        w("INSERT ztab FROM TABLE @lt ACCEPTING DUPLICATE KEYS"),
        Statement::Insert(Write {
            accepting_duplicates: true,
            source: Source::Table(_),
            ..
        })
    ));
    assert!(matches!(
        w("INSERT INTO ztab VALUES @ls"),
        Statement::Insert(Write {
            source: Source::Row(_),
            ..
        })
    ));
    assert!(matches!(
        w("UPDATE ztab FROM TABLE lt"),
        Statement::Update(Update::From(_))
    ));
    match w("UPDATE ztab SET f = @v, g = g + 1, h = h - @d WHERE k = 'A'") {
        Statement::Update(Update::Set { sets, where_, .. }) => {
            assert_eq!(sets.len(), 3);
            assert!(matches!(
                sets[1].value,
                SetValue::Add(_, Operand::Number(1))
            ));
            assert!(matches!(sets[2].value, SetValue::Sub(_, Operand::Host(_))));
            assert!(where_.is_some());
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(w("MODIFY ztab FROM @ls"), Statement::Modify(_)));
    assert!(matches!(
        w("DELETE ztab FROM TABLE @lt"),
        Statement::Delete(Delete::From(_))
    ));
    assert!(matches!(
        w("DELETE FROM ztab WHERE f = 1"),
        Statement::Delete(Delete::Where { .. })
    ));
    assert!(matches!(
        w("DELETE FROM ztab"),
        Statement::Delete(Delete::Where { where_: None, .. })
    ));
    assert_eq!(w("COMMIT WORK"), Statement::CommitWork);
    assert_eq!(w("rollback work"), Statement::RollbackWork);
}

#[test]
fn refusals_and_syntax_errors() {
    for text in [
        "SELECT * FROM t INTO TABLE @x WHERE f = ANY ( SELECT g FROM u )",
        "SELECT * FROM t INTO TABLE @x WHERE f > ALL ( SELECT g FROM u )",
        "SELECT * FROM t INTO TABLE @x WHERE f IN ( SELECT g FROM u ORDER BY g )",
        "SELECT * FROM t INTO TABLE @x PACKAGE SIZE 10",
        "SELECT * FROM (lv_tab) INTO TABLE @x",
        "SELECT f FROM t UNION SELECT f FROM u INTO TABLE @x",
        "SELECT * FROM t RIGHT OUTER JOIN u ON u~a = t~a INTO TABLE @x",
        "SELECT * FROM t INTO TABLE @x WHERE f = @( lv_a + 1 )",
        "SELECT * FROM t INTO TABLE @x WHERE upper( f ) = 'A'",
        "SELECT COUNT( f ) FROM t INTO @x",
        "OPEN CURSOR @c FOR SELECT * FROM t",
    ] {
        assert!(
            matches!(parse(text), Err(Error::NotSupported(_))),
            "{text}: {:?}",
            parse(text)
        );
    }
    for text in [
        "",
        "SELECT",
        "SELECT * INTO TABLE @x",
        "SELECT f FROM t",
        "SELECT * FROM t INTO TABLE @x WHERE",
        "SELECT * FROM t INTO TABLE @x WHERE f =",
        "SELECT * FROM t INTO TABLE @x WHERE ( f = 1",
        "SELECT * FROM t INTO TABLE @x WHERE f = 'open",
        "UPDATE ztab SET",
        "DELETE",
        "WRITE 'x'",
        "SELECT * FROM t INTO TABLE @x garbage",
    ] {
        assert!(
            matches!(parse(text), Err(Error::Syntax { .. })),
            "{text}: {:?}",
            parse(text)
        );
    }
}

#[test]
fn subqueries() {
    let s = select(
        "SELECT * FROM t AS a INTO TABLE @x WHERE f IN ( SELECT g FROM u WHERE h = a~k ) AND NOT EXISTS ( SELECT * FROM v ) AND m >= ( SELECT MAX( n ) FROM w )",
    );
    let w = format!("{:?}", s.where_);
    assert!(w.contains("InQuery { operand: Name(\"F\")"), "{w}");
    assert!(w.contains("Not(Exists("), "{w}");
    assert!(
        w.contains("CompareQuery { operand: Name(\"M\"), op: Ge"),
        "{w}"
    );
    assert!(matches!(
        parse("SELECT * FROM t INTO TABLE @x WHERE f IN ( SELECT g FROM u INTO @y )"),
        Err(Error::Syntax { .. })
    ));
    let mut deep = String::from("SELECT * FROM t INTO TABLE @x WHERE ");
    for _ in 0..40 {
        deep.push_str("EXISTS ( SELECT * FROM t WHERE ");
    }
    assert!(matches!(parse(&deep), Err(Error::NotSupported(_))));
}

#[test]
fn deepest_accepted_nesting_parses_and_runs() {
    // As deep as the parser accepts (32 levels of subqueries and parentheses), with a long
    // chain of comparisons inside (longer ones nested this deep exceed the database's own
    // expression depth: a typed error).
    let mut text = String::from("SELECT * FROM zsql_head INTO TABLE @DATA(t) WHERE ");
    for _ in 0..4 {
        text.push_str("( ( ( ( ( ( ( EXISTS ( SELECT * FROM zsql_item WHERE ");
    }
    text.push_str("product = 'NUT'");
    for _ in 0..50 {
        text.push_str(" AND quantity >= 0");
    }
    for _ in 0..4 {
        text.push_str(" ) ) ) ) ) ) ) )");
    }
    assert!(parse(&text).is_ok(), "{:?}", parse(&text).err());
    let mut db = crate::common::db();
    let result = db.run(&text, &mut HostMap::new());
    assert!(result.is_ok(), "{:?}", result.err());
    // One level more is refused.
    let deeper = format!("{} )", text.replacen("WHERE ", "WHERE ( ", 1));
    assert!(matches!(parse(&deeper), Err(Error::NotSupported(_))));
}

#[test]
fn pragmas_are_skipped() {
    let s =
        select("SELECT * FROM t INTO TABLE @x ##SELECT_FAE_WITH_LOB[text] WHERE f = 1 ##NEEDED");
    assert!(s.where_.is_some());
}

#[test]
fn very_long_conditions_are_refused_not_overflowed() {
    let mut text = String::from("SELECT * FROM t INTO TABLE @x WHERE a = 1");
    for _ in 0..5000 {
        text.push_str(" AND a = 1");
    }
    assert!(matches!(parse(&text), Err(Error::NotSupported(_))));
    let mut nested = String::from("SELECT * FROM t INTO TABLE @x WHERE ");
    nested.push_str(&"( NOT ".repeat(5000));
    assert!(parse(&nested).is_err());
}

const WORDS: &[&str] = &[
    "SELECT",
    "SINGLE",
    "*",
    "FROM",
    "zsql_head",
    "zsql_item",
    "AS",
    "h",
    "INTO",
    "TABLE",
    "@",
    "DATA",
    "(",
    ")",
    ",",
    "WHERE",
    "AND",
    "OR",
    "NOT",
    "=",
    "<>",
    "IN",
    "BETWEEN",
    "LIKE",
    "IS",
    "NULL",
    "INITIAL",
    "order_id",
    "customer",
    "h~order_id",
    "'0001'",
    "1",
    "-",
    "+",
    "GROUP",
    "BY",
    "ORDER",
    "HAVING",
    "COUNT",
    "SUM",
    "UP",
    "TO",
    "ROWS",
    "INNER",
    "JOIN",
    "LEFT",
    "OUTER",
    "ON",
    "FOR",
    "ALL",
    "ENTRIES",
    "INSERT",
    "UPDATE",
    "SET",
    "DELETE",
    "MODIFY",
    "VALUES",
    "COMMIT",
    "WORK",
    "ROLLBACK",
    "CLIENT",
    "SPECIFIED",
    "USING",
    "lt",
    "lt-order_id",
    "wa",
    "`s`",
    "ESCAPE",
    "OFFSET",
    "FIELDS",
    "DISTINCT",
    "PRIMARY",
    "KEY",
    "DESCENDING",
    "APPENDING",
    "CORRESPONDING",
    "OF",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = parse(&text);
    }

    #[test]
    fn token_soup_never_panics_in_parser_or_engine(words in proptest::collection::vec(0..WORDS.len(), 0..40)) {
        let text: Vec<&str> = words.iter().map(|&i| WORDS[i]).collect();
        let text = text.join(" ");
        let _ = parse(&text);
        let mut db = crate::common::db();
        let mut host = HostMap::new()
            .with("lt", opensql::HostValue::Table(vec![]))
            .with("wa", opensql::HostValue::Struct(crate::common::head("0300", "P", "20250101", 0)));
        let _ = db.run(&text, &mut host);
    }
}

#[test]
fn select_star_without_into_reads_into_the_tables_work_area() {
    let s = select("SELECT SINGLE * FROM zsql_head AS h WHERE order_id = '0001'");
    let into = s.into.expect("an implicit target");
    assert_eq!(into.target, Target::WorkArea("ZSQL_HEAD".into()));
    assert_eq!(into.kind, IntoKind::Row);
    let s = select("SELECT * FROM zsql_head WHERE order_id > '0001' ORDER BY order_id");
    assert!(s.is_loop(), "SELECT * without INTO and SINGLE is a loop");
    // Only `*` from one table has the short form.
    for text in [
        "SELECT order_id FROM zsql_head",
        "SELECT * FROM zsql_head AS h INNER JOIN zsql_item AS i ON i~order_id = h~order_id",
    ] {
        assert!(matches!(parse(text), Err(Error::Syntax { .. })), "{text}");
    }
}

#[test]
fn writes_without_from_take_the_tables_work_area() {
    let row = |w: &Write| (w.table.clone(), w.source.clone());
    let expected = ("ZTAB".to_string(), Source::Row("ZTAB".into()));
    match parse("INSERT ztab") {
        Ok(Statement::Insert(w)) => assert_eq!(row(&w), expected),
        other => panic!("{other:?}"),
    }
    match parse("MODIFY ztab") {
        Ok(Statement::Modify(w)) => assert_eq!(row(&w), expected),
        other => panic!("{other:?}"),
    }
    match parse("UPDATE ztab") {
        Ok(Statement::Update(Update::From(w))) => assert_eq!(row(&w), expected),
        other => panic!("{other:?}"),
    }
    match parse("DELETE ztab CLIENT SPECIFIED") {
        Ok(Statement::Delete(Delete::From(w))) => {
            assert_eq!(row(&w), expected);
            assert_eq!(w.client, ClientHandling::Specified);
        }
        other => panic!("{other:?}"),
    }
}

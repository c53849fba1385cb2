//! Shared helpers: the fixture database, short constructors for cells and host values.

use std::path::PathBuf;

use opensql::{Cell, Components, Database, HostMap, HostValue, Options, Outcome, ResultSet};

pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ddic")
}

/// The fixture tables in memory, logon client 001.
pub fn db() -> Database {
    let mut db = Database::open(&Options::default()).expect("open");
    db.load_dir(&fixtures()).expect("load fixtures");
    db
}

/// Runs `text` and returns its outcome; panics with the error.
pub fn run(db: &mut Database, text: &str, host: &mut HostMap) -> Outcome {
    match db.run(text, host) {
        Ok((_, o)) => o,
        Err(e) => panic!("{text}: {e}"),
    }
}

/// Runs a SELECT with no host values and returns (subrc, dbcnt, result).
pub fn select(db: &mut Database, text: &str) -> (i32, i64, ResultSet) {
    select_with(db, text, &mut HostMap::new())
}

pub fn select_with(db: &mut Database, text: &str, host: &mut HostMap) -> (i32, i64, ResultSet) {
    let o = run(db, text, host);
    (
        o.subrc,
        o.dbcnt.expect("SELECT sets sy-dbcnt"),
        o.result.expect("SELECT gives rows"),
    )
}

/// Column `name` of every row.
pub fn column(r: &ResultSet, name: &str) -> Vec<Cell> {
    let i = r
        .columns
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no column {name} in {:?}", r.columns));
    r.rows.iter().map(|row| row[i].clone()).collect()
}

pub fn c(s: &str) -> Cell {
    Cell::Char(s.into())
}

pub fn n(s: &str) -> Cell {
    Cell::Numc(s.into())
}

pub fn p(mant: i128, dec: u32) -> Cell {
    Cell::Packed { mant, dec }
}

pub fn scalar(cell: Cell) -> HostValue {
    HostValue::Scalar(cell)
}

pub fn row(comps: &[(&str, Cell)]) -> Components {
    comps
        .iter()
        .map(|(n, c)| (n.to_ascii_uppercase(), c.clone()))
        .collect()
}

/// A ranges table line.
pub fn range_line(sign: &str, option: &str, low: Cell, high: Cell) -> Components {
    row(&[
        ("SIGN", c(sign)),
        ("OPTION", c(option)),
        ("LOW", low),
        ("HIGH", high),
    ])
}

/// A work area of ZSQL_HEAD.
pub fn head(order: &str, customer: &str, date: &str, total: i128) -> Components {
    row(&[
        ("MANDT", c("")),
        ("ORDER_ID", n(order)),
        ("CUSTOMER", c(customer)),
        ("ORDER_DATE", Cell::Date(date.into())),
        ("TOTAL", p(total, 2)),
        ("CURRENCY", c("EUR")),
        ("NOTE", Cell::String(String::new())),
        ("PRIORITY", Cell::Int(0)),
        ("CHANGED_AT", p(0, 7)),
    ])
}

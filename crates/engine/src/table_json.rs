//! A `table` page (its rows and cells, as `commands/tables.rs` reads them) written as the
//! response's JSON text straight from its rows.
//!
//! A page of 100 rows of ten columns is a thousand cells. Going through a `serde_json::Value`
//! cost a map node and two strings per cell to build, then as much again to drop. The text
//! written here is exactly what that `Value` serialises to: the members of every object in
//! the order `serde_json`'s `Map` keeps them (alphabetical; a row's cells too, the last of two
//! of the same name winning), the result's members those of `jsonl::results::TableResult`,
//! each value cut at the page's `max` characters. The tests hold it to that reference.

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use jsonl::{ErrorBody, ErrorCode};

/// One cell: component name (empty for an elementary line type), display value, ABAP type
/// (as the system gives it) and meta type (`simple`, `string`, `structure`, `table`, …).
/// The two types are the record's short texts, shared without an allocation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cell {
    pub(crate) name: adt::CompactString,
    pub(crate) value: adt::CompactString,
    pub(crate) technical_type: adt::CompactString,
    pub(crate) meta: adt::CompactString,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub(crate) index: u32,
    pub(crate) id: String,
    pub(crate) cells: Vec<Cell>,
}

/// A `table` page as read, before it is written as the response's JSON
/// ([`crate::table_json::table_json`]): the members of [`jsonl::results::TableResult`], with
/// the rows as they were read and the cut for their values.
pub(crate) struct Page {
    pub(crate) epoch: u64,
    pub(crate) id: String,
    pub(crate) total: u32,
    pub(crate) offset: u32,
    pub(crate) columns: Vec<jsonl::results::Column>,
    pub(crate) rows: Vec<Row>,
    pub(crate) more: bool,
    /// Values are cut at this many characters.
    pub(crate) max: usize,
}

/// The page as the `result` of a `table` response. (Writing strings and numbers to memory
/// does not fail, and the text is UTF-8; were either not so, the request fails, as any
/// result that cannot be encoded does.)
pub(crate) fn table_json(page: &Page) -> Result<String, ErrorBody> {
    let cells: usize = page.rows.iter().map(|r| r.cells.len()).sum();
    let mut out = Vec::with_capacity(256 + 48 * page.rows.len() + 32 * cells);
    let encoding = |e: &dyn std::fmt::Display| {
        ErrorBody::new(
            ErrorCode::Internal,
            format!("cannot encode the result: {e}"),
        )
    };
    PageJson(page)
        .serialize(&mut serde_json::Serializer::new(&mut out))
        .map_err(|e| encoding(&e))?;
    String::from_utf8(out).map_err(|e| encoding(&e))
}

/// `value` cut at `max` characters.
fn cut(value: &str, max: usize) -> &str {
    // No more bytes than `max`: no more characters either (most cells), nothing to count.
    if value.len() <= max {
        return value;
    }
    match value.char_indices().nth(max) {
        Some((at, _)) => &value[..at],
        None => value,
    }
}

struct PageJson<'a>(&'a Page);

impl Serialize for PageJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.0;
        let mut m = s.serialize_map(Some(7))?;
        m.serialize_entry("columns", &ColumnsJson(&p.columns))?;
        m.serialize_entry("epoch", &p.epoch)?;
        m.serialize_entry("id", &p.id)?;
        m.serialize_entry("more", &p.more)?;
        m.serialize_entry("offset", &p.offset)?;
        m.serialize_entry("rows", &RowsJson(&p.rows, p.max))?;
        m.serialize_entry("total", &p.total)?;
        m.end()
    }
}

struct ColumnsJson<'a>(&'a [jsonl::results::Column]);

impl Serialize for ColumnsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for c in self.0 {
            seq.serialize_element(&ColumnJson(c))?;
        }
        seq.end()
    }
}

struct ColumnJson<'a>(&'a jsonl::results::Column);

impl Serialize for ColumnJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("meta", &self.0.meta)?;
        m.serialize_entry("name", &self.0.name)?;
        m.serialize_entry("type", &self.0.technical_type)?;
        m.end()
    }
}

struct RowsJson<'a>(&'a [Row], usize);

impl Serialize for RowsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (rows, max) = (self.0, self.1);
        let mut seq = s.serialize_seq(Some(rows.len()))?;
        // The rows of a page have the same cells: their alphabetical order is found again
        // only when a row's names differ from those it was found for.
        let mut order = Vec::new();
        let mut order_of: Option<&[Cell]> = None;
        for row in rows {
            if !order_of.is_some_and(|cells| same_names(cells, &row.cells)) {
                order = alphabetical(&row.cells);
                order_of = Some(&row.cells);
            }
            seq.serialize_element(&RowJson {
                row,
                max,
                order: &order,
            })?;
        }
        seq.end()
    }
}

/// The indices of `cells` in the order of their names, and for a name given twice only its
/// last cell (what a map does with the second of two same keys).
fn alphabetical(cells: &[Cell]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..cells.len()).collect();
    // Stable: of two cells of one name, the later stays later.
    order.sort_by(|&a, &b| cells[a].name.cmp(&cells[b].name));
    let mut kept: Vec<usize> = Vec::with_capacity(order.len());
    for i in order {
        match kept.last_mut() {
            Some(last) if cells[*last].name == cells[i].name => *last = i,
            _ => kept.push(i),
        }
    }
    kept
}

fn same_names(a: &[Cell], b: &[Cell]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.name == y.name)
}

struct RowJson<'a> {
    row: &'a Row,
    max: usize,
    /// [`alphabetical`] of the row's cells.
    order: &'a [usize],
}

impl Serialize for RowJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let row = self.row;
        let mut m = s.serialize_map(Some(3))?;
        match row.cells.as_slice() {
            // An elementary line type: the row's one value.
            [only] if only.name.is_empty() => {
                m.serialize_entry("id", &row.id)?;
                m.serialize_entry("index", &row.index)?;
                m.serialize_entry("value", cut(&only.value, self.max))?;
            }
            cells => {
                m.serialize_entry(
                    "columns",
                    &CellsJson {
                        cells,
                        order: self.order,
                        max: self.max,
                    },
                )?;
                m.serialize_entry("id", &row.id)?;
                m.serialize_entry("index", &row.index)?;
            }
        }
        m.end()
    }
}

struct CellsJson<'a> {
    cells: &'a [Cell],
    order: &'a [usize],
    max: usize,
}

impl Serialize for CellsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.order.len()))?;
        for c in self.order.iter().filter_map(|&i| self.cells.get(i)) {
            m.serialize_entry(c.name.as_str(), cut(&c.value, self.max))?;
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonl::results::{Column, TableResult, TableRow};
    use proptest::prelude::*;
    use serde_json::{Map, Value};

    /// A row as a `TableRow` (what the page was answered through before): each cell into a
    /// map, its value cut at `max` characters.
    fn reference_row(row: Row, max: usize) -> TableRow {
        let cut_owned = |v: adt::CompactString| crate::to_proto::limited(&v, max).0;
        let elementary = matches!(row.cells.as_slice(), [only] if only.name.is_empty());
        let mut cells = row.cells.into_iter();
        let (value, columns) = match cells.next() {
            Some(only) if elementary => (Some(cut_owned(only.value)), None),
            first => {
                let columns: Map<String, Value> = first
                    .into_iter()
                    .chain(cells)
                    .map(|c| (c.name.to_string(), Value::String(cut_owned(c.value))))
                    .collect();
                (None, Some(columns))
            }
        };
        TableRow {
            index: row.index,
            id: row.id,
            value,
            columns,
        }
    }

    /// The page through the typed result and a `Value`, as it was answered before.
    fn reference(page: &Page) -> String {
        let result = TableResult {
            epoch: page.epoch,
            id: page.id.clone(),
            total: page.total,
            offset: page.offset,
            columns: page.columns.clone(),
            rows: page
                .rows
                .iter()
                .cloned()
                .map(|r| reference_row(r, page.max))
                .collect(),
            more: page.more,
        };
        serde_json::to_value(result).unwrap().to_string()
    }

    fn cell(name: &str, value: &str) -> Cell {
        Cell {
            name: name.into(),
            value: value.into(),
            technical_type: "C".into(),
            meta: "simple".into(),
        }
    }

    fn page(rows: Vec<Vec<Cell>>, max: usize) -> Page {
        Page {
            epoch: 7,
            id: "LT_X".into(),
            total: 100_000,
            offset: 3,
            columns: vec![Column {
                name: "A".into(),
                technical_type: "C".into(),
                meta: "simple".into(),
            }],
            rows: rows
                .into_iter()
                .enumerate()
                .map(|(i, cells)| Row {
                    index: 4 + i as u32,
                    id: format!("LT_X[{}]", 4 + i),
                    cells,
                })
                .collect(),
            more: true,
            max,
        }
    }

    #[test]
    fn pages_are_written_as_their_value_serialises() {
        for p in [
            page(
                vec![
                    vec![cell("B", "x \"y\"\n"), cell("A", ""), cell("C", "äöü ß")],
                    vec![cell("B", "2"), cell("A", "1"), cell("C", "3")],
                    vec![cell("", "elementary")],
                    vec![],
                    vec![cell("A", "first"), cell("A", "second"), cell("", "x")],
                    vec![cell("", "a"), cell("", "b")],
                ],
                3,
            ),
            page(Vec::new(), 10),
            page(vec![vec![cell("", "日本語テキスト")]], 4),
        ] {
            assert_eq!(table_json(&p).unwrap(), reference(&p));
        }
    }

    fn name() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(String::new()),
            Just("A".to_string()),
            Just("B".to_string()),
            Just("a".to_string()),
            Just("NAME".to_string()),
            Just("Ä".to_string()),
        ]
    }

    fn cells() -> impl Strategy<Value = Vec<Cell>> {
        proptest::collection::vec(
            (name(), "[a-z ÄÖ日\"\\\\\n]{0,8}").prop_map(|(n, v)| cell(&n, &v)),
            0..5,
        )
    }

    proptest! {
        // Any page, rows alike or not, names repeated or empty, values cut or not.
        #[test]
        fn any_page_is_written_as_its_value_serialises(
            first in cells(),
            others in proptest::collection::vec(cells(), 0..4),
            repeat in 0usize..4,
            max in 0usize..10,
        ) {
            let mut rows = vec![first.clone(); repeat];
            rows.extend(others);
            rows.push(first);
            let p = page(rows, max);
            prop_assert_eq!(table_json(&p).unwrap(), reference(&p));
        }
    }
}

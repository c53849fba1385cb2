//! What executing a statement gives back.

use crate::cell::Cell;
use crate::types::{AbapType, DdicType};

/// One column of a result set.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The alias, else the column name (upper case); aggregates without alias are named
    /// by their function (`COUNT`, `SUM`, …).
    pub name: String,
    pub ty: AbapType,
    /// The dictionary type of the column the value comes from (absent for `COUNT`, `AVG`).
    pub ddic: Option<DdicType>,
}

/// The rows a `SELECT` read, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResultSet {
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Cell>>,
}

/// The result of one statement: the values for `sy-subrc` and `sy-dbcnt` (`None`: left
/// unchanged) and, for `SELECT`, the rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub subrc: i32,
    pub dbcnt: Option<i64>,
    pub result: Option<ResultSet>,
}

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

/// A `SELECT … ENDSELECT` loop: the rows handed out one pass at a time, with the
/// `sy-dbcnt` each pass sets, and the `sy-subrc` / `sy-dbcnt` after the loop.
#[derive(Debug, Clone)]
pub struct SelectLoop {
    columns: Vec<Column>,
    rows: std::vec::IntoIter<Vec<Cell>>,
    passed: i64,
}

impl SelectLoop {
    pub fn new(result: ResultSet) -> SelectLoop {
        SelectLoop {
            columns: result.columns,
            rows: result.rows.into_iter(),
            passed: 0,
        }
    }

    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The next row and the `sy-dbcnt` of its pass (the rows passed so far, this one
    /// included); `sy-subrc` is 0 in every pass. `None`: the loop is over (go to
    /// `ENDSELECT`'s successor).
    pub fn next_row(&mut self) -> Option<(Vec<Cell>, i64)> {
        let row = self.rows.next()?;
        self.passed += 1;
        Some((row, self.passed))
    }

    /// `sy-subrc` and `sy-dbcnt` once the loop ends, at `ENDSELECT` or left early with
    /// `EXIT`: 0 and the rows passed when there was one, else 4 and 0.
    pub fn finish(&self) -> (i32, i64) {
        (if self.passed > 0 { 0 } else { 4 }, self.passed)
    }
}

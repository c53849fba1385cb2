//! Assigning a whole internal table to a sorted or hashed table: the rows are stored by the
//! target's primary key. A sorted target orders them by the key, keeping the source order of
//! rows with equal keys (a block operation takes the duplicates' order from the source); a
//! unique key (sorted or hashed) met twice ends the run with `ITAB_DUPLICATE_KEY`, which an
//! assignment does not let a program catch.

use std::cmp::Ordering;

use crate::interp::{Exec, Interp};
use abap_data::value::{TableKind, Value};

impl Interp<'_, '_> {
    /// `val`, `source` converted to its target type, with its rows stored by the target key.
    pub(crate) fn keyed_table(&self, source: &Value, val: Value) -> Exec<Value> {
        let Value::Table(tt, rows) = &val else {
            return Ok(val);
        };
        let unique = tt.unique || tt.kind == TableKind::Hashed;
        if rows.len() < 2 || (tt.kind == TableKind::Standard && !unique) {
            return Ok(val);
        }
        if let Value::Table(from, _) = source
            && from.kind == tt.kind
            && from.unique == tt.unique
            && from.key_comps() == tt.key_comps()
        {
            // Stored by the same key already.
            return Ok(val);
        }
        let key = Self::key_of(tt);
        // A stable sort of the row numbers by key; the first comparison error wins.
        let mut order: Vec<usize> = (0..rows.len()).collect();
        let mut failed = None;
        order.sort_by(|&a, &b| {
            if failed.is_some() {
                return Ordering::Equal;
            }
            match (rows.get(a), rows.get(b)) {
                (Some(x), Some(y)) => self.cmp_by(x, y, &key).unwrap_or_else(|e| {
                    failed = Some(e);
                    Ordering::Equal
                }),
                _ => Ordering::Equal,
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        if unique {
            for pair in order.windows(2) {
                if let [a, b] = pair
                    && let (Some(x), Some(y)) = (rows.get(*a), rows.get(*b))
                    && self.cmp_by(x, y, &key)? == Ordering::Equal
                {
                    return Err(self.dump(
                        "ITAB_DUPLICATE_KEY",
                        "A row with the same unique key already exists",
                    ));
                }
            }
        }
        if tt.kind != TableKind::Sorted {
            return Ok(val);
        }
        let sorted: Vec<Value> = order.iter().filter_map(|&i| rows.get(i).cloned()).collect();
        Ok(Value::Table(tt.clone(), sorted.into()))
    }
}

//! Secondary table keys (`WITH [NON-]UNIQUE SORTED|HASHED KEY name COMPONENTS …`): `LOOP AT
//! … USING KEY name` walks the rows in the key's order, `READ TABLE … WITH KEY name
//! COMPONENTS …` searches by it (binary for sorted keys; `sy-tabix` counts in the key's order,
//! 0 for hashed keys). Uniqueness of secondary keys is not checked.

use std::cmp::Ordering;

use crate::interp::tables::{as_i32, sy_set};
use crate::interp::{Exec, Interp};
use abap_data::place::Place;
use abap_data::value::{TableType, Value};
use abap_syntax::ast::{Expr, Path, RowTarget};

impl<'r> Interp<'r, '_> {
    /// Row indexes of the table at `place` in the order of secondary key `name`, and whether
    /// the key is sorted.
    pub fn secondary_order(
        &self,
        place: &Place,
        tt: &TableType,
        name: &str,
    ) -> Exec<(Vec<usize>, bool)> {
        self.secondary_order_of(self.rows(place), tt, name)
    }

    /// Indexes of `rows` in the order of secondary key `name`, and whether the key is sorted.
    pub fn secondary_order_of(
        &self,
        rows: &[Value],
        tt: &TableType,
        name: &str,
    ) -> Exec<(Vec<usize>, bool)> {
        let Some(k) = tt.secondary.iter().find(|k| k.name == name) else {
            return Err(self.not_supported(&format!("table key {name}")));
        };
        let mut order: Vec<usize> = (0..rows.len()).collect();
        if k.sorted {
            let comps: Vec<(String, bool)> = k.comps.iter().map(|c| (c.clone(), false)).collect();
            let mut err = None;
            order.sort_by(|a, b| match (rows.get(*a), rows.get(*b)) {
                (Some(x), Some(y)) => match self.cmp_by(x, y, &comps) {
                    Ok(o) => o,
                    Err(e) => {
                        err.get_or_insert(e);
                        Ordering::Equal
                    }
                },
                _ => Ordering::Equal,
            });
            if let Some(e) = err {
                return Err(e);
            }
        }
        Ok((order, k.sorted))
    }

    /// `READ TABLE itab … WITH [TABLE] KEY name COMPONENTS c = v …`.
    pub fn read_secondary(
        &mut self,
        table: &Path,
        target: &RowTarget,
        key: &[(String, Expr)],
        name: &str,
    ) -> Exec<()> {
        let (place, tt) = self.table_place(table)?;
        let k = self.eval_key(key)?;
        let (order, sorted) = self.secondary_order(&place, &tt, name)?;
        let comps = tt
            .secondary
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.comps.clone())
            .unwrap_or_default();
        let rows = self.rows(&place);
        let view: Vec<Value> = order.iter().filter_map(|i| rows.get(*i).cloned()).collect();
        // A sorted key covering an initial part of the key components is searched binary.
        let mut ordered = Vec::new();
        if sorted && !k.is_empty() && k.len() <= comps.len() {
            for c in comps.iter().take(k.len()) {
                match k.iter().find(|(n, _)| n == c) {
                    Some(kv) => ordered.push(kv.clone()),
                    None => {
                        ordered.clear();
                        break;
                    }
                }
            }
        }
        let (found, subrc, tabix) = if ordered.is_empty() {
            match self.find_row(&view, &k)? {
                Some(p) => (Some(p), 0, p + 1),
                None => (None, 4, 0),
            }
        } else {
            let bk = crate::interp::table_ops::typed_key(&view, ordered);
            self.binary_read(&view, &bk)?
        };
        if let Some(row) = found.and_then(|p| order.get(p)).copied() {
            self.put_row(&place, row, target)?;
        }
        sy_set(self, "SUBRC", subrc);
        sy_set(self, "TABIX", if sorted { as_i32(tabix) } else { 0 });
        Ok(())
    }
}

//! Table expressions: which row `[ … ]` selects (an index, a free key, the order of a table
//! key), where the row a table expression or a chain of them names lives
//! (`matrix[ i ][ j ]`, `itab[ 1 ]-sub[ 2 ]-f`), and assignments to such a row.

use crate::interp::{Exec, Flow, Interp};
use abap_data::place::{Place, Step};
use abap_data::value::{TableKind, TableType, Value};
use abap_syntax::ast::{AssignOp, Expr, Path, RowSel};

/// The name ABAP gives a table's primary key in `KEY … INDEX` and `KEY … COMPONENTS`.
const PRIMARY_KEY: &str = "PRIMARY_KEY";

/// A row selector with its operands evaluated.
pub(crate) enum Wanted {
    Index(i64),
    Key(Vec<(String, Value)>),
    KeyIndex(String, i64),
    KeyComps(String, Vec<(String, Value)>),
}

impl Interp<'_, '_> {
    /// Evaluates the operands of a row selector.
    pub(crate) fn wanted(&mut self, sel: &RowSel) -> Exec<Wanted> {
        Ok(match sel {
            RowSel::Index(e) => Wanted::Index(self.int(e)?),
            RowSel::Key(k) => Wanted::Key(self.eval_key(k)?),
            RowSel::KeyIndex(key, e) => Wanted::KeyIndex(key.clone(), self.int(e)?),
            RowSel::KeyComps(key, k) => Wanted::KeyComps(key.clone(), self.eval_key(k)?),
        })
    }

    /// The 0-based index (in `rows`) of the row `w` selects.
    pub(crate) fn pick_row(
        &self,
        tt: &TableType,
        rows: &[Value],
        w: &Wanted,
    ) -> Exec<Option<usize>> {
        let nth = |n: i64| usize::try_from(n - 1).ok().filter(|i| *i < rows.len());
        match w {
            Wanted::Index(n) => Ok(nth(*n)),
            Wanted::Key(k) => self.find_row(rows, k),
            Wanted::KeyIndex(key, n) if key == PRIMARY_KEY => {
                if tt.kind == TableKind::Hashed {
                    return Err(self.not_supported("KEY primary_key INDEX on a hashed table"));
                }
                Ok(nth(*n))
            }
            Wanted::KeyIndex(key, n) => {
                let (order, sorted) = self.secondary_order_of(rows, tt, key)?;
                if !sorted {
                    return Err(self.not_supported(&format!("KEY {key} INDEX on a hashed key")));
                }
                Ok(usize::try_from(n - 1)
                    .ok()
                    .and_then(|i| order.get(i))
                    .copied())
            }
            Wanted::KeyComps(key, k) if key == PRIMARY_KEY => self.find_row(rows, k),
            Wanted::KeyComps(key, k) => {
                // The first matching row in the key's order (a partial key of a sorted key
                // matches several rows).
                let (order, _) = self.secondary_order_of(rows, tt, key)?;
                for i in order {
                    if let Some(row) = rows.get(i)
                        && self.find_row(std::slice::from_ref(row), k)?.is_some()
                    {
                        return Ok(Some(i));
                    }
                }
                Ok(None)
            }
        }
    }

    /// The 0-based index of the row of the table `tt`/`rows` that `sel` selects.
    pub(crate) fn select_row(
        &mut self,
        tt: &TableType,
        rows: &[Value],
        sel: &RowSel,
    ) -> Exec<Option<usize>> {
        let w = self.wanted(sel)?;
        self.pick_row(tt, rows, &w)
    }

    /// Where the row (or component) a table expression names lives, `None` when no row
    /// matches; `write`: the table is changed through it (a write-protected table ends the run).
    pub(crate) fn table_expr_place(&mut self, e: &Expr, write: bool) -> Exec<Option<Place>> {
        let (base, sel, comps) = match e {
            Expr::Itab { table, sel, comps } => {
                let base = self.named_table_place(table, write)?;
                (base, sel, comps)
            }
            Expr::ItabOf { source, sel, comps } => {
                let Some(base) = self.table_expr_place(source, write)? else {
                    return Ok(None);
                };
                (base, sel, comps)
            }
            _ => return Err(self.not_supported("table expression on an expression")),
        };
        let w = self.wanted(sel)?;
        let Some(Value::Table(tt, rows)) = self.st.value_at(&base) else {
            return Err(self.not_supported("table expression on no internal table"));
        };
        let Some(i) = self.pick_row(tt, rows, &w)? else {
            return Ok(None);
        };
        let mut place = base;
        place.steps.push(Step::Row(i));
        for c in comps.iter() {
            let Some(Value::Struct(t, _)) = self.st.value_at(&place) else {
                return Err(self.not_supported(&format!("component {c} of a table row")));
            };
            let Some(i) = t.index_of(c) else {
                return Err(self.not_supported(&format!("component {c} of a table row")));
            };
            place.steps.push(Step::Comp(i));
        }
        Ok(Some(place))
    }

    fn named_table_place(&mut self, table: &Path, write: bool) -> Exec<Place> {
        let table = &self.table_body(table);
        if write {
            self.writable_place(table)
        } else {
            self.readable_place(table)
        }
    }

    /// `itab[ … ]… op expr`: the row must exist (else `CX_SY_ITAB_LINE_NOT_FOUND`); the
    /// value is converted to the row's (component's) type.
    pub(crate) fn exec_assign_row(
        &mut self,
        target: &Expr,
        op: AssignOp,
        expr: &Expr,
    ) -> Exec<Flow> {
        let place = self.existing_row(target)?;
        self.protect_keys(target, &place)?;
        let Some(ty) = self.place_type(&place) else {
            return Err(self.line_not_found());
        };
        let current = match op {
            AssignOp::Set | AssignOp::Declare => None,
            _ => self.st.value_at(&place).cloned(),
        };
        let val = self.value_for_target(&ty, op, expr, current)?;
        // The right-hand side may have moved or removed rows: the row is looked up again.
        let place = self.existing_row(target)?;
        self.assign_place(&place, val)?;
        Ok(Flow::Normal)
    }

    fn existing_row(&mut self, target: &Expr) -> Exec<Place> {
        match self.table_expr_place(target, true)? {
            Some(p) => Ok(p),
            None => Err(self.line_not_found()),
        }
    }

    /// Rows of sorted and hashed tables keep their primary key: what a real system does with
    /// a write to it through a table expression is not pinned down here.
    fn protect_keys(&self, target: &Expr, place: &Place) -> Exec<()> {
        let Some(row_step) = place.steps.iter().rposition(|s| matches!(s, Step::Row(_))) else {
            return Ok(());
        };
        let table = Place {
            slot: place.slot.clone(),
            steps: place.steps.get(..row_step).unwrap_or(&[]).to_vec(),
        };
        let Some(Value::Table(tt, _)) = self.st.value_at(&table) else {
            return Ok(());
        };
        if tt.kind == TableKind::Standard {
            return Ok(());
        }
        let comps = match target {
            Expr::Itab { comps, .. } | Expr::ItabOf { comps, .. } => comps,
            _ => return Ok(()),
        };
        let keys = tt.key_comps();
        let touches_key = match comps.first() {
            None => true,
            Some(c) => keys
                .iter()
                .any(|k| k == "TABLE_LINE" || k == c || k.starts_with(&format!("{c}-"))),
        };
        if touches_key {
            return Err(self.not_supported(
                "a write to the key of a sorted or hashed table through a table expression",
            ));
        }
        Ok(())
    }
}

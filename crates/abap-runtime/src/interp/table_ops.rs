//! The internal table statements beyond the basic ones in `tables.rs`: `APPEND|INSERT LINES
//! OF`, `COLLECT`, `MODIFY … TRANSPORTING [WHERE]`, `MODIFY TABLE`, `READ TABLE … WITH
//! [TABLE] KEY` (linear or binary search), `DESCRIBE TABLE` and `DELETE TABLE`.
//!
//! Binary search (explicit `BINARY SEARCH`, or implicit on a sorted table when the key is an
//! initial part of the table key) follows ABAP: the first of several matching rows is found;
//! when nothing matches, `sy-subrc` is 4 and `sy-tabix` the row the key would be inserted
//! before, or 8 and lines + 1 when the key is beyond the last row.

use std::cmp::Ordering;

use crate::interp::tables::{as_i32, component, sy_set};
use crate::interp::{Exec, Flow, Interp};
use abap_data::value::{TableKind, TableType, Type, Value};
use abap_syntax::ast::TableOp;
use abap_syntax::ast::{BinOp, Cond, Expr, Path, RowTarget};

/// How a key read searches.
enum Search {
    Linear,
    /// Binary search over these key components in this order (the table is sorted by them).
    Binary(Vec<(String, Value)>),
}

impl<'r> Interp<'r, '_> {
    pub fn exec_table_op(&mut self, op: &'r TableOp) -> Exec<Flow> {
        match op {
            TableOp::GroupLoop(g) => return self.exec_group_loop(g),
            TableOp::Control(c) => return self.exec_control_level(c),
            TableOp::Sum(s) => return self.exec_sum(s),
            TableOp::Lines {
                insert,
                src,
                from,
                to,
                table,
                by_key,
                index,
            } => self.exec_lines(
                *insert,
                src,
                from.as_ref(),
                to.as_ref(),
                table,
                *by_key,
                index.as_ref(),
            )?,
            TableOp::Collect { what, table } => self.exec_collect(what, table)?,
            TableOp::ModifyComps {
                table,
                from,
                index,
                comps,
                cond,
            } => self.exec_modify_comps(table, from, index.as_ref(), comps, cond.as_ref())?,
            TableOp::ModifyTable { table, from, comps } => {
                self.exec_modify_table(table, from, comps)?
            }
            TableOp::ReadKey {
                table,
                target,
                key,
                from,
                binary,
                using,
            } => match using {
                Some(name) => self.read_secondary(table, target, key, name)?,
                None => self.exec_read_key(table, target, key, from.as_ref(), *binary)?,
            },
            TableOp::Describe {
                table,
                kind,
                lines,
                occurs,
                declared,
            } => {
                let (place, tt) = self.table_place(table)?;
                for (target, ty) in [(kind, Type::C(1)), (lines, Type::I), (occurs, Type::I)] {
                    if let Some(p) = target.as_ref().filter(|p| declared.contains(&p.base)) {
                        self.declare_inline(&p.base, ty);
                    }
                }
                let n = as_i32(self.rows(&place).len());
                sy_set(self, "TFILL", n);
                if let Some(p) = lines {
                    self.assign_value(p, Value::I(n))?;
                }
                if let Some(p) = kind {
                    let k = match tt.kind {
                        TableKind::Standard => "T",
                        TableKind::Sorted => "S",
                        TableKind::Hashed => "H",
                    };
                    self.assign_value(p, Value::C(k.into()))?;
                }
                if let Some(p) = occurs {
                    self.assign_value(p, Value::I(0))?;
                }
            }
            TableOp::DeleteRange {
                table,
                from,
                to,
                cond,
            } => self.exec_delete_range(table, from.as_ref(), to.as_ref(), cond.as_ref())?,
            TableOp::DeleteTable { table, from, key } => {
                let (place, tt) = self.table_place_mut(table)?;
                let k = match from {
                    Some(e) => {
                        let wa = self.eval_typed(e, &tt.line)?;
                        self.key_values(&tt, &wa)?
                    }
                    None => self.eval_key(key)?,
                };
                let found = self.find_row(self.rows(&place), &k)?;
                match found {
                    Some(i) => {
                        let len = self.rows(&place).len();
                        if let Some(rows) = self.rows_mut(&place) {
                            rows.remove(i);
                        }
                        self.rows_moved(&place, || crate::interp::row_refs::removed(len, i));
                        sy_set(self, "SUBRC", 0);
                    }
                    None => sy_set(self, "SUBRC", 4),
                }
            }
        }
        Ok(Flow::Normal)
    }

    /// The table key components of `row` with their values.
    fn key_values(&self, tt: &TableType, row: &Value) -> Exec<Vec<(String, Value)>> {
        let mut out = Vec::new();
        for c in tt.key_comps() {
            let Some(v) = component(row, &c) else {
                return Err(self.not_supported(&format!("key component {c}")));
            };
            out.push((c, v.clone()));
        }
        Ok(out)
    }

    /// Rows `from..=to` (1-based, ABAP's bounds rules) of the table value `src`.
    pub(crate) fn row_range(
        &mut self,
        src: &Expr,
        from: Option<&Expr>,
        to: Option<&Expr>,
    ) -> Exec<Vec<Value>> {
        let v = match src {
            // `LINES OF itab` of a table with a header line: its body.
            Expr::Path(p) if self.has_header_line(p) => self.read(&self.table_body(p))?,
            _ => self.eval(src)?,
        };
        let Value::Table(_, rows) = v else {
            return Err(self.not_supported("LINES OF a non-table"));
        };
        let from = match from {
            Some(e) => self.int(e)?,
            None => 1,
        };
        let to = match to {
            Some(e) => self.int(e)?,
            None => i64::try_from(rows.len()).unwrap_or(i64::MAX),
        };
        if from <= 0 || to <= 0 {
            return Err(self.dump(
                "TABLE_INVALID_INDEX",
                format!("Invalid index {}", from.min(to)),
            ));
        }
        let start = usize::try_from(from - 1).unwrap_or(usize::MAX);
        let end = usize::try_from(to).unwrap_or(usize::MAX).min(rows.len());
        Ok(rows.into_iter().take(end).skip(start).collect())
    }

    fn exec_delete_range(
        &mut self,
        table: &Path,
        from: Option<&Expr>,
        to: Option<&Expr>,
        cond: Option<&Cond>,
    ) -> Exec<()> {
        let (place, _) = self.table_place_mut(table)?;
        let len = self.rows(&place).len();
        let from = match from {
            Some(e) => self.int(e)?,
            None => 1,
        };
        let to = match to {
            Some(e) => self.int(e)?,
            None => i64::try_from(len).unwrap_or(i64::MAX),
        };
        if from <= 0 || to <= 0 {
            return Err(self.dump(
                "TABLE_INVALID_INDEX",
                format!("Invalid index {}", from.min(to)),
            ));
        }
        let rows = self.rows(&place).to_vec();
        let mut keep = Vec::with_capacity(rows.len());
        let mut flags = Vec::with_capacity(rows.len());
        let mut deleted = 0usize;
        for (i, r) in rows.into_iter().enumerate() {
            self.tick()?;
            let n = i64::try_from(i + 1).unwrap_or(i64::MAX);
            let in_range = n >= from && n <= to;
            let hit = in_range
                && match cond {
                    Some(c) => self.where_match(c, &r)?,
                    None => true,
                };
            flags.push(!hit);
            if hit {
                deleted += 1;
            } else {
                keep.push(r);
            }
        }
        if let Some(slot) = self.rows_mut(&place) {
            *slot = keep;
        }
        if deleted > 0 {
            self.rows_moved(&place, || crate::interp::row_refs::kept(&flags));
        }
        sy_set(self, "SUBRC", if deleted > 0 { 0 } else { 4 });
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_lines(
        &mut self,
        insert: bool,
        src: &Expr,
        from: Option<&Expr>,
        to: Option<&Expr>,
        table: &Path,
        by_key: bool,
        index: Option<&Expr>,
    ) -> Exec<()> {
        let new_rows = self.row_range(src, from, to)?;
        let (place, tt) = self.table_place_mut(table)?;
        let mut converted = Vec::with_capacity(new_rows.len());
        for r in new_rows {
            converted.push(
                r.convert(&tt.line)
                    .map_err(|e| self.move_error(e, &r, &tt.line))?,
            );
        }
        let mut rows = self.rows(&place).to_vec();
        self.room_for(rows.len().saturating_add(converted.len()).saturating_sub(1))?;
        let mut last = rows.len();
        // How the existing rows moved (inserts before them), for references to rows.
        let mut moved: Option<Box<dyn FnOnce() -> crate::interp::row_refs::RowMap>> = None;
        if insert && !by_key {
            if tt.kind != TableKind::Standard {
                return Err(
                    self.not_supported("INSERT LINES OF … INDEX into a sorted or hashed table")
                );
            }
            let n = match index {
                Some(e) => self.int(e)?,
                None => self.sy_int("TABIX"),
            };
            match usize::try_from(n) {
                Ok(k) if k >= 1 && k <= rows.len() + 1 => {
                    let (len, count) = (rows.len(), converted.len());
                    moved = Some(Box::new(move || {
                        crate::interp::row_refs::inserted(len, k - 1, count)
                    }));
                    let tail = rows.split_off(k - 1);
                    rows.extend(converted);
                    rows.extend(tail);
                    sy_set(self, "SUBRC", 0);
                }
                _ if n <= 0 => {
                    return Err(self.dump("TABLE_INVALID_INDEX", format!("Invalid index {n}")));
                }
                _ => {
                    sy_set(self, "SUBRC", 4);
                    return Ok(());
                }
            }
        } else if insert || tt.kind == TableKind::Hashed {
            if !insert {
                return Err(self.dump("ITAB_ILLEGAL_INDEX_OP", "APPEND to a hashed table"));
            }
            let before = rows.len();
            let mut ats = Vec::with_capacity(converted.len());
            for r in converted {
                self.tick()?;
                let Some(at) = self.insert_by_key(&tt, &mut rows, r)? else {
                    return Err(self.dump(
                        "ITAB_DUPLICATE_KEY",
                        "A row with the same unique key already exists",
                    ));
                };
                ats.push(at);
            }
            moved = Some(Box::new(move || {
                crate::interp::row_refs::inserted_at(before, &ats)
            }));
            sy_set(self, "SUBRC", 0);
        } else {
            let key = Self::key_of(&tt);
            for r in converted {
                self.tick()?;
                if tt.kind == TableKind::Sorted
                    && let Some(prev) = rows.last()
                {
                    let o = self.cmp_by(prev, &r, &key)?;
                    if o == Ordering::Greater || (tt.unique && o == Ordering::Equal) {
                        return Err(self.dump(
                            "ITAB_ILLEGAL_SORT_ORDER",
                            "APPEND would break the sort order of a sorted table",
                        ));
                    }
                }
                rows.push(r);
            }
            last = rows.len();
        }
        if let Some(slot) = self.rows_mut(&place) {
            *slot = rows;
        }
        if let Some(m) = moved {
            self.rows_moved(&place, m);
        }
        if !insert {
            sy_set(self, "TABIX", as_i32(last));
        }
        Ok(())
    }

    fn exec_collect(&mut self, what: &Expr, table: &Path) -> Exec<()> {
        let (place, tt) = self.table_place_mut(table)?;
        let row = self.eval_typed(what, &tt.line)?;
        let key = self.key_values(&tt, &row)?;
        let found = self.find_row(self.rows(&place), &key)?;
        let Some(i) = found else {
            let mut rows = self.rows(&place).to_vec();
            let before = rows.len();
            let at = self.insert_by_key(&tt, &mut rows, row)?;
            if let Some(slot) = self.rows_mut(&place) {
                *slot = rows;
            }
            if let Some(a) = at {
                self.rows_moved(&place, || crate::interp::row_refs::inserted(before, a, 1));
            }
            sy_set(self, "TABIX", as_i32(at.map_or(0, |a| a + 1)));
            return Ok(());
        };
        let Some(old) = self.rows(&place).get(i).cloned() else {
            return Ok(());
        };
        let key_names: Vec<String> = key.into_iter().map(|(c, _)| c).collect();
        let summed = match (&old, &row) {
            (Value::Struct(st, a), Value::Struct(_, b)) => {
                let mut out = Vec::with_capacity(a.len());
                for ((name, ty), (x, y)) in st.comps.iter().zip(a.iter().zip(b)) {
                    if key_names.contains(name) {
                        out.push(x.clone());
                    } else {
                        out.push(self.add_values(x, y, ty)?);
                    }
                }
                Value::Struct(st.clone(), out.into())
            }
            _ => old.clone(),
        };
        if let Some(slot) = self.rows_mut(&place).and_then(|r| r.get_mut(i)) {
            *slot = summed;
        }
        sy_set(self, "TABIX", as_i32(i + 1));
        Ok(())
    }

    /// `x + y` in type `ty` (a numeric non-key component in `COLLECT`).
    fn add_values(&mut self, x: &Value, y: &Value, ty: &Type) -> Exec<Value> {
        let numeric = matches!(
            ty,
            Type::I | Type::P { .. } | Type::Int8 | Type::F | Type::DecFloat16 | Type::DecFloat34
        );
        if !numeric {
            return Err(self.not_supported("COLLECT with a non-numeric non-key component"));
        }
        let e = Expr::Bin(
            BinOp::Add,
            Box::new(Expr::Lit(x.clone())),
            Box::new(Expr::Lit(y.clone())),
        );
        let v = self.arith(&e, Some(ty))?;
        v.convert(ty).map_err(|e| self.conv_error(e))
    }

    /// Copies the components `comps` of `wa` into `row` (all of them when `comps` is empty).
    fn transport(&self, row: &mut Value, wa: &Value, comps: &[String]) -> Exec<()> {
        if comps.is_empty() {
            *row = wa.clone();
            return Ok(());
        }
        for c in comps {
            let Some(v) = component(wa, c).cloned() else {
                return Err(self.not_supported(&format!("TRANSPORTING {c}")));
            };
            let Some(slot) = component_mut(row, c) else {
                return Err(self.not_supported(&format!("TRANSPORTING {c}")));
            };
            *slot = v;
        }
        Ok(())
    }

    fn exec_modify_comps(
        &mut self,
        table: &Path,
        from: &Expr,
        index: Option<&Expr>,
        comps: &[String],
        cond: Option<&Cond>,
    ) -> Exec<()> {
        let (place, tt) = self.table_place_mut(table)?;
        let wa = self.eval_typed(from, &tt.line)?;
        let mut rows = self.rows(&place).to_vec();
        let mut changed = 0usize;
        match cond {
            Some(c) => {
                for r in &mut rows {
                    self.tick()?;
                    if self.where_match(c, r)? {
                        self.transport(r, &wa, comps)?;
                        changed += 1;
                    }
                }
            }
            None => {
                let n = match index {
                    Some(e) => self.int(e)?,
                    None => self.sy_int("TABIX"),
                };
                if let Some(r) = usize::try_from(n)
                    .ok()
                    .and_then(|k| k.checked_sub(1))
                    .and_then(|k| rows.get_mut(k))
                {
                    self.transport(r, &wa, comps)?;
                    changed = 1;
                }
            }
        }
        if let Some(slot) = self.rows_mut(&place) {
            *slot = rows;
        }
        sy_set(self, "SUBRC", if changed > 0 { 0 } else { 4 });
        Ok(())
    }

    fn exec_modify_table(&mut self, table: &Path, from: &Expr, comps: &[String]) -> Exec<()> {
        let (place, tt) = self.table_place_mut(table)?;
        let wa = self.eval_typed(from, &tt.line)?;
        let key = self.key_values(&tt, &wa)?;
        let found = self.find_row(self.rows(&place), &key)?;
        let Some(i) = found else {
            sy_set(self, "SUBRC", 4);
            return Ok(());
        };
        let Some(mut row) = self.rows(&place).get(i).cloned() else {
            return Ok(());
        };
        self.transport(&mut row, &wa, comps)?;
        if let Some(slot) = self.rows_mut(&place).and_then(|r| r.get_mut(i)) {
            *slot = row;
        }
        sy_set(self, "SUBRC", 0);
        if tt.kind != TableKind::Hashed {
            sy_set(self, "TABIX", as_i32(i + 1));
        }
        Ok(())
    }

    /// How a key read on a table of type `tt` searches: binary when asked for, or on a
    /// sorted table when the key covers an initial part of the table key.
    fn search_for(
        &self,
        tt: &TableType,
        rows: &[Value],
        key: Vec<(String, Value)>,
        binary: bool,
    ) -> Search {
        if binary {
            return Search::Binary(typed_key(rows, key));
        }
        if tt.kind != TableKind::Sorted {
            return Search::Linear;
        }
        let table_key = tt.key_comps();
        let n = key.len();
        if n == 0 || n > table_key.len() {
            return Search::Linear;
        }
        let mut ordered = Vec::with_capacity(n);
        for c in table_key.iter().take(n) {
            match key.iter().find(|(k, _)| k == c) {
                Some(kv) => ordered.push(kv.clone()),
                None => return Search::Linear,
            }
        }
        Search::Binary(typed_key(rows, ordered))
    }

    fn exec_read_key(
        &mut self,
        table: &Path,
        target: &RowTarget,
        key: &[(String, Expr)],
        from: Option<&Expr>,
        binary: bool,
    ) -> Exec<()> {
        let (place, tt) = self.table_place(table)?;
        let k = match from {
            Some(e) => {
                let wa = self.eval_typed(e, &tt.line)?;
                self.key_values(&tt, &wa)?
            }
            None => self.eval_key(key)?,
        };
        let rows = self.rows(&place);
        let search = self.search_for(&tt, rows, k.clone(), binary);
        let (found, subrc, tabix) = match search {
            Search::Linear => match self.find_row(rows, &k)? {
                Some(i) => (Some(i), 0, i + 1),
                None => (None, 4, 0),
            },
            Search::Binary(bk) => self.binary_read(rows, &bk)?,
        };
        if let Some(i) = found {
            self.put_row(&place, i, target)?;
        }
        sy_set(self, "SUBRC", subrc);
        let tabix = if tt.kind == TableKind::Hashed {
            0
        } else {
            tabix
        };
        sy_set(self, "TABIX", as_i32(tabix));
        Ok(())
    }

    /// Compares a row's key components with the key values, component by component.
    /// `READ TABLE … BINARY SEARCH` over `rows` sorted by `key`: the row found, and sy-subrc
    /// and sy-tabix as ABAP sets them (4 and the insertion index when not found, 8 and one
    /// past the end when every row is smaller).
    pub(crate) fn binary_read(
        &self,
        rows: &[Value],
        key: &[(String, Value)],
    ) -> Exec<(Option<usize>, i32, usize)> {
        let (mut lo, mut hi) = (0usize, rows.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.cmp_key(&rows[mid], key)? == Ordering::Less {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let hit = match rows.get(lo) {
            Some(r) => self.cmp_key(r, key)? == Ordering::Equal,
            None => false,
        };
        Ok(if hit {
            (Some(lo), 0, lo + 1)
        } else if lo >= rows.len() {
            (None, 8, rows.len() + 1)
        } else {
            (None, 4, lo + 1)
        })
    }

    pub(crate) fn cmp_key(&self, row: &Value, key: &[(String, Value)]) -> Exec<Ordering> {
        for (c, v) in key {
            let Some(x) = component(row, c) else {
                return Err(self.not_supported(&format!("key component {c}")));
            };
            let o = self.compare(x, v)?;
            if o != Ordering::Equal {
                return Ok(o);
            }
        }
        Ok(Ordering::Equal)
    }
}

/// The key values converted to the types of the row components they are compared with (ABAP
/// converts the search operand to the component's type), when that works.
pub(crate) fn typed_key(rows: &[Value], key: Vec<(String, Value)>) -> Vec<(String, Value)> {
    let Some(first) = rows.first() else {
        return key;
    };
    key.into_iter()
        .map(|(c, v)| {
            let converted = component(first, &c).and_then(|x| v.convert(&x.type_of()).ok());
            (c, converted.unwrap_or(v))
        })
        .collect()
}

/// A row's component by name for writing (`A-B` for nested ones, `TABLE_LINE`: the row).
fn component_mut<'v>(row: &'v mut Value, name: &str) -> Option<&'v mut Value> {
    if name == "TABLE_LINE" {
        return Some(row);
    }
    let mut v = row;
    for part in name.split('-') {
        let Value::Struct(t, comps) = v else {
            return None;
        };
        let i = t.index_of(part)?;
        v = comps.get_mut(i)?;
    }
    Some(v)
}

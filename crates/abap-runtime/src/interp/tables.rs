//! Internal tables: parsing of the table statements and their execution, `VALUE` constructor
//! expressions and table expressions.
//!
//! Choices where ABAP leaves room: `SORT` is stable; `INSERT … INTO TABLE` places a row of a
//! sorted table with a non-unique key after its duplicates; `APPEND` to a sorted table that
//! breaks the order ends the run with `ITAB_ILLEGAL_SORT_ORDER`, to a hashed table with
//! `ITAB_ILLEGAL_INDEX_OP`; a `LOOP` walks the rows by index (rows deleted in the body shift
//! the rest forward).

use std::cmp::Ordering;
use std::sync::Arc;

use crate::interp::row_refs;
use crate::interp::{Exec, Flow, Interp, Unwind};
use abap_data::place::{Place, Step};
use abap_data::value::{TableKind, TableType, Type, Value};
use abap_syntax::ast::{Cond, Expr, Path, RowSel, RowTarget, Stmt, TableStmt, ValueBody, ValueRow};

/// The `LOOP` being executed: which table and row (for `MODIFY`/`DELETE` without `INDEX`).
pub(crate) fn sy_set(it: &mut Interp<'_, '_>, name: &str, v: i32) {
    it.st.set_sy(name, v);
}

pub(crate) fn as_i32(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl<'r> Interp<'r, '_> {
    /// An internal table that a statement only reads (`LOOP`, `READ`, `DESCRIBE`, …): also a
    /// write-protected one such as an `IMPORTING` parameter.
    pub(crate) fn table_place(&mut self, table: &Path) -> Exec<(Place, Arc<TableType>)> {
        let table = &self.table_body(table);
        let place = self.readable_place(table)?;
        self.table_at(table, place)
    }

    /// An internal table that a statement changes (`APPEND`, `SORT`, `DELETE`, …): a
    /// write-protected one ends the run with `MOVE_TO_LIT_NOTALLOWED_NODATA`.
    pub(crate) fn table_place_mut(&mut self, table: &Path) -> Exec<(Place, Arc<TableType>)> {
        let table = &self.table_body(table);
        let place = self.writable_place(table)?;
        self.table_at(table, place)
    }

    fn table_at(&self, table: &Path, place: Place) -> Exec<(Place, Arc<TableType>)> {
        match self.st.value_at(&place) {
            Some(Value::Table(t, _)) => {
                let t = t.clone();
                Ok((place, t))
            }
            _ => Err(self.not_supported(&format!("{} is not an internal table", table.text()))),
        }
    }

    pub(crate) fn rows(&self, place: &Place) -> &[Value] {
        match self.st.value_at(place) {
            Some(Value::Table(_, rows)) => rows,
            _ => &[],
        }
    }

    pub(crate) fn rows_mut(&mut self, place: &Place) -> Option<&mut Vec<Value>> {
        match self.st.value_at_mut(place) {
            Some(Value::Table(_, rows)) => Some(rows),
            _ => None,
        }
    }

    /// An operand converted to type `ty` (`VALUE #`/`CONV #` take `ty`).
    pub fn eval_typed(&mut self, e: &Expr, ty: &Type) -> Exec<Value> {
        let v = match e {
            Expr::Value { .. }
            | Expr::Conv { .. }
            | Expr::Choose { .. }
            | Expr::Switch { .. }
            | Expr::Ctor(_) => self.constructed(e, Some(ty))?,
            Expr::Bin(..) | Expr::Neg(_) => self.arith(e, Some(ty))?,
            other => self.eval(other)?,
        };
        v.convert(ty).map_err(|err| self.move_error(err, &v, ty))
    }

    pub(crate) fn int(&mut self, e: &Expr) -> Exec<i64> {
        let v = self.eval(e)?;
        match v.convert(&Type::I).map_err(|err| self.conv_error(err))? {
            Value::I(n) => Ok(i64::from(n)),
            _ => Ok(0),
        }
    }

    /// `VALUE type|#( … )` with the type known.
    pub fn value_of(&mut self, ty: &Type, body: &ValueBody) -> Exec<Value> {
        let mut v = ty.initial();
        if let Value::Struct(st, comps) = &mut v {
            let st = st.clone();
            for (name, e) in &body.fields {
                let Some(i) = st.index_of(name) else {
                    return Err(self.not_supported(&format!("component {name} in VALUE")));
                };
                let cty = st.comps[i].1.clone();
                let x = self.eval_typed(e, &cty)?;
                if let Some(slot) = comps.get_mut(i) {
                    *slot = x;
                }
            }
            if !body.rows.is_empty() {
                return Err(self.not_supported("table rows in VALUE for a structure"));
            }
            return Ok(v);
        }
        let Value::Table(tt, _) = &v else {
            if body.fields.is_empty() && body.rows.is_empty() {
                return Ok(v);
            }
            return Err(self.not_supported("VALUE with components for an elementary type"));
        };
        let tt = tt.clone();
        if !body.fields.is_empty() {
            return Err(self.not_supported("VALUE with BASE components for a table"));
        }
        let mut rows: Vec<Value> = Vec::new();
        for r in &body.rows {
            let row = match r {
                ValueRow::Line(e) => self.eval_typed(e, &tt.line)?,
                ValueRow::Fields(f) => {
                    let b = ValueBody {
                        fields: f.clone(),
                        rows: Vec::new(),
                    };
                    self.value_of(&tt.line, &b)?
                }
            };
            self.tick()?;
            if self.insert_by_key(&tt, &mut rows, row)?.is_none() {
                return Err(self.dump(
                    "ITAB_DUPLICATE_KEY",
                    "A row with the same unique key already exists",
                ));
            }
        }
        Ok(Value::Table(tt, rows.into()))
    }

    /// Resolves a type name used in an expression (`VALUE ty( )`).
    pub fn type_named(&self, name: &str) -> Exec<Type> {
        let Some(frame) = self.st.frames.last() else {
            return Err(self.not_supported("type outside a procedure"));
        };
        let (class, method) = (frame.class, frame.method);
        let vars = frame.vars.clone();
        self.resolve_type(class, Some(method), &Type::Named(name.to_string()), &vars)
    }

    /// Compares two rows by key components (`TABLE_LINE`: the whole row).
    pub(crate) fn cmp_by(&self, a: &Value, b: &Value, comps: &[(String, bool)]) -> Exec<Ordering> {
        for (c, desc) in comps {
            let (Some(x), Some(y)) = (component(a, c), component(b, c)) else {
                return Err(self.not_supported(&format!("sort/key component {c}")));
            };
            let o = self.compare(x, y)?;
            if o != Ordering::Equal {
                return Ok(if *desc { o.reverse() } else { o });
            }
        }
        Ok(Ordering::Equal)
    }

    pub(crate) fn key_of(tt: &TableType) -> Vec<(String, bool)> {
        tt.key_comps().into_iter().map(|c| (c, false)).collect()
    }

    /// Inserts by the table's kind: sorted tables at their key position, others at the end.
    /// `None`: a row with the same unique key exists. Returns the new row's 0-based index.
    pub(crate) fn insert_by_key(
        &self,
        tt: &TableType,
        rows: &mut Vec<Value>,
        row: Value,
    ) -> Exec<Option<usize>> {
        self.room_for(rows.len())?;
        let key = Self::key_of(tt);
        if tt.unique || tt.kind == TableKind::Hashed {
            for r in rows.iter() {
                if self.cmp_by(r, &row, &key)? == Ordering::Equal {
                    return Ok(None);
                }
            }
        }
        let at = if tt.kind == TableKind::Sorted {
            let mut at = rows.len();
            for (i, r) in rows.iter().enumerate() {
                if self.cmp_by(r, &row, &key)? == Ordering::Greater {
                    at = i;
                    break;
                }
            }
            at
        } else {
            rows.len()
        };
        rows.insert(at, row);
        Ok(Some(at))
    }

    /// 0-based index of the first row matching `key` (evaluated).
    pub fn find_row(&self, rows: &[Value], key: &[(String, Value)]) -> Exec<Option<usize>> {
        'rows: for (i, r) in rows.iter().enumerate() {
            for (c, v) in key {
                let Some(x) = component(r, c) else {
                    return Err(self.not_supported(&format!("key component {c}")));
                };
                if !self.values_eq(x, v)? {
                    continue 'rows;
                }
            }
            return Ok(Some(i));
        }
        Ok(None)
    }

    pub(crate) fn values_eq(&self, a: &Value, b: &Value) -> Exec<bool> {
        match self.compare(a, b) {
            Ok(o) => Ok(o == Ordering::Equal),
            Err(Unwind::Dump(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    pub fn eval_key(&mut self, key: &[(String, Expr)]) -> Exec<Vec<(String, Value)>> {
        let mut out = Vec::new();
        for (c, e) in key {
            out.push((c.clone(), self.eval(e)?));
        }
        Ok(out)
    }

    /// `WHERE` on a row: left operands of comparisons name row components.
    pub(crate) fn where_match(&mut self, c: &Cond, row: &Value) -> Exec<bool> {
        let left = |it: &mut Self, e: &Expr| -> Exec<Value> {
            if let Expr::Path(p) = e {
                let mut name = p.base.clone();
                for (_, n) in &p.rest {
                    name.push('-');
                    name.push_str(n);
                }
                if let Some(v) = component(row, &name) {
                    return Ok(v.clone());
                }
            }
            it.eval(e)
        };
        match c {
            Cond::Cmp(op, l, r) => {
                let l = left(self, l)?;
                let r = self.eval(r)?;
                let o = self.compare(&l, &r)?;
                Ok(match op {
                    abap_syntax::ast::CmpOp::Eq => o == Ordering::Equal,
                    abap_syntax::ast::CmpOp::Ne => o != Ordering::Equal,
                    abap_syntax::ast::CmpOp::Lt => o == Ordering::Less,
                    abap_syntax::ast::CmpOp::Gt => o == Ordering::Greater,
                    abap_syntax::ast::CmpOp::Le => o != Ordering::Greater,
                    abap_syntax::ast::CmpOp::Ge => o != Ordering::Less,
                })
            }
            Cond::IsInitial(e) => Ok(left(self, e)?.is_initial()),
            Cond::IsBound(e) => match left(self, e)? {
                Value::Ref { target, .. } => Ok(target.is_some()),
                Value::DataRef(r) => Ok(self.data_ref_bound(&r)),
                _ => Err(self.not_supported("IS BOUND on data")),
            },
            Cond::IsInstanceOf(e, class) => {
                let v = left(self, e)?;
                self.is_instance_of(&Expr::Lit(v), class)
            }
            Cond::In(x, r) => {
                let x = left(self, x)?;
                let r = self.range_operand(r)?;
                self.in_range(&x, &r)
            }
            Cond::Text(op, l, r) => {
                let l = left(self, l)?;
                let r = self.eval(r)?;
                self.text_compare_values(*op, &l, &r)
            }
            Cond::Bits(op, l, r) => {
                let l = left(self, l)?;
                let r = self.eval(r)?;
                self.bit_compare_values(*op, &l, &r)
            }
            Cond::Between(x, lo, hi) => {
                let x = left(self, x)?;
                let lo = self.eval(lo)?;
                let hi = self.eval(hi)?;
                Ok(self.compare(&x, &lo)? != Ordering::Less
                    && self.compare(&x, &hi)? != Ordering::Greater)
            }
            Cond::Not(c) => Ok(!self.where_match(c, row)?),
            Cond::And(a, b) => Ok(self.where_match(a, row)? && self.where_match(b, row)?),
            Cond::Or(a, b) => Ok(self.where_match(a, row)? || self.where_match(b, row)?),
            Cond::Equiv(a, b) => Ok(self.where_match(a, row)? == self.where_match(b, row)?),
            Cond::Dynamic(e) => self.dynamic_where_match(e, row),
            other => self.cond(other),
        }
    }

    /// Puts row `i` of the table at `place` into `target`.
    pub(crate) fn put_row(&mut self, place: &Place, i: usize, target: &RowTarget) -> Exec<()> {
        match target {
            RowTarget::None => Ok(()),
            RowTarget::HeaderLine(p) if !self.has_header_line(p) => Ok(()),
            RowTarget::Into(p) | RowTarget::HeaderLine(p) => {
                let row = self.rows(place).get(i).cloned().unwrap_or(Value::I(0));
                self.assign_value(p, row)
            }
            RowTarget::IntoDecl(name) => {
                let row = self.rows(place).get(i).cloned().unwrap_or(Value::I(0));
                self.declare_inline(name, row.type_of());
                self.assign_value(
                    &Path {
                        base: name.clone(),
                        rest: Vec::new(),
                    },
                    row,
                )
            }
            RowTarget::Ref(into, inline) => self.row_reference(place, i, into, *inline),
            RowTarget::Assign(fs) => {
                let mut p = place.clone();
                p.steps.push(Step::Row(i));
                self.bind_fs(fs, Some(p), false);
                Ok(())
            }
        }
    }

    pub fn exec_table(&mut self, s: &'r TableStmt) -> Exec<Flow> {
        match s {
            TableStmt::Append {
                what,
                table,
                target,
            } => self.table_append(what, table, target),
            TableStmt::Insert {
                what,
                table,
                index,
                target,
            } => self.table_insert(what, table, index, target),
            TableStmt::Loop {
                table,
                source,
                target,
                from,
                to,
                cond,
                key,
                body,
            } => self.table_loop(
                table,
                source.as_deref(),
                target,
                LoopRange {
                    from: from.as_ref(),
                    to: to.as_ref(),
                    cond: cond.as_ref(),
                    key: key.as_deref(),
                },
                body,
            ),
            TableStmt::Read {
                table,
                target,
                index,
                key,
            } => self.table_read(table, target, index, key),
            TableStmt::Modify { table, from, index } => self.table_modify(table, from, index),
            TableStmt::Delete { table, index, cond } => self.table_delete(table, index, cond),
            TableStmt::DeleteAdjacent { table, comparing } => {
                self.table_delete_adjacent(table, comparing)
            }
            TableStmt::Sort {
                table,
                descending,
                by,
            } => self.table_sort(table, descending, by),
            TableStmt::Refresh(table, _) => self.table_refresh(table),
        }
    }

    fn table_append(
        &mut self,
        what: &'r Option<Expr>,
        table: &'r Path,
        target: &'r RowTarget,
    ) -> Exec<Flow> {
        let (place, tt) = self.table_place_mut(table)?;
        let row = match what {
            Some(e) => self.eval_typed(e, &tt.line)?,
            None => tt.line.initial(),
        };
        if tt.kind == TableKind::Hashed {
            return Err(self.dump("ITAB_ILLEGAL_INDEX_OP", "APPEND to a hashed table"));
        }
        if tt.kind == TableKind::Sorted
            && let Some(last) = self.rows(&place).last()
        {
            let o = self.cmp_by(last, &row, &Self::key_of(&tt))?;
            if o == Ordering::Greater || (tt.unique && o == Ordering::Equal) {
                return Err(self.dump(
                    "ITAB_ILLEGAL_SORT_ORDER",
                    "APPEND would break the sort order of a sorted table",
                ));
            }
        }
        self.room_for(self.rows(&place).len())?;
        let n = match self.rows_mut(&place) {
            Some(rows) => {
                rows.push(row);
                rows.len()
            }
            None => 0,
        };
        sy_set(self, "TABIX", as_i32(n));
        self.put_row(&place, n.saturating_sub(1), target)?;
        Ok(Flow::Normal)
    }

    fn table_insert(
        &mut self,
        what: &'r Option<Expr>,
        table: &'r Path,
        index: &'r Option<Expr>,
        target: &'r RowTarget,
    ) -> Exec<Flow> {
        let (place, tt) = self.table_place_mut(table)?;
        let row = match what {
            Some(e) => self.eval_typed(e, &tt.line)?,
            None => tt.line.initial(),
        };
        match index {
            None => {
                let mut rows = std::mem::take(self.rows_mut(&place).unwrap_or(&mut Vec::new()));
                let before = rows.len();
                let r = self.insert_by_key(&tt, &mut rows, row);
                if let Some(slot) = self.rows_mut(&place) {
                    *slot = rows;
                }
                match r? {
                    Some(i) => {
                        self.rows_moved(&place, || row_refs::inserted(before, i, 1));
                        sy_set(self, "SUBRC", 0);
                        sy_set(self, "TABIX", as_i32(i + 1));
                        self.put_row(&place, i, target)?;
                    }
                    None => sy_set(self, "SUBRC", 4),
                }
            }
            Some(e) => {
                let n = self.int(e)?;
                let len = self.rows(&place).len();
                if tt.kind != TableKind::Standard {
                    return Err(self.not_supported("INSERT … INDEX into a sorted or hashed table"));
                }
                match usize::try_from(n) {
                    Ok(k) if k >= 1 && k <= len + 1 => {
                        self.room_for(len)?;
                        if let Some(rows) = self.rows_mut(&place) {
                            rows.insert(k - 1, row);
                        }
                        self.rows_moved(&place, || row_refs::inserted(len, k - 1, 1));
                        sy_set(self, "SUBRC", 0);
                        sy_set(self, "TABIX", as_i32(k));
                        self.put_row(&place, k - 1, target)?;
                    }
                    _ if n <= 0 => {
                        return Err(self.dump("TABLE_INVALID_INDEX", format!("Invalid index {n}")));
                    }
                    _ => sy_set(self, "SUBRC", 4),
                }
            }
        }
        Ok(Flow::Normal)
    }

    fn table_loop(
        &mut self,
        table: &'r Path,
        source: Option<&'r Expr>,
        target: &'r RowTarget,
        range: LoopRange<'r>,
        body: &'r [Stmt],
    ) -> Exec<Flow> {
        if let Some(e) = source {
            // Evaluated once; the loop then runs over the internal variable.
            let rows = self.eval(e)?;
            if !matches!(rows, Value::Table(..)) {
                return Err(self.not_supported("LOOP AT an expression that is no table"));
            }
            self.declare_inline(&table.base, rows.type_of());
            self.assign_value(table, rows)?;
        }
        self.exec_loop(table, target, range, body)
    }

    fn table_read(
        &mut self,
        table: &'r Path,
        target: &'r RowTarget,
        index: &'r Option<Expr>,
        key: &'r [(String, Expr)],
    ) -> Exec<Flow> {
        let (place, _) = self.table_place(table)?;
        let found = match index {
            Some(e) => {
                let n = self.int(e)?;
                if n <= 0 {
                    return Err(self.dump("TABLE_INVALID_INDEX", format!("Invalid index {n}")));
                }
                usize::try_from(n - 1)
                    .ok()
                    .filter(|i| *i < self.rows(&place).len())
            }
            None => {
                let k = self.eval_key(key)?;
                self.find_row(self.rows(&place), &k)?
            }
        };
        match found {
            Some(i) => {
                self.put_row(&place, i, target)?;
                sy_set(self, "SUBRC", 0);
                sy_set(self, "TABIX", as_i32(i + 1));
            }
            None => {
                sy_set(self, "SUBRC", 4);
                sy_set(self, "TABIX", 0);
            }
        }
        Ok(Flow::Normal)
    }

    fn table_modify(
        &mut self,
        table: &'r Path,
        from: &'r Expr,
        index: &'r Option<Expr>,
    ) -> Exec<Flow> {
        let (place, tt) = self.table_place_mut(table)?;
        let row = self.eval_typed(from, &tt.line)?;
        let n = match index {
            Some(e) => self.int(e)?,
            None => self.sy_int("TABIX"),
        };
        let len = self.rows(&place).len();
        match usize::try_from(n) {
            Ok(k) if k >= 1 && k <= len => {
                if let Some(rows) = self.rows_mut(&place) {
                    rows[k - 1] = row;
                }
                sy_set(self, "SUBRC", 0);
            }
            _ => sy_set(self, "SUBRC", 4),
        }
        Ok(Flow::Normal)
    }

    fn table_delete(
        &mut self,
        table: &'r Path,
        index: &'r Option<Expr>,
        cond: &'r Option<Cond>,
    ) -> Exec<Flow> {
        let (place, _) = self.table_place_mut(table)?;
        if let Some(c) = cond {
            let rows = self.rows(&place).to_vec();
            let mut keep = Vec::with_capacity(rows.len());
            let mut flags = Vec::with_capacity(rows.len());
            let mut deleted = 0;
            for r in rows {
                self.tick()?;
                let gone = self.where_match(c, &r)?;
                flags.push(!gone);
                if gone {
                    deleted += 1;
                } else {
                    keep.push(r);
                }
            }
            if let Some(slot) = self.rows_mut(&place) {
                *slot = keep;
            }
            if deleted > 0 {
                self.rows_moved(&place, || row_refs::kept(&flags));
            }
            sy_set(self, "SUBRC", if deleted > 0 { 0 } else { 4 });
        } else {
            let n = match index {
                Some(e) => self.int(e)?,
                None => self.sy_int("TABIX"),
            };
            let len = self.rows(&place).len();
            match usize::try_from(n) {
                Ok(k) if k >= 1 && k <= len => {
                    if let Some(rows) = self.rows_mut(&place) {
                        rows.remove(k - 1);
                    }
                    self.rows_moved(&place, || row_refs::removed(len, k - 1));
                    sy_set(self, "SUBRC", 0);
                }
                _ => sy_set(self, "SUBRC", 4),
            }
        }
        Ok(Flow::Normal)
    }

    fn table_delete_adjacent(&mut self, table: &'r Path, comparing: &'r [String]) -> Exec<Flow> {
        let (place, tt) = self.table_place_mut(table)?;
        let key: Vec<(String, bool)> = if comparing.is_empty() {
            Self::key_of(&tt)
        } else if comparing.iter().any(|c| c == "ALL") {
            all_fields(&tt)
        } else {
            comparing.iter().map(|c| (c.clone(), false)).collect()
        };
        let rows = self.rows(&place).to_vec();
        let before = rows.len();
        let mut keep: Vec<Value> = Vec::with_capacity(before);
        let mut flags = Vec::with_capacity(before);
        for r in rows {
            self.tick()?;
            match keep.last() {
                Some(last) if self.cmp_by(last, &r, &key)? == Ordering::Equal => {
                    flags.push(false);
                }
                _ => {
                    flags.push(true);
                    keep.push(r);
                }
            }
        }
        let removed = before - keep.len();
        if let Some(slot) = self.rows_mut(&place) {
            *slot = keep;
        }
        if removed > 0 {
            self.rows_moved(&place, || row_refs::kept(&flags));
        }
        sy_set(self, "SUBRC", if removed > 0 { 0 } else { 4 });
        Ok(Flow::Normal)
    }

    pub(crate) fn table_sort(
        &mut self,
        table: &Path,
        descending: &bool,
        by: &[(String, bool)],
    ) -> Exec<Flow> {
        let (place, tt) = self.table_place_mut(table)?;
        let key: Vec<(String, bool)> = if by.is_empty() {
            Self::key_of(&tt)
                .into_iter()
                .map(|(c, _)| (c, *descending))
                .collect()
        } else {
            by.to_vec()
        };
        let rows = self.rows(&place).to_vec();
        // A stable sort of the row indices with fallible comparisons; the order also
        // renumbers references to rows.
        let mut order: Vec<usize> = (0..rows.len()).collect();
        let mut err = None;
        order.sort_by(|a, b| match (rows.get(*a), rows.get(*b)) {
            (Some(x), Some(y)) => match self.cmp_by(x, y, &key) {
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
        let sorted: Vec<Value> = order.iter().filter_map(|i| rows.get(*i).cloned()).collect();
        if let Some(slot) = self.rows_mut(&place) {
            *slot = sorted;
        }
        self.rows_moved(&place, || row_refs::reordered(&order));
        Ok(Flow::Normal)
    }

    fn table_refresh(&mut self, table: &'r Path) -> Exec<Flow> {
        let (place, _) = self.table_place_mut(table)?;
        let mut had_rows = false;
        if let Some(rows) = self.rows_mut(&place) {
            had_rows = !rows.is_empty();
            rows.clear();
        }
        if had_rows {
            self.rows_replaced(&place);
        }
        Ok(Flow::Normal)
    }

    pub(crate) fn sy_int(&self, name: &str) -> i64 {
        match self.st.sy.iter().find(|v| v.name == name).map(|v| &v.val) {
            Some(Value::I(n)) => i64::from(*n),
            _ => 0,
        }
    }

    fn exec_loop(
        &mut self,
        table: &Path,
        target: &RowTarget,
        range: LoopRange<'_>,
        body: &'r [Stmt],
    ) -> Exec<Flow> {
        let LoopRange {
            from,
            to,
            cond,
            key,
        } = range;
        let (place, tt) = self.table_place(table)?;
        let dynamic_key = match key.and_then(|k| k.strip_prefix('(')?.strip_suffix(')')) {
            Some(dobj) => {
                let Some(path) = abap_syntax::parser::words::parse_path(dobj) else {
                    return Err(self.not_supported(&format!("LOOP AT … USING KEY ({dobj})")));
                };
                let name = self
                    .read(&path)?
                    .to_abap_string()
                    .map_err(|e| self.conv_error(e))?;
                Some(name.trim().to_ascii_uppercase())
            }
            None => None,
        };
        let key = match &dynamic_key {
            Some(n) if n == "PRIMARY_KEY" => None,
            Some(n) => Some(n.as_str()),
            None => key,
        };
        // With a secondary key: the rows in that key's order (`None`: table order) and
        // whether sy-tabix counts (not for hashed keys).
        let (order, counts) = match key {
            Some(k) => {
                let (o, sorted) = self.secondary_order(&place, &tt, k)?;
                (Some(o), sorted)
            }
            None => (None, true),
        };
        let from = match from {
            Some(e) => self.int(e)?.max(1),
            None => 1,
        };
        let to = match to {
            Some(e) => Some(self.int(e)?),
            None => None,
        };
        let saved_tabix = self.sy_int("TABIX");
        if let Some(f) = self.st.frames.last_mut() {
            f.loop_depth += 1;
            f.loops.push(crate::interp::state::LoopCursor {
                place: place.clone(),
                first: None,
                current: 0,
                current_gone: false,
            });
        }
        let mut pos = usize::try_from(from - 1).unwrap_or(usize::MAX);
        let mut any = false;
        let result = loop {
            let len = self.rows(&place).len();
            let i = match &order {
                Some(o) => o.get(pos).copied().unwrap_or(usize::MAX),
                None => pos,
            };
            if i >= len || to.is_some_and(|t| i64::try_from(pos).unwrap_or(i64::MAX) >= t) {
                break Ok(Flow::Normal);
            }
            if let Err(e) = self.tick() {
                break Err(e);
            }
            if let Some(c) = cond {
                let row = self.rows(&place).get(i).cloned().unwrap_or(Value::I(0));
                match self.where_match(c, &row) {
                    Ok(true) => {}
                    Ok(false) => {
                        pos += 1;
                        continue;
                    }
                    Err(e) => break Err(e),
                }
            }
            any = true;
            if let Some(c) = self.st.frames.last_mut().and_then(|f| f.loops.last_mut()) {
                c.first.get_or_insert(i);
                c.current = i;
                c.current_gone = false;
            }
            sy_set(self, "TABIX", if counts { as_i32(pos + 1) } else { 0 });
            if let Err(e) = self.put_row(&place, i, target) {
                break Err(e);
            }
            match self.block(body) {
                Ok(Flow::Exit) => break Ok(Flow::Normal),
                Ok(Flow::Return) => break Ok(Flow::Return),
                Ok(_) => {}
                Err(e) => break Err(e),
            }
            // In table order the loop goes on after its current row, wherever statements of
            // the body moved it (a secondary key's order is fixed when the loop starts).
            let cursor = self.st.frames.last().and_then(|f| f.loops.last());
            pos = match (&order, cursor) {
                (None, Some(c)) if c.current_gone => c.current,
                (None, Some(c)) => c.current.saturating_add(1),
                _ => pos.saturating_add(1),
            };
        };
        if let Some(f) = self.st.frames.last_mut() {
            f.loop_depth = f.loop_depth.saturating_sub(1);
            f.loops.pop();
        }
        sy_set(self, "TABIX", i32::try_from(saved_tabix).unwrap_or(0));
        if result.is_ok() {
            sy_set(self, "SUBRC", if any { 0 } else { 4 });
        }
        result
    }

    /// Evaluates a table expression; `None` if no row matches (the caller raises).
    pub fn table_expr_row(&mut self, table: &Path, sel: &RowSel) -> Exec<Option<Value>> {
        Ok(self.table_expr_hit(table, sel)?.map(|(_, row)| row))
    }

    /// The 0-based index of the row a table expression means (`line_index( )`).
    pub fn table_expr_index(&mut self, table: &Path, sel: &RowSel) -> Exec<Option<usize>> {
        Ok(self.table_expr_hit(table, sel)?.map(|(i, _)| i))
    }

    fn table_expr_hit(&mut self, table: &Path, sel: &RowSel) -> Exec<Option<(usize, Value)>> {
        let tv = self.read(&self.table_body(table))?;
        let Value::Table(tt, rows) = &tv else {
            return Err(self.not_supported(&format!("{} is not an internal table", table.text())));
        };
        let i = self.select_row(tt, rows, sel)?;
        Ok(i.and_then(|i| rows.get(i).cloned().map(|r| (i, r))))
    }
}

/// Which rows a `LOOP` visits: `FROM`, `TO`, `WHERE` and `USING KEY`.
pub struct LoopRange<'e> {
    pub from: Option<&'e Expr>,
    pub to: Option<&'e Expr>,
    pub cond: Option<&'e Cond>,
    pub key: Option<&'e str>,
}

/// A row's component by name (`A-B` for nested ones, `TABLE_LINE` for the row itself).
pub(crate) fn component<'v>(row: &'v Value, name: &str) -> Option<&'v Value> {
    if name == "TABLE_LINE" {
        return Some(row);
    }
    let mut v = row;
    for part in name.split('-') {
        let Value::Struct(t, comps) = v else {
            return None;
        };
        v = comps.get(t.index_of(part)?)?;
    }
    Some(v)
}

fn all_fields(tt: &TableType) -> Vec<(String, bool)> {
    match &tt.line {
        Type::Struct(s) => s.comps.iter().map(|(n, _)| (n.clone(), false)).collect(),
        _ => vec![("TABLE_LINE".into(), false)],
    }
}

impl Interp<'_, '_> {
    /// `CX_SY_ITAB_LINE_NOT_FOUND` (catchable; a short dump when not caught).
    pub fn line_not_found(&self) -> Unwind {
        self.dump(
            "ITAB_LINE_NOT_FOUND",
            "The table line addressed by a table expression does not exist",
        )
    }
}

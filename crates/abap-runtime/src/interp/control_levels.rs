//! Control level processing in `LOOP`s: `AT FIRST`, `AT NEW comp`, `AT END OF comp`, `AT
//! LAST` … `ENDAT`, and `SUM` inside them.
//!
//! A level change compares the current row with its neighbours in the table: `AT NEW c` when
//! the components up to and including `c` differ from the previous row's, `AT END OF c` when
//! they differ from the next row's. Inside the block the work area of `LOOP … INTO wa` has the
//! components right of the group key replaced: flat character-like ones by `*`, the others by
//! their initial value (all of them for `AT FIRST`/`AT LAST`); after `ENDAT` it holds the
//! current row again. `SUM` puts the sums of the numeric components over the rows of the
//! current group into the work area.

use crate::interp::state::LoopCursor;
use crate::interp::{Exec, Flow, Interp};
use abap_data::value::{Type, Value};
use abap_syntax::ast::{ControlLevel, Level, SumStmt};
use abap_syntax::ast::{Path, RowTarget};

/// The work area path of a `LOOP` target (`None`: no work area to change).
fn work_area(target: &RowTarget) -> Option<Path> {
    match target {
        RowTarget::Into(p) | RowTarget::HeaderLine(p) => Some(p.clone()),
        RowTarget::IntoDecl(n) => Some(Path {
            base: n.clone(),
            rest: Vec::new(),
        }),
        _ => None,
    }
}

impl<'r> Interp<'r, '_> {
    fn loop_cursor(&self) -> Exec<LoopCursor> {
        self.st
            .frames
            .last()
            .and_then(|f| f.loops.last().cloned())
            .ok_or_else(|| self.not_supported("AT … ENDAT outside LOOP"))
    }

    /// The number of leading components that form the group key of `level` in `row`.
    fn key_width(&self, row: &Value, level: &Level) -> Exec<usize> {
        match level {
            Level::First | Level::Last => Ok(0),
            Level::New(c) | Level::EndOf(c) => {
                let Value::Struct(st, _) = row else {
                    return Err(self.not_supported("AT NEW/END OF with a non-structured row"));
                };
                st.index_of(c)
                    .map(|i| i + 1)
                    .ok_or_else(|| self.not_supported(&format!("AT NEW/END OF {c}")))
            }
        }
    }

    /// True when the first `width` components of `a` and `b` differ.
    fn key_differs(&self, a: &Value, b: &Value, width: usize) -> Exec<bool> {
        let (Value::Struct(_, x), Value::Struct(_, y)) = (a, b) else {
            return Ok(false);
        };
        for (p, q) in x.iter().zip(y).take(width) {
            if !self.values_eq(p, q)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Rows `start..=end` of the current group of `level` around row `i`.
    fn group_bounds(&self, rows: &[Value], i: usize, width: usize) -> Exec<(usize, usize)> {
        if width == 0 {
            return Ok((0, rows.len().saturating_sub(1)));
        }
        let (mut start, mut end) = (i, i);
        while start > 0 {
            match (rows.get(start - 1), rows.get(start)) {
                (Some(a), Some(b)) if !self.key_differs(a, b, width)? => start -= 1,
                _ => break,
            }
        }
        while let (Some(a), Some(b)) = (rows.get(end), rows.get(end + 1)) {
            if self.key_differs(a, b, width)? {
                break;
            }
            end += 1;
        }
        Ok((start, end))
    }

    pub fn exec_control_level(&mut self, c: &'r ControlLevel) -> Exec<Flow> {
        let cursor = self.loop_cursor()?;
        let i = cursor.current;
        let rows = self.rows(&cursor.place).to_vec();
        let Some(row) = rows.get(i) else {
            return Ok(Flow::Normal);
        };
        let width = self.key_width(row, &c.level)?;
        let hit = match &c.level {
            Level::First => cursor.first == Some(i),
            Level::Last => i + 1 >= rows.len(),
            Level::New(_) => match i.checked_sub(1).and_then(|p| rows.get(p)) {
                Some(prev) if cursor.first != Some(i) => self.key_differs(prev, row, width)?,
                _ => true,
            },
            Level::EndOf(_) => match rows.get(i + 1) {
                Some(next) => self.key_differs(row, next, width)?,
                None => true,
            },
        };
        if !hit {
            return Ok(Flow::Normal);
        }
        let wa = work_area(&c.target);
        if let Some(p) = &wa {
            let masked = mask_right(row, width);
            // Set as is: a conversion would turn the `*` of an `n` component into zeros.
            let place = self.writable_place(p)?;
            if self.place_type(&place) == Some(row.type_of()) {
                if let Some(v) = self.st.value_at_mut(&place) {
                    *v = masked;
                }
            } else {
                self.assign_value(p, masked)?;
            }
        }
        let flow = self.block(&c.body);
        if let (Some(p), Some(row)) = (&wa, self.rows(&cursor.place).get(i).cloned()) {
            self.assign_value(p, row)?;
        }
        flow
    }

    pub fn exec_sum(&mut self, s: &SumStmt) -> Exec<Flow> {
        let cursor = self.loop_cursor()?;
        let Some(wa) = work_area(&s.target) else {
            return Err(self.not_supported("SUM in a LOOP without INTO"));
        };
        let rows = self.rows(&cursor.place).to_vec();
        let Some(row) = rows.get(cursor.current) else {
            return Ok(Flow::Normal);
        };
        let width = self.key_width(row, &s.level)?;
        let (start, end) = self.group_bounds(&rows, cursor.current, width)?;
        let Value::Struct(st, _) = row else {
            return Err(self.not_supported("SUM with a non-structured row"));
        };
        let Value::Struct(_, mut current) = self.read(&wa)? else {
            return Err(self.not_supported("SUM into a non-structure"));
        };
        for (k, (_, ty)) in st.comps.iter().enumerate() {
            let numeric = matches!(
                ty,
                Type::I
                    | Type::P { .. }
                    | Type::Int8
                    | Type::F
                    | Type::DecFloat16
                    | Type::DecFloat34
            );
            if !numeric {
                continue;
            }
            let mut total = ty.initial();
            for r in rows.get(start..=end).unwrap_or(&[]) {
                self.tick()?;
                if let Value::Struct(_, vals) = r
                    && let Some(v) = vals.get(k)
                {
                    total = self.sum_add(&total, v, ty)?;
                }
            }
            if let Some(slot) = current.get_mut(k) {
                *slot = total;
            }
        }
        self.assign_value(&wa, Value::Struct(st.clone(), current))?;
        Ok(Flow::Normal)
    }

    fn sum_add(&mut self, x: &Value, y: &Value, ty: &Type) -> Exec<Value> {
        let e = abap_syntax::ast::Expr::Bin(
            abap_syntax::ast::BinOp::Add,
            Box::new(abap_syntax::ast::Expr::Lit(x.clone())),
            Box::new(abap_syntax::ast::Expr::Lit(y.clone())),
        );
        let v = self.arith(&e, Some(ty))?;
        v.convert(ty).map_err(|e| self.conv_error(e))
    }
}

/// `row` with the components from index `width` on masked: flat character-like ones filled
/// with `*`, the others initial.
fn mask_right(row: &Value, width: usize) -> Value {
    let Value::Struct(st, vals) = row else {
        return row.clone();
    };
    let masked = st
        .comps
        .iter()
        .zip(vals)
        .enumerate()
        .map(|(k, ((_, ty), v))| {
            if k < width {
                return v.clone();
            }
            match ty {
                Type::C(n) => Value::C("*".repeat(*n as usize).into()),
                Type::N(n) => Value::N("*".repeat(*n as usize).into()),
                Type::D => Value::D("*".repeat(8).into()),
                Type::T => Value::T("*".repeat(6).into()),
                other => other.initial(),
            }
        })
        .collect();
    Value::Struct(st.clone(), masked)
}

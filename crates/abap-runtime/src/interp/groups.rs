//! `LOOP AT itab … GROUP BY key [ASCENDING|DESCENDING] [WITHOUT MEMBERS] [INTO group]` and
//! `LOOP AT GROUP group|wa …`.
//!
//! The groups come in the order of their first row (sorted by key with `ASCENDING` /
//! `DESCENDING`). Without `INTO group` the work area holds the group's first row
//! (representative binding). The members of the current group are kept in a frame variable
//! named `%MEMBERS%<group or work area>`, which `LOOP AT GROUP` loops over like a table.

use std::cmp::Ordering;
use std::sync::Arc;

use crate::interp::{Exec, Flow, Interp};
use abap_data::value::{StructType, TableKey, TableKind, TableType, Type, Value};
use abap_syntax::ast::{Expr, Path, RowTarget};
use abap_syntax::ast::{GroupKey, GroupLoop, KeyPart};
use abap_syntax::parser::group_key::members_var;

/// The value of a group key: the key operand, or a structure of the key components with
/// `GROUP SIZE` and `GROUP INDEX` (1-based) filled in.
pub fn group_key_value(key: &GroupKey, vals: &[Value], size: usize, index: usize) -> Value {
    match key {
        GroupKey::Single(_) => vals.first().cloned().unwrap_or(Value::I(0)),
        GroupKey::Fields(parts) => {
            let mut comps = Vec::new();
            let mut out = Vec::new();
            let mut k = vals.iter();
            for (name, p) in parts {
                let v = match p {
                    KeyPart::Expr(_) => k.next().cloned().unwrap_or(Value::I(0)),
                    KeyPart::Size => Value::I(crate::interp::tables::as_i32(size)),
                    KeyPart::Index => Value::I(crate::interp::tables::as_i32(index + 1)),
                };
                comps.push((name.clone(), v.type_of()));
                out.push(v);
            }
            Value::Struct(
                Arc::new(StructType {
                    name: String::new(),
                    comps,
                }),
                out.into(),
            )
        }
    }
}

/// The standard table type (empty key) of a group's members.
pub fn members_type(line: &Type) -> Arc<TableType> {
    Arc::new(TableType {
        name: String::new(),
        kind: TableKind::Standard,
        line: line.clone(),
        unique: false,
        key: TableKey::Empty,
        secondary: Vec::new(),
    })
}

/// A group: its key (without size and index yet) and the row numbers of its members.
struct Group {
    key: Vec<Value>,
    members: Vec<usize>,
}

impl<'r> Interp<'r, '_> {
    pub fn exec_group_loop(&mut self, g: &'r GroupLoop) -> Exec<Flow> {
        let (place, tt) = self.table_place(&g.table)?;
        let len = self.rows(&place).len();
        let mut groups: Vec<Group> = Vec::new();
        for i in 0..len {
            self.tick()?;
            if let Some(c) = &g.cond {
                let row = self.rows(&place).get(i).cloned().unwrap_or(Value::I(0));
                if !self.where_match(c, &row)? {
                    continue;
                }
            }
            self.put_row(&place, i, &g.target)?;
            let key = match &g.key {
                GroupKey::Single(e) => vec![self.group_operand(e)?],
                GroupKey::Fields(parts) => {
                    let mut k = Vec::new();
                    for (_, p) in parts {
                        if let KeyPart::Expr(e) = p {
                            k.push(self.group_operand(e)?);
                        }
                    }
                    k
                }
            };
            match groups.iter_mut().find(|gr| gr.key == key) {
                Some(gr) => gr.members.push(i),
                None => groups.push(Group {
                    key,
                    members: vec![i],
                }),
            }
        }
        if let Some(desc) = g.order {
            let mut err = None;
            groups.sort_by(|a, b| {
                for (x, y) in a.key.iter().zip(&b.key) {
                    match self.compare(x, y) {
                        Ok(Ordering::Equal) => {}
                        Ok(o) => return if desc { o.reverse() } else { o },
                        Err(e) => {
                            err.get_or_insert(e);
                            return Ordering::Equal;
                        }
                    }
                }
                Ordering::Equal
            });
            if let Some(e) = err {
                return Err(e);
            }
        }
        let members_ty = Type::Table(Arc::new(TableType {
            name: String::new(),
            kind: TableKind::Standard,
            line: tt.line.clone(),
            unique: false,
            key: TableKey::Empty,
            secondary: Vec::new(),
        }));
        let holder = match (&g.group, &g.target) {
            (Some((p, _)), _) => p.text(),
            (None, RowTarget::Into(p) | RowTarget::Ref(p, _) | RowTarget::HeaderLine(p)) => {
                p.text()
            }
            (None, RowTarget::IntoDecl(n) | RowTarget::Assign(n)) => n.clone(),
            (None, RowTarget::None) => String::new(),
        };
        if let Some(f) = self.st.frames.last_mut() {
            f.loop_depth += 1;
        }
        let mut result = Ok(Flow::Normal);
        for (gi, gr) in groups.iter().enumerate() {
            let step = self.group_pass(g, &place, gr, gi, &members_ty, &holder);
            match step {
                Ok(Flow::Exit) => break,
                Ok(Flow::Return) => {
                    result = Ok(Flow::Return);
                    break;
                }
                Ok(_) => {}
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        if let Some(f) = self.st.frames.last_mut() {
            f.loop_depth = f.loop_depth.saturating_sub(1);
        }
        result
    }

    fn group_operand(&mut self, e: &Expr) -> Exec<Value> {
        if crate::interp::shapes::is_arith(e) {
            self.arith(e, None)
        } else {
            self.eval(e)
        }
    }

    fn group_pass(
        &mut self,
        g: &'r GroupLoop,
        place: &abap_data::place::Place,
        gr: &Group,
        index: usize,
        members_ty: &Type,
        holder: &str,
    ) -> Exec<Flow> {
        self.tick()?;
        let rows: Vec<Value> = gr
            .members
            .iter()
            .filter_map(|i| self.rows(place).get(*i).cloned())
            .collect();
        let size = rows.len();
        match &g.group {
            Some((path, inline)) => {
                let key = group_key_value(&g.key, &gr.key, size, index);
                if *inline {
                    self.declare_inline(&path.base, key.type_of());
                }
                self.assign_value(path, key)?;
            }
            None => {
                if let Some(first) = gr.members.first() {
                    self.put_row(place, *first, &g.target)?;
                }
            }
        }
        if !holder.is_empty() {
            let name = members_var(holder);
            self.declare_inline(&name, members_ty.clone());
            self.assign_value(
                &Path {
                    base: name,
                    rest: Vec::new(),
                },
                Value::Table(
                    match members_ty {
                        Type::Table(t) => t.clone(),
                        _ => return Err(self.not_supported("group members")),
                    },
                    rows.into(),
                ),
            )?;
        }
        match self.block(&g.body)? {
            Flow::Continue | Flow::Normal => Ok(Flow::Normal),
            other => Ok(other),
        }
    }
}

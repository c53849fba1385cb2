//! Open SQL against the simulator's database (`opensql`): host values handed over from the
//! frames, the result rows moved into the targets of `INTO`/`APPENDING` (inline declarations
//! included), `SELECT … ENDSELECT`, `sy-subrc`/`sy-dbcnt`, and the end of the logical unit
//! of work with the program (commit; rollback when it ends in a runtime error).
//!
//! Each run has a connection of its own (`SharedDb::for_run`), locked only while `opensql`
//! executes one statement: host values are read from the frames without running code (no
//! class constructor, no type resolution), so nothing in that time can ask for the lock
//! again.

use std::sync::Arc;

use opensql::ast::{IntoKind, Select, Statement, Target};
use opensql::{AbapType, Cell, Column, HostResolver, HostValue, ResultSet, SelectLoop, TableDef};

use crate::interp::database::{SharedDb, lock};
use crate::interp::{Exec, Flow, Interp, Unwind};
use abap_data::value::{Mant, StructType, TableKind, TableType, Type, Value};
use abap_syntax::ast::{Path, SqlStmt};
use abap_syntax::parser::sql::decode_name;
use abap_syntax::parser::words::parse_path;

/// The interpreter's type of a dictionary type (`b` and `s` are `i` here).
fn type_of(t: AbapType) -> Type {
    match t {
        AbapType::C(n) => Type::C(n.max(1)),
        AbapType::N(n) => Type::N(n.max(1)),
        AbapType::D => Type::D,
        AbapType::T => Type::T,
        AbapType::Int1 | AbapType::Int2 | AbapType::I => Type::I,
        AbapType::Int8 => Type::Int8,
        AbapType::P { len, dec } => Type::P { len, dec },
        AbapType::F => Type::F,
        AbapType::String => Type::String,
        AbapType::X(n) => Type::X(n.max(1)),
        AbapType::XString => Type::XString,
    }
}

/// The structure type of a dictionary table or structure.
pub fn structure_of(def: &TableDef) -> Type {
    Type::Struct(Arc::new(StructType {
        name: def.name.clone(),
        comps: def
            .fields
            .iter()
            .map(|f| (f.name.clone(), type_of(f.abap())))
            .collect(),
    }))
}

fn standard_table(line: Type) -> Type {
    TableType::standard("", line)
}

/// A result cell as a value (`None`: the null value, the target stays initial).
fn value_of(cell: &Cell) -> Option<Value> {
    Some(match cell {
        Cell::Char(s) => Value::C(s.as_str().into()),
        Cell::Numc(s) => Value::N(s.as_str().into()),
        Cell::Date(s) => Value::D(s.as_str().into()),
        Cell::Time(s) => Value::T(s.as_str().into()),
        Cell::Int(i) => match i32::try_from(*i) {
            Ok(v) => Value::I(v),
            Err(_) => Value::Int8(*i),
        },
        Cell::Packed { mant, dec } => Value::P {
            m: Mant::new(*mant),
            len: 16,
            dec: *dec,
        },
        Cell::Float(f) => Value::F(*f),
        Cell::String(s) => Value::Str(s.as_str().into()),
        Cell::Hex(b) => Value::X(b.clone()),
        Cell::XString(b) => Value::XStr(b.clone()),
        Cell::Null => return None,
    })
}

/// An elementary value as a host cell.
fn cell_of(v: &Value) -> Result<Cell, String> {
    Ok(match v {
        Value::C(t) => Cell::Char(t.as_str().to_string()),
        Value::N(t) => Cell::Numc(t.as_str().to_string()),
        Value::D(t) => Cell::Date(t.as_str().to_string()),
        Value::T(t) => Cell::Time(t.as_str().to_string()),
        Value::Str(t) => Cell::String(t.as_str().to_string()),
        Value::I(i) => Cell::Int(i64::from(*i)),
        Value::Int8(i) => Cell::Int(*i),
        Value::P { m, dec, .. } => Cell::Packed {
            mant: m.get(),
            dec: *dec,
        },
        Value::F(f) => Cell::Float(*f),
        Value::X(b) => Cell::Hex(b.clone()),
        Value::XStr(b) => Cell::XString(b.clone()),
        other => {
            return Err(format!(
                "a value of type {} as an operand",
                other.type_of().name()
            ));
        }
    })
}

fn components_of(v: &Value) -> Result<opensql::Components, String> {
    match v {
        Value::Struct(st, comps) => st
            .comps
            .iter()
            .zip(comps.iter())
            .map(|((n, _), c)| Ok((n.clone(), cell_of(c)?)))
            .collect(),
        other => Ok(vec![("TABLE_LINE".to_string(), cell_of(other)?)]),
    }
}

fn host_value(v: &Value) -> Result<HostValue, String> {
    Ok(match v {
        Value::Struct(..) => HostValue::Struct(components_of(v)?),
        Value::Table(_, rows) => HostValue::Table(
            rows.iter()
                .map(components_of)
                .collect::<Result<Vec<_>, _>>()?,
        ),
        other => HostValue::Scalar(cell_of(other)?),
    })
}

/// Host operands read from the innermost frame.
struct Frames<'a, 'r, 'h> {
    it: &'a Interp<'r, 'h>,
}

impl HostResolver for Frames<'_, '_, '_> {
    fn value(&mut self, name: &str) -> Result<HostValue, String> {
        let name = &decode_name(name);
        let path = parse_path(name).ok_or_else(|| format!("{name} is no data object"))?;
        // `IN @so`, `FOR ALL ENTRIES IN @itab`: a table with a header line gives its body.
        let path = self.it.table_body(&path);
        let f = self.it.st.frames.len().checked_sub(1).ok_or("no frame")?;
        let var = self
            .it
            .st
            .lookup(f, &path)
            .ok_or_else(|| format!("unknown data object {name}"))?;
        host_value(&var.val)
    }
}

impl<'r> Interp<'r, '_> {
    /// The type of dictionary name `name` when the database's dictionary has it: the
    /// structure type of a table or structure, the built-in type of a data element (its
    /// domain's, for an element with a domain).
    pub fn database_type(&self, name: &str) -> Option<Type> {
        let db = self.db?;
        let db = lock(&db.shared);
        let dict = db.dictionary();
        dict.table(name)
            .map(structure_of)
            .or_else(|| dict.data_element(name).map(|t| type_of(t.abap())))
    }

    /// Ends the program's logical unit of work: commit when it ended normally, rollback
    /// when it ended in a runtime error or was terminated.
    pub fn end_of_program(&self, ok: bool) {
        if let Some(db) = self.db {
            db.end_luw(ok);
        }
    }

    pub(crate) fn exec_sql(&mut self, s: &'r SqlStmt) -> Exec<Flow> {
        if let Some((name, table_stmt)) = &s.table_form
            && self.is_internal_table(name)
        {
            return self.statement_kind(table_stmt);
        }
        let Some(db) = self.db else {
            return Err(self.not_supported(&format!(
                "{} without a database (no .tabl.xml files loaded)",
                s.keyword()
            )));
        };
        if let Statement::Select(sel) = &s.stmt
            && let Some(opensql::ast::Into {
                target: Target::WorkArea(name),
                ..
            }) = &sel.into
            && !self.is_data_object(name)
        {
            // A real system's syntax check rejects it; the program cannot run as written.
            return Err(self.not_supported(&format!(
                "SELECT without INTO and without a TABLES work area {name}"
            )));
        }
        match &s.stmt {
            Statement::Select(sel) if sel.is_loop() => self.select_loop(db, &s.stmt, sel, &s.body),
            Statement::Select(sel) => {
                let outcome = self.execute(db, &s.stmt)?;
                self.set_counters(outcome.subrc, outcome.dbcnt);
                if let Some(into) = &sel.into {
                    let rs = outcome.result.unwrap_or_default();
                    self.fill(sel, into, &rs)?;
                }
                Ok(Flow::Normal)
            }
            _ => {
                let outcome = self.execute(db, &s.stmt)?;
                if matches!(s.stmt, Statement::CommitWork | Statement::RollbackWork) {
                    self.luw_ends = self.luw_ends.wrapping_add(1);
                }
                self.set_counters(outcome.subrc, outcome.dbcnt);
                Ok(Flow::Normal)
            }
        }
    }

    /// True when `name` is a data object in scope.
    fn is_data_object(&self, name: &str) -> bool {
        let Some(path) = parse_path(&decode_name(name)) else {
            return false;
        };
        self.st
            .frames
            .len()
            .checked_sub(1)
            .is_some_and(|f| self.st.lookup(f, &path).is_some())
    }

    /// True when `name` is an internal table in scope (a work area of the same name, such
    /// as a `TABLES` one, leaves the statement a database statement).
    fn is_internal_table(&self, name: &str) -> bool {
        let Some(path) = parse_path(name) else {
            return false;
        };
        // A table with a header line: `MODIFY itab.` works on its body.
        if self.has_header_line(&path) {
            return true;
        }
        self.st.frames.len().checked_sub(1).is_some_and(|f| {
            self.st
                .lookup(f, &path)
                .is_some_and(|v| matches!(v.val, Value::Table(..)))
        })
    }

    fn execute(&mut self, db: &SharedDb, stmt: &Statement) -> Exec<opensql::Outcome> {
        let result = {
            let mut host = Frames { it: self };
            db.with(|db| db.execute(stmt, &mut host))
        };
        result.map_err(|e| self.sql_error(e))
    }

    /// The runtime error of a failed statement.
    fn sql_error(&self, e: opensql::Error) -> Unwind {
        match e {
            opensql::Error::Runtime { name, message } => self.dump(name, message),
            opensql::Error::Check(m) => {
                self.dump("SYNTAX_ERROR", format!("invalid Open SQL statement: {m}"))
            }
            other => self.not_supported(&other.to_string()),
        }
    }

    fn set_counters(&mut self, subrc: i32, dbcnt: Option<i64>) {
        for v in self.st.sy.iter_mut() {
            match v.name.as_str() {
                "SUBRC" => v.val = Value::I(subrc),
                "DBCNT" => {
                    if let Some(n) = dbcnt {
                        v.val = Value::I(i32::try_from(n).unwrap_or(i32::MAX));
                    }
                }
                _ => {}
            }
        }
    }

    /// `SELECT … ENDSELECT`: the body once per row, the row in the work area.
    fn select_loop(
        &mut self,
        db: &SharedDb,
        stmt: &Statement,
        sel: &Select,
        body: &'r [abap_syntax::ast::Stmt],
    ) -> Exec<Flow> {
        let outcome = self.execute(db, stmt)?;
        let rs = outcome.result.unwrap_or_default();
        let Some(into) = &sel.into else {
            return Ok(Flow::Normal);
        };
        self.declare_targets(sel, into, rs.columns.as_slice())?;
        let columns = rs.columns.clone();
        let mut rows = SelectLoop::new(rs);
        if let Some(f) = self.st.frames.last_mut() {
            f.loop_depth += 1;
        }
        let result = self.select_passes(into, &columns, &mut rows, body);
        if let Some(f) = self.st.frames.last_mut() {
            f.loop_depth = f.loop_depth.saturating_sub(1);
        }
        let flow = result?;
        let (subrc, dbcnt) = rows.finish();
        self.set_counters(subrc, Some(dbcnt));
        Ok(flow)
    }

    fn select_passes(
        &mut self,
        into: &opensql::ast::Into,
        columns: &[Column],
        rows: &mut SelectLoop,
        body: &'r [abap_syntax::ast::Stmt],
    ) -> Exec<Flow> {
        let mut first = true;
        let luw = self.luw_ends;
        while let Some((row, dbcnt)) = rows.next_row() {
            if !first {
                self.tick()?;
            }
            first = false;
            if self.luw_ends != luw {
                // A commit or rollback closes the loop's cursor; a real system ends the
                // program with a runtime error whose details are not certain here.
                return Err(self.not_supported(
                    "SELECT loop continued after COMMIT WORK or ROLLBACK WORK closed its cursor",
                ));
            }
            self.set_counters(0, Some(dbcnt));
            self.row_into_target(into, columns, &row)?;
            match self.block(body)? {
                Flow::Exit => return Ok(Flow::Normal),
                Flow::Return => return Ok(Flow::Return),
                Flow::Normal | Flow::Continue => {}
            }
        }
        Ok(Flow::Normal)
    }

    /// Moves the result of a `SELECT` into its target.
    fn fill(&mut self, sel: &Select, into: &opensql::ast::Into, rs: &ResultSet) -> Exec<()> {
        self.declare_targets(sel, into, &rs.columns)?;
        match into.kind {
            IntoKind::Row => match rs.rows.first() {
                Some(row) => self.row_into_target(into, &rs.columns, row),
                None => Ok(()),
            },
            IntoKind::Table | IntoKind::Appending => {
                let (Target::Host(name) | Target::Inline(name)) = &into.target else {
                    return Err(self.not_supported("INTO TABLE with a list of targets"));
                };
                // A table with a header line: its body.
                let path = self.table_body(&self.sql_path(name)?);
                let (place, tt) = self.table_place_mut(&path)?;
                let mut lines = Vec::with_capacity(rs.rows.len());
                for row in &rs.rows {
                    let line = self.line_value(
                        &tt.line,
                        tt.line.initial(),
                        &rs.columns,
                        row,
                        into.corresponding,
                    )?;
                    lines.push(line);
                }
                let keyed = tt.unique || tt.kind != TableKind::Standard;
                let appending = into.kind == IntoKind::Appending;
                if appending && !keyed {
                    // The rows there stay where they are: references into them hold.
                    let had = self.rows(&place).len();
                    self.room_for(had.saturating_add(lines.len()).saturating_sub(1))?;
                    if let Some(rows) = self.rows_mut(&place) {
                        rows.extend(lines);
                    }
                    return Ok(());
                }
                let mut rows = if appending {
                    self.rows_mut(&place)
                        .map(std::mem::take)
                        .unwrap_or_default()
                } else {
                    Vec::new()
                };
                for line in lines {
                    if keyed {
                        if self.insert_by_key(&tt, &mut rows, line)?.is_none() {
                            return Err(self.not_supported(&format!(
                                "a row of {name} with a key the table has already (unique key)"
                            )));
                        }
                    } else {
                        self.room_for(rows.len())?;
                        rows.push(line);
                    }
                }
                if let Some(slot) = self.rows_mut(&place) {
                    *slot = rows;
                }
                self.rows_replaced(&place);
                Ok(())
            }
        }
    }

    /// One row into the work area (or the list of targets).
    fn row_into_target(
        &mut self,
        into: &opensql::ast::Into,
        columns: &[Column],
        row: &[Cell],
    ) -> Exec<()> {
        match &into.target {
            Target::Host(name) | Target::Inline(name) | Target::WorkArea(name) => {
                let path = self.sql_path(name)?;
                let ty = self.target_type_of(&path)?;
                let current = self.read(&path)?;
                let v = self.line_value(&ty, current, columns, row, into.corresponding)?;
                self.assign_value(&path, v)
            }
            Target::List(targets) => {
                for (i, t) in targets.iter().enumerate() {
                    let (Target::Host(name) | Target::Inline(name)) = t else {
                        return Err(self.not_supported("nested target lists"));
                    };
                    let path = self.sql_path(name)?;
                    let ty = self.target_type_of(&path)?;
                    let v = match row.get(i).and_then(value_of) {
                        Some(v) => v.convert(&ty).map_err(|e| self.move_error(e, &v, &ty))?,
                        None => ty.initial(),
                    };
                    self.assign_value(&path, v)?;
                }
                Ok(())
            }
        }
    }

    /// A row as a value of `ty`: a structure takes the columns in order (by name with
    /// `CORRESPONDING FIELDS`), starting from `base`; an elementary type the first column.
    fn line_value(
        &self,
        ty: &Type,
        base: Value,
        columns: &[Column],
        row: &[Cell],
        corresponding: bool,
    ) -> Exec<Value> {
        let Type::Struct(st) = ty else {
            return match row.first().and_then(value_of) {
                Some(v) => v.convert(ty).map_err(|e| self.move_error(e, &v, ty)),
                None => Ok(ty.initial()),
            };
        };
        let mut comps: Vec<Value> = match base {
            Value::Struct(_, c) if c.len() == st.comps.len() => c.into_vec(),
            _ => st.comps.iter().map(|(_, t)| t.initial()).collect(),
        };
        for (i, (col, cell)) in columns.iter().zip(row).enumerate() {
            let index = if corresponding {
                match st.index_of(&col.name) {
                    Some(j) => j,
                    None => continue,
                }
            } else {
                i
            };
            let (Some((_, cty)), Some(slot)) = (st.comps.get(index), comps.get_mut(index)) else {
                continue;
            };
            *slot = match value_of(cell) {
                Some(v) => v.convert(cty).map_err(|e| self.move_error(e, &v, cty))?,
                None => cty.initial(),
            };
        }
        Ok(Value::Struct(st.clone(), comps.into_boxed_slice()))
    }

    /// Declares the inline targets (`@DATA( … )`) of `into` from the result's columns.
    fn declare_targets(
        &mut self,
        sel: &Select,
        into: &opensql::ast::Into,
        columns: &[Column],
    ) -> Exec<()> {
        match &into.target {
            Target::Inline(name) => {
                let line = if columns.len() == 1 && into.kind == IntoKind::Row {
                    columns.first().map_or(Type::I, |c| type_of(c.ty))
                } else {
                    self.row_type(sel, columns)
                };
                let ty = match into.kind {
                    IntoKind::Row => line,
                    IntoKind::Table | IntoKind::Appending => standard_table(line),
                };
                self.declare_inline(name, ty);
            }
            Target::List(targets) => {
                for (t, c) in targets.iter().zip(columns) {
                    if let Target::Inline(name) = t {
                        self.declare_inline(name, type_of(c.ty));
                    }
                }
            }
            Target::Host(_) | Target::WorkArea(_) => {}
        }
        Ok(())
    }

    /// The row type of a result: the table's own type for `*` over one table, else a
    /// structure of the columns.
    fn row_type(&self, sel: &Select, columns: &[Column]) -> Type {
        if sel.fields.is_none()
            && sel.from.joins.is_empty()
            && let Some(t) = self.database_type(&sel.from.table.name)
        {
            return t;
        }
        Type::Struct(Arc::new(StructType {
            name: String::new(),
            comps: columns
                .iter()
                .map(|c| (c.name.clone(), type_of(c.ty)))
                .collect(),
        }))
    }

    fn sql_path(&self, name: &str) -> Exec<Path> {
        let name = decode_name(name);
        parse_path(&name).ok_or_else(|| self.not_supported(&format!("target {name}")))
    }
}

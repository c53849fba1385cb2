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

use crate::ast::{Cond, Expr, Path, RowSel, RowTarget, Stmt, TableStmt, ValueBody, ValueRow};
use crate::expr::{parse_full_cond, parse_full_expr, parse_path};
use crate::interp::{Exec, Flow, Interp, Unwind};
use crate::lexer::upper_word;
use crate::lexer::{Token, TokenKind};
use crate::parser::inline_decl;
use crate::place::{Place, Step};
use crate::row_refs;
use crate::value::{TableKind, TableType, Type, Value};

fn find_kw(toks: &[Token], kw: &str) -> Option<usize> {
    toks.iter().position(|t| t.is_kw(kw))
}

fn expr(toks: &[Token]) -> Result<Expr, String> {
    parse_full_expr(toks).map_err(|u| u.0)
}

fn path(t: Option<&Token>) -> Result<Path, String> {
    t.and_then(Token::word)
        .and_then(parse_path)
        .ok_or_else(|| "table operand".to_string())
}

/// `INTO wa` / `INTO DATA(wa)` / `ASSIGNING <fs>` / `ASSIGNING FIELD-SYMBOL(<fs>)` /
/// `TRANSPORTING NO FIELDS` at `toks[i..]`: the target and the tokens used.
pub(crate) fn row_target(toks: &[Token], i: usize) -> Result<(RowTarget, usize), String> {
    match upper_word(toks.get(i)).as_str() {
        "INTO" => {
            let rest = toks.get(i + 1..).unwrap_or(&[]);
            if let Some((name, n)) = inline_decl(rest) {
                return Ok((RowTarget::IntoDecl(name), 1 + n));
            }
            Ok((RowTarget::Into(path(rest.first())?), 2))
        }
        "ASSIGNING" => {
            let rest = toks.get(i + 1..).unwrap_or(&[]);
            if rest.first().is_some_and(|t| t.is_kw("FIELD-SYMBOL")) {
                let name = upper_word(rest.get(2));
                return Ok((RowTarget::Assign(name), 5));
            }
            Ok((RowTarget::Assign(upper_word(rest.first())), 2))
        }
        "TRANSPORTING" if upper_word(toks.get(i + 1)) == "NO" => Ok((RowTarget::None, 3)),
        "REFERENCE" if upper_word(toks.get(i + 1)) == "INTO" => {
            let rest = toks.get(i + 2..).unwrap_or(&[]);
            if let Some((name, n)) = inline_decl(rest) {
                let p = parse_path(&name).ok_or_else(|| "REFERENCE INTO".to_string())?;
                return Ok((RowTarget::Ref(p, true), 2 + n));
            }
            Ok((RowTarget::Ref(path(rest.first())?, false), 3))
        }
        other => Err(format!("row target {other}")),
    }
}

/// `c = v [AND] c = v …` (key components).
pub(crate) fn key_list(toks: &[Token]) -> Result<Vec<(String, Expr)>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].is_kw("AND") {
            i += 1;
            continue;
        }
        let name = upper_word(toks.get(i));
        if toks.get(i + 1).and_then(Token::word) != Some("=") {
            return Err("key component".into());
        }
        let end = toks[i + 2..]
            .iter()
            .enumerate()
            .position(|(k, t)| {
                toks.get(i + 2 + k + 1).and_then(Token::word) == Some("=") && k > 0
                    || t.is_kw("AND")
            })
            .map_or(toks.len(), |p| i + 2 + p);
        out.push((name, expr(&toks[i + 2..end])?));
        i = end;
    }
    Ok(out)
}

/// Parses a table statement (not `LOOP`, whose body the block parser reads); `Err` names the
/// unsupported construct.
pub fn parse_table_stmt(kw: &str, toks: &[Token]) -> Result<TableStmt, String> {
    let rest = toks.get(1..).unwrap_or(&[]);
    match kw {
        "APPEND" => {
            let to = find_kw(rest, "TO").ok_or("APPEND without TO")?;
            let what = if rest.first().is_some_and(|t| t.is_kw("INITIAL"))
                && upper_word(rest.get(1)) == "LINE"
            {
                None
            } else if rest.first().is_some_and(|t| t.is_kw("LINES")) {
                return Err("APPEND LINES OF".into());
            } else {
                Some(expr(&rest[..to])?)
            };
            let table = path(rest.get(to + 1))?;
            let target = if rest.len() > to + 2 {
                row_target(rest, to + 2)?.0
            } else {
                RowTarget::None
            };
            Ok(TableStmt::Append {
                what,
                table,
                target,
            })
        }
        "INSERT" => {
            let into = find_kw(rest, "INTO").ok_or("INSERT without INTO")?;
            if rest.first().is_some_and(|t| t.is_kw("LINES")) {
                return Err("INSERT LINES OF".into());
            }
            let what = if upper_word(rest.first()) == "INITIAL" {
                None
            } else {
                Some(expr(&rest[..into])?)
            };
            // `ASSIGNING <fs>` / `REFERENCE INTO dref` at the end.
            let target_at = (into + 1..rest.len())
                .find(|k| matches!(upper_word(rest.get(*k)).as_str(), "ASSIGNING" | "REFERENCE"));
            let target = match target_at {
                Some(k) => {
                    let (t, n) = row_target(rest, k)?;
                    if k + n != rest.len() {
                        return Err("INSERT … with additions".into());
                    }
                    t
                }
                None => RowTarget::None,
            };
            let end = target_at.unwrap_or(rest.len());
            if upper_word(rest.get(into + 1)) == "TABLE" {
                if end != into + 3 {
                    return Err("INSERT INTO TABLE with additions".into());
                }
                return Ok(TableStmt::Insert {
                    what,
                    table: path(rest.get(into + 2))?,
                    index: None,
                    target,
                });
            }
            let table = path(rest.get(into + 1))?;
            let index = match upper_word(rest.get(into + 2)).as_str() {
                "INDEX" => Some(expr(rest.get(into + 3..end).unwrap_or(&[]))?),
                _ if end == into + 2 => None,
                other => return Err(format!("INSERT … {other}")),
            };
            Ok(TableStmt::Insert {
                what,
                table,
                index: Some(index.unwrap_or(Expr::Path(Path {
                    base: "SY".into(),
                    rest: vec![(crate::ast::Sel::Dash, "TABIX".into())],
                }))),
                target,
            })
        }
        "READ" => {
            let table = path(rest.get(1))?;
            let mut i = 2;
            let mut target = RowTarget::None;
            let mut index = None;
            let mut key = Vec::new();
            while i < rest.len() {
                match upper_word(rest.get(i)).as_str() {
                    "INTO" | "ASSIGNING" | "TRANSPORTING" | "REFERENCE" => {
                        let (t, n) = row_target(rest, i)?;
                        target = t;
                        i += n;
                    }
                    "INDEX" => {
                        let end = (i + 1..rest.len())
                            .find(|k| {
                                matches!(
                                    upper_word(rest.get(*k)).as_str(),
                                    "INTO" | "ASSIGNING" | "TRANSPORTING" | "REFERENCE"
                                )
                            })
                            .unwrap_or(rest.len());
                        index = Some(expr(&rest[i + 1..end])?);
                        i = end;
                    }
                    "WITH" => {
                        let mut k = i + 1;
                        if upper_word(rest.get(k)) == "TABLE" {
                            k += 1;
                        }
                        if upper_word(rest.get(k)) != "KEY" {
                            return Err("READ TABLE WITH".into());
                        }
                        let end = (k + 1..rest.len())
                            .find(|j| {
                                matches!(
                                    upper_word(rest.get(*j)).as_str(),
                                    "INTO" | "ASSIGNING" | "TRANSPORTING" | "REFERENCE" | "BINARY"
                                )
                            })
                            .unwrap_or(rest.len());
                        key = key_list(&rest[k + 1..end])?;
                        i = end;
                    }
                    "BINARY" => i += 2,
                    other => return Err(format!("READ TABLE … {other}")),
                }
            }
            if index.is_none() && key.is_empty() {
                return Err("READ TABLE without INDEX or KEY".into());
            }
            Ok(TableStmt::Read {
                table,
                target,
                index,
                key,
            })
        }
        "MODIFY" => {
            if upper_word(rest.first()) == "TABLE" {
                return Err("MODIFY TABLE".into());
            }
            let table = path(rest.first())?;
            let (from, index) = match (
                upper_word(rest.get(1)).as_str(),
                upper_word(rest.get(2)).as_str(),
            ) {
                ("FROM", _) => {
                    let ix = find_kw(rest, "INDEX");
                    if find_kw(rest, "TRANSPORTING").is_some() || find_kw(rest, "WHERE").is_some() {
                        return Err("MODIFY … TRANSPORTING".into());
                    }
                    let from = expr(&rest[2..ix.unwrap_or(rest.len())])?;
                    (from, ix.map(|k| expr(&rest[k + 1..])).transpose()?)
                }
                ("INDEX", _) => {
                    let f = find_kw(rest, "FROM").ok_or("MODIFY without FROM")?;
                    if find_kw(rest, "TRANSPORTING").is_some() {
                        return Err("MODIFY … TRANSPORTING".into());
                    }
                    (expr(&rest[f + 1..])?, Some(expr(&rest[2..f])?))
                }
                _ => return Err("MODIFY".into()),
            };
            Ok(TableStmt::Modify { table, from, index })
        }
        "DELETE" => {
            if upper_word(rest.first()) == "ADJACENT" {
                let table = path(rest.get(3))?;
                let comparing = match upper_word(rest.get(4)).as_str() {
                    "COMPARING" => rest[5..].iter().map(|t| upper_word(Some(t))).collect(),
                    "" => Vec::new(),
                    other => return Err(format!("DELETE ADJACENT DUPLICATES … {other}")),
                };
                return Ok(TableStmt::DeleteAdjacent { table, comparing });
            }
            let table = path(rest.first())?;
            match upper_word(rest.get(1)).as_str() {
                "INDEX" => Ok(TableStmt::Delete {
                    table,
                    index: Some(expr(&rest[2..])?),
                    cond: None,
                }),
                "WHERE" => Ok(TableStmt::Delete {
                    table,
                    index: None,
                    cond: Some(parse_full_cond(&rest[2..]).map_err(|u| u.0)?),
                }),
                "" => Ok(TableStmt::Delete {
                    table,
                    index: None,
                    cond: None,
                }),
                other => Err(format!("DELETE … {other}")),
            }
        }
        "SORT" => {
            let table = path(rest.first())?;
            let mut descending = false;
            let mut by: Vec<(String, bool)> = Vec::new();
            let mut in_by = false;
            let mut as_text = false;
            for t in rest.iter().skip(1) {
                match upper_word(Some(t)).as_str() {
                    "ASCENDING" | "DESCENDING" => {
                        let d = t.is_kw("DESCENDING");
                        match (in_by, by.last_mut()) {
                            (true, Some(last)) => last.1 = d,
                            _ => descending = d,
                        }
                    }
                    "BY" => in_by = true,
                    "STABLE" => {}
                    // `AS TEXT` sorts by the locale's collation; for the texts programs
                    // compare here the code point order is taken as that.
                    "AS" => as_text = true,
                    "TEXT" if as_text => as_text = false,
                    w if in_by => by.push((w.to_string(), descending)),
                    other => return Err(format!("SORT … {other}")),
                }
            }
            Ok(TableStmt::Sort {
                table,
                descending,
                by,
            })
        }
        "REFRESH" | "FREE" if rest.len() == 1 => Ok(TableStmt::Refresh(
            path(rest.first())?,
            if kw == "FREE" { "FREE" } else { "REFRESH" },
        )),
        other => Err(other.to_string()),
    }
}

/// `LOOP AT itab [INTO …|ASSIGNING …|TRANSPORTING NO FIELDS] [FROM n] [TO m] [WHERE cond]`
/// without the body.
pub fn parse_loop(toks: &[Token]) -> Result<TableStmt, String> {
    if upper_word(toks.get(1)) != "AT" {
        return Err("LOOP".into());
    }
    let is_clause = |w: &str| {
        matches!(
            w,
            "INTO" | "ASSIGNING" | "TRANSPORTING" | "REFERENCE" | "FROM" | "TO" | "WHERE" | "USING"
        )
    };
    let (table, source, mut i) = loop_operand(toks, &is_clause)?;
    let mut target = RowTarget::None;
    let (mut from, mut to, mut cond, mut key) = (None, None, None, None);
    while i < toks.len() {
        match upper_word(toks.get(i)).as_str() {
            "INTO" | "ASSIGNING" | "TRANSPORTING" | "REFERENCE" => {
                let (t, n) = row_target(toks, i)?;
                target = t;
                i += n;
            }
            k @ ("FROM" | "TO") => {
                let end = (i + 1..toks.len())
                    .find(|j| is_clause(&upper_word(toks.get(*j))))
                    .unwrap_or(toks.len());
                let e = expr(&toks[i + 1..end])?;
                if k == "FROM" {
                    from = Some(e);
                } else {
                    to = Some(e);
                }
                i = end;
            }
            "WHERE" => {
                cond = Some(parse_full_cond(&toks[i + 1..]).map_err(|u| u.0)?);
                i = toks.len();
            }
            "USING" if upper_word(toks.get(i + 1)) == "KEY" => {
                let name = upper_word(toks.get(i + 2));
                if name.is_empty() {
                    return Err("LOOP AT … USING KEY".into());
                }
                if name != "PRIMARY_KEY" {
                    key = Some(name);
                }
                i += 3;
            }
            other => return Err(format!("LOOP AT … {other}")),
        }
    }
    Ok(TableStmt::Loop {
        table,
        source,
        target,
        from,
        to,
        cond,
        key,
        body: Vec::new(),
    })
}

/// The table operand of `LOOP AT` from `toks[2]` up to the first addition: a data object, or
/// an expression (`meth( )`, `itab[ … ]-comp`, `VALUE #( … )`) that the loop evaluates once
/// into an internal variable named after its line. Returns the table, the expression and the
/// index of the first addition.
fn loop_operand(
    toks: &[Token],
    is_clause: &dyn Fn(&str) -> bool,
) -> Result<(Path, Option<Box<Expr>>, usize), String> {
    let mut depth = 0usize;
    let mut end = 2;
    while let Some(t) = toks.get(end) {
        match t.kind {
            TokenKind::LParen => depth += 1,
            TokenKind::RParen => depth = depth.saturating_sub(1),
            _ if depth == 0 && is_clause(&upper_word(Some(t))) => break,
            _ => {}
        }
        // `meth(` and `itab[` open a bracket of their own.
        if t.word()
            .is_some_and(|w| w.ends_with('(') || w.ends_with('['))
        {
            depth += 1;
        }
        if t.word()
            .is_some_and(|w| w.starts_with(')') || w.starts_with(']'))
        {
            depth = depth.saturating_sub(1);
        }
        end += 1;
    }
    let operand = toks.get(2..end).unwrap_or(&[]);
    if let [single] = operand
        && let Some(p) = single.word().and_then(parse_path)
    {
        return Ok((p, None, end));
    }
    if operand.is_empty() {
        return Err("table operand".into());
    }
    let e = expr(operand)?;
    let line = operand.first().map_or(0, |t| t.line);
    let table = Path {
        base: format!("%LOOP%{line}"),
        rest: Vec::new(),
    };
    Ok((table, Some(Box::new(e)), end))
}

/// The `LOOP` being executed: which table and row (for `MODIFY`/`DELETE` without `INDEX`).
pub(crate) fn sy_set(it: &mut Interp<'_, '_>, name: &str, v: i32) {
    if let Some(var) = it.st.sy.iter_mut().find(|s| s.name == name) {
        var.val = Value::I(v);
    }
}

pub(crate) fn as_i32(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl<'r> Interp<'r, '_> {
    /// An internal table that a statement only reads (`LOOP`, `READ`, `DESCRIBE`, …): also a
    /// write-protected one such as an `IMPORTING` parameter.
    pub(crate) fn table_place(&mut self, table: &Path) -> Exec<(Place, Arc<TableType>)> {
        let place = self.readable_place(table)?;
        self.table_at(table, place)
    }

    /// An internal table that a statement changes (`APPEND`, `SORT`, `DELETE`, …): a
    /// write-protected one ends the run with `MOVE_TO_LIT_NOTALLOWED_NODATA`.
    pub(crate) fn table_place_mut(&mut self, table: &Path) -> Exec<(Place, Arc<TableType>)> {
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
                    crate::ast::CmpOp::Eq => o == Ordering::Equal,
                    crate::ast::CmpOp::Ne => o != Ordering::Equal,
                    crate::ast::CmpOp::Lt => o == Ordering::Less,
                    crate::ast::CmpOp::Gt => o == Ordering::Greater,
                    crate::ast::CmpOp::Le => o != Ordering::Greater,
                    crate::ast::CmpOp::Ge => o != Ordering::Less,
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
                let r = self.eval(r)?;
                self.in_range(&x, &r)
            }
            Cond::Text(op, l, r) => {
                let l = left(self, l)?;
                let r = self.eval(r)?;
                self.text_compare_values(*op, &l, &r)
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
            other => self.cond(other),
        }
    }

    /// Puts row `i` of the table at `place` into `target`.
    pub(crate) fn put_row(&mut self, place: &Place, i: usize, target: &RowTarget) -> Exec<()> {
        match target {
            RowTarget::None => Ok(()),
            RowTarget::Into(p) => {
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
            } => {
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
            }
            TableStmt::Insert {
                what,
                table,
                index,
                target,
            } => {
                let (place, tt) = self.table_place_mut(table)?;
                let row = match what {
                    Some(e) => self.eval_typed(e, &tt.line)?,
                    None => tt.line.initial(),
                };
                match index {
                    None => {
                        let mut rows =
                            std::mem::take(self.rows_mut(&place).unwrap_or(&mut Vec::new()));
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
                            return Err(
                                self.not_supported("INSERT … INDEX into a sorted or hashed table")
                            );
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
                                return Err(
                                    self.dump("TABLE_INVALID_INDEX", format!("Invalid index {n}"))
                                );
                            }
                            _ => sy_set(self, "SUBRC", 4),
                        }
                    }
                }
            }
            TableStmt::Loop {
                table,
                source,
                target,
                from,
                to,
                cond,
                key,
                body,
            } => {
                if let Some(e) = source {
                    // Evaluated once; the loop then runs over the internal variable.
                    let rows = self.eval(e)?;
                    if !matches!(rows, Value::Table(..)) {
                        return Err(self.not_supported("LOOP AT an expression that is no table"));
                    }
                    self.declare_inline(&table.base, rows.type_of());
                    self.assign_value(table, rows)?;
                }
                return self.exec_loop(
                    table,
                    target,
                    LoopRange {
                        from: from.as_ref(),
                        to: to.as_ref(),
                        cond: cond.as_ref(),
                        key: key.as_deref(),
                    },
                    body,
                );
            }
            TableStmt::Read {
                table,
                target,
                index,
                key,
            } => {
                let (place, _) = self.table_place(table)?;
                let found = match index {
                    Some(e) => {
                        let n = self.int(e)?;
                        if n <= 0 {
                            return Err(
                                self.dump("TABLE_INVALID_INDEX", format!("Invalid index {n}"))
                            );
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
            }
            TableStmt::Modify { table, from, index } => {
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
            }
            TableStmt::Delete { table, index, cond } => {
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
            }
            TableStmt::DeleteAdjacent { table, comparing } => {
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
            }
            TableStmt::Sort {
                table,
                descending,
                by,
            } => {
                let (place, tt) = self.table_place_mut(table)?;
                let key: Vec<(String, bool)> = if by.is_empty() {
                    Self::key_of(&tt)
                        .into_iter()
                        .map(|(c, _)| (c, *descending))
                        .collect()
                } else {
                    by.clone()
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
                let sorted: Vec<Value> =
                    order.iter().filter_map(|i| rows.get(*i).cloned()).collect();
                if let Some(slot) = self.rows_mut(&place) {
                    *slot = sorted;
                }
                self.rows_moved(&place, || row_refs::reordered(&order));
            }
            TableStmt::Refresh(table, _) => {
                let (place, _) = self.table_place_mut(table)?;
                let mut had_rows = false;
                if let Some(rows) = self.rows_mut(&place) {
                    had_rows = !rows.is_empty();
                    rows.clear();
                }
                if had_rows {
                    self.rows_replaced(&place);
                }
            }
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
            f.loops.push(crate::state::LoopCursor {
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
        let tv = self.read(table)?;
        let Value::Table(_, rows) = &tv else {
            return Err(self.not_supported(&format!("{} is not an internal table", table.text())));
        };
        let i = self.select_row(rows, sel)?;
        Ok(i.and_then(|i| rows.get(i).cloned().map(|r| (i, r))))
    }

    /// The 0-based index of the row of `rows` that `sel` selects.
    pub(crate) fn select_row(&mut self, rows: &[Value], sel: &RowSel) -> Exec<Option<usize>> {
        Ok(match sel {
            RowSel::Index(e) => {
                let n = self.int(e)?;
                usize::try_from(n - 1).ok().filter(|i| *i < rows.len())
            }
            RowSel::Key(k) => {
                let k = self.eval_key(k)?;
                self.find_row(rows, &k)?
            }
        })
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

//! The internal table statements beyond the basic ones in `itab.rs`: `APPEND|INSERT LINES
//! OF`, `COLLECT`, `MODIFY … TRANSPORTING [WHERE]`, `MODIFY TABLE`, `READ TABLE … WITH
//! [TABLE] KEY` (linear or binary search), `DESCRIBE TABLE` and `DELETE TABLE`.
//!
//! Binary search (explicit `BINARY SEARCH`, or implicit on a sorted table when the key is an
//! initial part of the table key) follows ABAP: the first of several matching rows is found;
//! when nothing matches, `sy-subrc` is 4 and `sy-tabix` the row the key would be inserted
//! before, or 8 and lines + 1 when the key is beyond the last row.

use std::cmp::Ordering;

use crate::ast::TableOp;
use crate::ast::{BinOp, Cond, Expr, Path, RowTarget};
use crate::expr::{parse_full_cond, parse_full_expr, parse_path};
use crate::interp::{Exec, Flow, Interp};
use crate::itab::{as_i32, component, sy_set};
use crate::lexer::upper_word;
use crate::lexer::{Token, TokenKind};
use crate::value::{TableKind, TableType, Type, Value};

fn expr(toks: &[Token]) -> Result<Expr, String> {
    parse_full_expr(toks).map_err(|u| u.0)
}

fn path(t: Option<&Token>) -> Result<Path, String> {
    t.and_then(Token::word)
        .and_then(parse_path)
        .ok_or_else(|| "table operand".to_string())
}

/// Splits `toks` at the top-level (outside parentheses) clause keywords `kws`: the tokens
/// before the first clause, then each clause keyword with its tokens. `WHERE` takes the rest.
fn clauses<'t>(toks: &'t [Token], kws: &[&str]) -> (&'t [Token], Vec<(String, &'t [Token])>) {
    let mut depth = 0usize;
    let mut cuts: Vec<(usize, String)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.kind {
            TokenKind::LParen => depth += 1,
            TokenKind::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
        let w = upper_word(Some(t));
        if depth == 0 && kws.contains(&w.as_str()) && t.kind != TokenKind::LParen {
            cuts.push((i, w.clone()));
            if w == "WHERE" {
                break;
            }
        }
    }
    let head_end = cuts.first().map_or(toks.len(), |c| c.0);
    let mut out = Vec::new();
    for (k, (at, w)) in cuts.iter().enumerate() {
        let end = cuts.get(k + 1).map_or(toks.len(), |c| c.0);
        out.push((w.clone(), toks.get(at + 1..end).unwrap_or(&[])));
    }
    (toks.get(..head_end).unwrap_or(&[]), out)
}

/// The component names after `TRANSPORTING`.
fn comp_names(toks: &[Token]) -> Result<Vec<String>, String> {
    if toks.is_empty() {
        return Err("TRANSPORTING without components".into());
    }
    toks.iter()
        .map(|t| {
            let w = upper_word(Some(t));
            if crate::expr::is_name(&w) || w.contains('-') {
                Ok(w)
            } else {
                Err(format!("TRANSPORTING {w}"))
            }
        })
        .collect()
}

/// Parses the statements of this module; `None` when the statement is one of the basic forms
/// `itab.rs` handles.
pub fn parse(kw: &str, toks: &[Token]) -> Option<Result<TableOp, String>> {
    let rest = toks.get(1..).unwrap_or(&[]);
    match kw {
        "APPEND" | "INSERT"
            if upper_word(rest.first()) == "LINES" && upper_word(rest.get(1)) == "OF" =>
        {
            Some(lines(kw == "INSERT", rest.get(2..).unwrap_or(&[])))
        }
        "COLLECT" => Some(collect(rest)),
        "MODIFY" if upper_word(rest.first()) == "TABLE" => Some(modify_table(rest)),
        "MODIFY" if rest.iter().any(|t| t.is_kw("TRANSPORTING")) => Some(modify_comps(rest)),
        "READ" if rest.iter().any(|t| t.is_kw("FROM")) => Some(read_from(rest)),
        "READ" => {
            let (toks, using) = crate::secondary_keys::split_key_name(toks);
            match crate::itab::parse_table_stmt(kw, &toks) {
                Ok(crate::ast::TableStmt::Read {
                    table,
                    target,
                    index: None,
                    key,
                }) => Some(Ok(TableOp::ReadKey {
                    table,
                    target,
                    key,
                    from: None,
                    binary: rest.iter().any(|t| t.is_kw("BINARY")),
                    using,
                })),
                _ if using.is_some() => Some(Err("READ TABLE … KEY name".into())),
                _ => None,
            }
        }
        "DESCRIBE" => Some(describe(rest)),
        "DELETE" if upper_word(rest.first()) == "TABLE" => Some(delete_table(rest)),
        "DELETE" if matches!(upper_word(rest.get(1)).as_str(), "FROM" | "TO") => {
            Some(delete_range(rest))
        }
        _ => None,
    }
}

fn lines(insert: bool, toks: &[Token]) -> Result<TableOp, String> {
    let target_kw = if insert { "INTO" } else { "TO" };
    // The destination follows the last top-level `TO`/`INTO` (`FROM 2 TO 3 TO itab`).
    let mut depth = 0usize;
    let mut last = None;
    for (i, t) in toks.iter().enumerate() {
        match t.kind {
            TokenKind::LParen => depth += 1,
            TokenKind::RParen => depth = depth.saturating_sub(1),
            _ if depth == 0 && t.is_kw(target_kw) => last = Some(i),
            _ => {}
        }
    }
    let at = last.ok_or_else(|| format!("LINES OF without {target_kw}"))?;
    let (src, parts) = clauses(toks.get(..at).unwrap_or(&[]), &["FROM", "TO"]);
    let src = expr(src)?;
    let (mut from, mut to) = (None, None);
    for (k, t) in parts {
        match k.as_str() {
            "FROM" => from = Some(expr(t)?),
            _ => to = Some(expr(t)?),
        }
    }
    let dest = toks.get(at + 1..).unwrap_or(&[]);
    let by_key = insert && upper_word(dest.first()) == "TABLE";
    let dest = if by_key { &dest[1..] } else { dest };
    let table = path(dest.first())?;
    let index = match (upper_word(dest.get(1)).as_str(), insert, by_key) {
        ("", _, _) => None,
        ("INDEX", true, false) => Some(expr(dest.get(2..).unwrap_or(&[]))?),
        (other, _, _) => return Err(format!("LINES OF … {other}")),
    };
    Ok(TableOp::Lines {
        insert,
        src,
        from,
        to,
        table,
        by_key,
        index,
    })
}

/// `READ TABLE itab FROM wa INTO …|ASSIGNING …|REFERENCE INTO …|TRANSPORTING NO FIELDS`.
fn read_from(rest: &[Token]) -> Result<TableOp, String> {
    if upper_word(rest.first()) != "TABLE" {
        return Err("READ".into());
    }
    let table = path(rest.get(1))?;
    let tail = rest.get(2..).unwrap_or(&[]);
    let (head, parts) = clauses(
        tail,
        &["FROM", "INTO", "ASSIGNING", "REFERENCE", "TRANSPORTING"],
    );
    if !head.is_empty() {
        return Err("READ TABLE".into());
    }
    let mut from = None;
    let mut target = RowTarget::None;
    // Row targets are parsed from the clause keyword on (`INTO DATA(x)`, `REFERENCE INTO r`).
    let mut at = 0usize;
    let mut after_reference = false;
    for (k, t) in parts {
        // `REFERENCE INTO r`: the `INTO` belongs to the `REFERENCE` clause.
        if std::mem::replace(&mut after_reference, k == "REFERENCE") && k == "INTO" {
            continue;
        }
        let start = tail
            .iter()
            .enumerate()
            .skip(at)
            .find(|(_, x)| upper_word(Some(x)) == k)
            .map_or(tail.len(), |(i, _)| i);
        at = start + 1 + t.len();
        match k.as_str() {
            "FROM" => from = Some(expr(t)?),
            _ => target = crate::itab::row_target(tail, start)?.0,
        }
    }
    Ok(TableOp::ReadKey {
        table,
        target,
        key: Vec::new(),
        from: Some(from.ok_or("READ TABLE without FROM")?),
        binary: false,
        using: None,
    })
}

fn collect(rest: &[Token]) -> Result<TableOp, String> {
    let (what, parts) = clauses(rest, &["INTO"]);
    match parts.as_slice() {
        [(_, t)] if t.len() == 1 => Ok(TableOp::Collect {
            what: expr(what)?,
            table: path(t.first())?,
        }),
        _ => Err("COLLECT with additions".into()),
    }
}

fn modify_table(rest: &[Token]) -> Result<TableOp, String> {
    let table = path(rest.get(1))?;
    let (head, parts) = clauses(rest.get(2..).unwrap_or(&[]), &["FROM", "TRANSPORTING"]);
    if !head.is_empty() {
        return Err("MODIFY TABLE".into());
    }
    let mut from = None;
    let mut comps = Vec::new();
    for (k, t) in parts {
        match k.as_str() {
            "FROM" => from = Some(expr(t)?),
            _ => comps = comp_names(t)?,
        }
    }
    Ok(TableOp::ModifyTable {
        table,
        from: from.ok_or("MODIFY TABLE without FROM")?,
        comps,
    })
}

fn modify_comps(rest: &[Token]) -> Result<TableOp, String> {
    let table = path(rest.first())?;
    let (head, parts) = clauses(
        rest.get(1..).unwrap_or(&[]),
        &["FROM", "INDEX", "TRANSPORTING", "WHERE"],
    );
    if !head.is_empty() {
        return Err("MODIFY".into());
    }
    let (mut from, mut index, mut comps, mut cond) = (None, None, Vec::new(), None);
    for (k, t) in parts {
        match k.as_str() {
            "FROM" => from = Some(expr(t)?),
            "INDEX" => index = Some(expr(t)?),
            "TRANSPORTING" => comps = comp_names(t)?,
            _ => cond = Some(parse_full_cond(t).map_err(|u| u.0)?),
        }
    }
    if index.is_some() && cond.is_some() {
        return Err("MODIFY with INDEX and WHERE".into());
    }
    Ok(TableOp::ModifyComps {
        table,
        from: from.ok_or("MODIFY without FROM")?,
        index,
        comps,
        cond,
    })
}

fn describe(rest: &[Token]) -> Result<TableOp, String> {
    if upper_word(rest.first()) != "TABLE" {
        return Err("DESCRIBE FIELD".into());
    }
    let table = path(rest.get(1))?;
    let (head, parts) = clauses(rest.get(2..).unwrap_or(&[]), &["KIND", "LINES", "OCCURS"]);
    if !head.is_empty() {
        return Err("DESCRIBE TABLE".into());
    }
    let (mut kind, mut lines, mut occurs) = (None, None, None);
    let mut declared = Vec::new();
    for (k, t) in parts {
        let p = match t {
            [one] => path(Some(one))?,
            _ => match crate::parser::inline_decl(t) {
                Some((name, used)) if used == t.len() => {
                    declared.push(name.clone());
                    Path {
                        base: name,
                        rest: Vec::new(),
                    }
                }
                _ => return Err(format!("DESCRIBE TABLE … {k}")),
            },
        };
        match k.as_str() {
            "KIND" => kind = Some(p),
            "LINES" => lines = Some(p),
            _ => occurs = Some(p),
        }
    }
    Ok(TableOp::Describe {
        table,
        kind,
        lines,
        occurs,
        declared,
    })
}

fn delete_range(rest: &[Token]) -> Result<TableOp, String> {
    let table = path(rest.first())?;
    let (head, parts) = clauses(rest.get(1..).unwrap_or(&[]), &["FROM", "TO", "WHERE"]);
    if !head.is_empty() {
        return Err("DELETE".into());
    }
    let (mut from, mut to, mut cond) = (None, None, None);
    for (k, t) in parts {
        match k.as_str() {
            "FROM" => from = Some(expr(t)?),
            "TO" => to = Some(expr(t)?),
            _ => cond = Some(parse_full_cond(t).map_err(|u| u.0)?),
        }
    }
    Ok(TableOp::DeleteRange {
        table,
        from,
        to,
        cond,
    })
}

fn delete_table(rest: &[Token]) -> Result<TableOp, String> {
    let table = path(rest.get(1))?;
    let tail = rest.get(2..).unwrap_or(&[]);
    match (
        upper_word(tail.first()).as_str(),
        upper_word(tail.get(1)).as_str(),
    ) {
        ("FROM", _) => Ok(TableOp::DeleteTable {
            table,
            from: Some(expr(&tail[1..])?),
            key: Vec::new(),
        }),
        ("WITH", "TABLE") if upper_word(tail.get(2)) == "KEY" => Ok(TableOp::DeleteTable {
            table,
            from: None,
            key: crate::itab::key_list(tail.get(3..).unwrap_or(&[]))?,
        }),
        _ => Err("DELETE TABLE".into()),
    }
}

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
                        self.rows_moved(&place, || crate::row_refs::removed(len, i));
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
        let v = self.eval(src)?;
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
            self.rows_moved(&place, || crate::row_refs::kept(&flags));
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
        let mut moved: Option<Box<dyn FnOnce() -> crate::row_refs::RowMap>> = None;
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
                        crate::row_refs::inserted(len, k - 1, count)
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
            moved = Some(Box::new(move || crate::row_refs::inserted_at(before, &ats)));
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
                self.rows_moved(&place, || crate::row_refs::inserted(before, a, 1));
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
            Search::Binary(bk) => {
                let (mut lo, mut hi) = (0usize, rows.len());
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    let o = match rows.get(mid) {
                        Some(r) => self.cmp_key(r, &bk)?,
                        None => Ordering::Greater,
                    };
                    if o == Ordering::Less {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                let hit = match rows.get(lo) {
                    Some(r) => self.cmp_key(r, &bk)? == Ordering::Equal,
                    None => false,
                };
                if hit {
                    (Some(lo), 0, lo + 1)
                } else if lo >= rows.len() {
                    (None, 8, rows.len() + 1)
                } else {
                    (None, 4, lo + 1)
                }
            }
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

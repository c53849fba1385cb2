//! Running the string statements: the dispatch over [`TextStmt`], reading operands as
//! characters, storing results, and `CONCATENATE`, `SPLIT`, `SHIFT`.

use super::find_replace::{MATCH_BYTES, occurrences};
use super::{Out, TextStmt};
use crate::interp::tables::sy_set;
use crate::interp::{Exec, Interp};
use abap_data::value::{Type, Value};
use abap_syntax::ast::{Expr, Path};

/// A value's characters and whether it is a fixed-length field (`c n d t`).
fn chars_of(v: &Value) -> Option<(Vec<char>, bool)> {
    match v {
        Value::C(s) | Value::N(s) | Value::D(s) | Value::T(s) => Some((s.chars().collect(), true)),
        Value::Str(s) => Some((s.chars().collect(), false)),
        _ => None,
    }
}

fn trim_end(mut c: Vec<char>) -> Vec<char> {
    while c.last() == Some(&' ') {
        c.pop();
    }
    c
}

/// The type `SPLIT … INTO TABLE DATA(itab)` declares: a standard table of strings with an
/// empty key.
fn string_table() -> Type {
    Type::Table(std::sync::Arc::new(abap_data::value::TableType {
        name: String::new(),
        kind: abap_data::value::TableKind::Standard,
        line: Type::String,
        unique: false,
        key: abap_data::value::TableKey::Empty,
        secondary: Vec::new(),
    }))
}

impl Interp<'_, '_> {
    pub fn exec_text(&mut self, s: &TextStmt) -> Exec<()> {
        match s {
            TextStmt::Concatenate {
                parts,
                lines_of,
                into,
                separated_by,
                respecting_blanks,
            } => self.concatenate(
                parts,
                *lines_of,
                into,
                separated_by.as_ref(),
                *respecting_blanks,
            ),
            TextStmt::Split {
                text,
                at,
                into,
                table,
                declare_table,
            } => {
                if let (Some(t), true) = (table, declare_table) {
                    self.declare_inline(&t.base, string_table());
                }
                self.split(text, at, into, table.as_ref())
            }
            TextStmt::Condense { target, no_gaps } => {
                let (chars, _) = self.text_of_path(target)?;
                let text: String = chars.into_iter().collect();
                let out = if *no_gaps {
                    text.chars().filter(|c| *c != ' ').collect()
                } else {
                    text.split(' ')
                        .filter(|w| !w.is_empty())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                self.assign_value(target, Value::Str(out.into()))
            }
            TextStmt::Translate {
                target,
                upper: case,
                mask,
            } => {
                let (chars, _) = self.text_of_path(target)?;
                let out: String = match (case, mask) {
                    (Some(true), _) => {
                        abap_data::char_case::upper_str(&chars.iter().collect::<String>())
                    }
                    (Some(false), _) => {
                        abap_data::char_case::lower_str(&chars.iter().collect::<String>())
                    }
                    (None, Some(m)) => {
                        let (mask, _) = self.text_of_expr(m)?;
                        let pairs: Vec<(char, char)> = mask
                            .chunks(2)
                            .filter_map(|p| match p {
                                [a, b] => Some((*a, *b)),
                                _ => None,
                            })
                            .collect();
                        chars
                            .iter()
                            .map(|c| {
                                pairs
                                    .iter()
                                    .find(|(from, _)| from == c)
                                    .map_or(*c, |(_, to)| *to)
                            })
                            .collect()
                    }
                    (None, None) => return Err(self.not_supported("TRANSLATE")),
                };
                self.assign_value(target, Value::Str(out.into()))
            }
            TextStmt::Shift {
                target,
                right,
                circular,
                by,
                up_to,
                deleting,
            } => self.shift(
                target,
                *right,
                *circular,
                by.as_ref(),
                up_to.as_ref(),
                deleting.as_ref(),
            ),
            TextStmt::Find {
                search,
                text,
                count,
                offset,
                length,
                submatches,
                results,
            } => {
                let as_rows = search.all && results.is_some();
                let hits = self.find(search, text, [count, offset, length], submatches, as_rows)?;
                match results {
                    Some(out) => self.store_match_results(out, search.all, &[(0, hits)]),
                    None => Ok(()),
                }
            }
            TextStmt::Replace {
                search,
                target,
                with,
                count,
                offset,
                length,
                results,
            } => {
                let as_rows = search.all && results.is_some();
                let done = self.replace(search, target, with, [count, offset, length], as_rows)?;
                match results {
                    Some(out) => self.store_repl_results(out, search.all, &[(0, done)]),
                    None => Ok(()),
                }
            }
            TextStmt::FindInTable {
                search,
                table,
                results,
                submatches,
                result_tab,
            } => self.find_in_table(search, table, results, submatches, result_tab.as_ref()),
            TextStmt::ReplaceInTable {
                search,
                table,
                with,
                results,
                result_tab,
            } => self.replace_in_table(search, table, with, results, result_tab.as_ref()),
            TextStmt::ReplaceSection {
                target,
                offset,
                length,
                with,
            } => {
                let (chars, _) = self.text_of_path(target)?;
                let (off, len) =
                    self.section_bounds(chars.len(), offset.as_ref(), length.as_ref())?;
                let (new, _) = self.text_of_expr(with)?;
                let mut out: Vec<char> = chars.get(..off).unwrap_or(&[]).to_vec();
                out.extend(trim_end(new));
                out.extend(chars.get(off + len..).unwrap_or(&[]));
                let cut = self.store_text(target, out)?;
                sy_set(self, "SUBRC", if cut { 2 } else { 0 });
                Ok(())
            }
            TextStmt::Search { text, pattern } => self.search(text, pattern),
            TextStmt::WriteTo(w) => self.exec_write_to(w),
            TextStmt::Overlay { target, with, mask } => {
                let (mut chars, _) = self.text_of_path(target)?;
                let (with, _) = self.text_of_expr(with)?;
                let mask = match mask {
                    Some(m) => self.text_of_expr(m)?.0,
                    None => vec![' '],
                };
                let mut changed = false;
                for (i, c) in chars.iter_mut().enumerate() {
                    if mask.contains(c)
                        && let Some(w) = with.get(i)
                    {
                        *c = *w;
                        changed = true;
                    }
                }
                self.assign_value(target, Value::Str(chars.into_iter().collect()))?;
                sy_set(self, "SUBRC", if changed { 0 } else { 4 });
                Ok(())
            }
        }
    }

    /// An operand's characters and whether it has a fixed length.
    pub(crate) fn text_of_expr(&mut self, e: &Expr) -> Exec<(Vec<char>, bool)> {
        let v = self.eval(e)?;
        self.text_of_value(&v)
    }

    pub(crate) fn text_of_value(&self, v: &Value) -> Exec<(Vec<char>, bool)> {
        match chars_of(v) {
            Some(t) => Ok(t),
            None => {
                let s = v.to_abap_string().map_err(|e| self.conv_error(e))?;
                Ok((s.chars().collect(), false))
            }
        }
    }

    pub(super) fn text_of_path(&mut self, p: &Path) -> Exec<(Vec<char>, bool)> {
        let v = self.read(p)?;
        match chars_of(&v) {
            Some(t) => Ok(t),
            None => Err(self.not_supported("string statement on a non-character field")),
        }
    }

    /// The operand's content: without trailing blanks for fixed-length fields.
    pub(crate) fn content_of(&mut self, e: &Expr) -> Exec<Vec<char>> {
        let (chars, fixed) = self.text_of_expr(e)?;
        Ok(if fixed { trim_end(chars) } else { chars })
    }

    /// Stores a text into a data object; true when a fixed-length target cut off characters
    /// other than trailing blanks.
    pub(super) fn store_text(&mut self, target: &Path, text: Vec<char>) -> Exec<bool> {
        let ty = self.target_type_of(target)?;
        let cut = match ty {
            Type::C(n) => trim_end(text.clone()).len() > n as usize,
            _ => false,
        };
        self.assign_value(target, Value::Str(text.into_iter().collect()))?;
        Ok(cut)
    }

    pub(crate) fn store_out(&mut self, out: &Out, v: Value, decl: Type) -> Exec<()> {
        match out {
            Out::Path(p) => self.assign_value(p, v),
            Out::Decl(name) => {
                self.declare_inline(name, decl);
                self.assign_value(
                    &Path {
                        base: name.clone(),
                        rest: Vec::new(),
                    },
                    v,
                )
            }
        }
    }

    fn concatenate(
        &mut self,
        parts: &[Expr],
        lines_of: bool,
        into: &Out,
        sep: Option<&Expr>,
        respecting_blanks: bool,
    ) -> Exec<()> {
        let values: Vec<Value> = if lines_of {
            let table = parts
                .first()
                .map(|e| self.eval(e))
                .transpose()?
                .unwrap_or(Value::I(0));
            match table {
                Value::Table(_, rows) => *rows,
                _ => return Err(self.not_supported("CONCATENATE LINES OF a non-table")),
            }
        } else {
            let mut v = Vec::new();
            for p in parts {
                v.push(self.eval(p)?);
            }
            v
        };
        // A separator keeps its trailing blanks (`SEPARATED BY space` puts one blank).
        let sep: Vec<char> = match sep {
            Some(e) => self.text_of_expr(e)?.0,
            None => Vec::new(),
        };
        let mut out: Vec<char> = Vec::new();
        for (i, v) in values.iter().enumerate() {
            let (chars, fixed) = self.text_of_value(v)?;
            self.room_for_text(out.len() + sep.len() + chars.len())?;
            if i > 0 {
                out.extend(&sep);
            }
            out.extend(if fixed && !respecting_blanks {
                trim_end(chars)
            } else {
                chars
            });
        }
        let cut = match into {
            Out::Path(p) => self.store_text(p, out)?,
            Out::Decl(_) => {
                self.store_out(into, Value::Str(out.into_iter().collect()), Type::String)?;
                false
            }
        };
        sy_set(self, "SUBRC", if cut { 4 } else { 0 });
        Ok(())
    }

    fn split(&mut self, text: &Expr, at: &Expr, into: &[Out], table: Option<&Path>) -> Exec<()> {
        let text = self.content_of(text)?;
        let sep = self.text_of_expr(at)?.0;
        let mut segments: Vec<Vec<char>> = Vec::new();
        if !text.is_empty() {
            if sep.is_empty() {
                segments.push(text.clone());
            } else {
                let mut start = 0;
                let cap = self.match_cap(MATCH_BYTES);
                let found = occurrences(&text, &sep, false, true, cap);
                if found.len() >= cap {
                    return Err(self.matches_fill_memory(found.len()));
                }
                for pos in found {
                    if table.is_some() {
                        self.room_for(segments.len())?;
                    }
                    segments.push(text.get(start..pos).unwrap_or(&[]).to_vec());
                    start = pos + sep.len();
                }
                // A separator at the very end makes no empty last segment.
                if start < text.len() {
                    segments.push(text.get(start..).unwrap_or(&[]).to_vec());
                }
            }
        }
        let mut cut = false;
        if let Some(table) = table {
            let (place, tt) = self.table_place_mut(table)?;
            let mut rows = Vec::new();
            for seg in segments {
                let v = Value::Str(seg.iter().collect());
                let row = v
                    .convert(&tt.line)
                    .map_err(|e| self.move_error(e, &v, &tt.line))?;
                if let Type::C(n) = tt.line {
                    cut |= seg.len() > n as usize;
                }
                rows.push(row);
            }
            self.room_for(rows.len().saturating_sub(1))?;
            let mut had_rows = false;
            if let Some(Value::Table(_, existing)) = self.st.value_at_mut(&place) {
                had_rows = !existing.is_empty();
                **existing = rows;
            }
            if had_rows {
                // The old rows are gone: references into them follow no row any more.
                self.rows_replaced(&place);
            }
        } else {
            let n = into.len();
            for (i, out) in into.iter().enumerate() {
                let seg: Vec<char> = if i + 1 == n && segments.len() > n {
                    // The last result takes the rest, separators included.
                    let mut rest = Vec::new();
                    for (k, s) in segments.iter().enumerate().skip(i) {
                        if k > i {
                            rest.extend(&sep);
                        }
                        rest.extend(s);
                    }
                    rest
                } else {
                    segments.get(i).cloned().unwrap_or_default()
                };
                match out {
                    Out::Path(p) => cut |= self.store_text(p, seg)?,
                    Out::Decl(_) => {
                        self.store_out(out, Value::Str(seg.into_iter().collect()), Type::String)?
                    }
                }
            }
        }
        sy_set(self, "SUBRC", if cut { 4 } else { 0 });
        Ok(())
    }

    fn shift(
        &mut self,
        target: &Path,
        right: bool,
        circular: bool,
        by: Option<&Expr>,
        up_to: Option<&Expr>,
        deleting: Option<&Expr>,
    ) -> Exec<()> {
        let (chars, fixed) = self.text_of_path(target)?;
        let len = chars.len();
        let places = if let Some(mask) = deleting {
            let mask = self.text_of_expr(mask)?.0;
            if right {
                chars.iter().rev().take_while(|c| mask.contains(c)).count()
            } else {
                chars.iter().take_while(|c| mask.contains(c)).count()
            }
        } else if let Some(sub) = up_to {
            let sub = self.content_of(sub)?;
            match occurrences(&chars, &sub, false, false, 1).first() {
                Some(pos) if right => len.saturating_sub(pos + sub.len()),
                Some(pos) => *pos,
                None => {
                    sy_set(self, "SUBRC", 4);
                    return Ok(());
                }
            }
        } else if let Some(n) = by {
            let n = self.int(n)?;
            usize::try_from(n).unwrap_or(0)
        } else {
            1
        };
        let out: Vec<char> = if circular {
            let k = if len == 0 { 0 } else { places % len };
            let mut v = chars.clone();
            if right {
                v.rotate_right(k);
            } else {
                v.rotate_left(k);
            }
            v
        } else if right {
            if !fixed {
                self.room_for_text(len.saturating_add(places))?;
            }
            let mut v = vec![' '; if fixed { places.min(len) } else { places }];
            // A fixed-length field keeps its length: characters fall off at the right end; a
            // string grows.
            let keep = if fixed {
                len.saturating_sub(places)
            } else {
                len
            };
            v.extend(chars.get(..keep).unwrap_or(&[]));
            if deleting.is_some() && !fixed {
                // Deleting trailing characters of a string keeps its length.
                v.truncate(len);
            }
            v
        } else {
            let mut v: Vec<char> = chars.get(places.min(len)..).unwrap_or(&[]).to_vec();
            if fixed {
                v.resize(len, ' ');
            }
            v
        };
        self.assign_value(target, Value::Str(out.into_iter().collect()))?;
        if up_to.is_some() {
            sy_set(self, "SUBRC", 0);
        }
        Ok(())
    }
}

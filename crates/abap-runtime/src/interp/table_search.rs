//! `FIND … IN TABLE itab` and `REPLACE … IN TABLE itab`: the search of `FIND`/`REPLACE` run
//! over the rows of a table of character-like lines (parsed in
//! `parser/text.rs`).
//!
//! ABAP rules: rows are searched in order; `FIRST OCCURRENCE` stops at the first match,
//! `ALL OCCURRENCES` finds every match of every row. `MATCH|REPLACEMENT COUNT` is the number
//! of matches, `… LINE` the row (1-based) of the last one, `… OFFSET`/`… LENGTH` its place in
//! that row (after the replacement for `REPLACE`). `sy-subrc` is 0 when something was found
//! (`REPLACE`: 2 when a replaced row did not fit its `c` line), 4 otherwise.

use crate::interp::tables::sy_set;
use crate::interp::text::Hit;
use crate::interp::{Exec, Interp};
use abap_data::value::{Type, Value};
use abap_syntax::ast::Path;
use abap_syntax::ast::{Out, Search};

fn as_i32(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The last match: row (0-based), offset and length.
type Last = Option<(usize, usize, usize)>;

impl Interp<'_, '_> {
    /// The rows of `table` (character-like lines only).
    fn searchable_rows(&mut self, table: &Path, what: &str) -> Exec<Vec<Value>> {
        let Value::Table(tt, rows) = self.read(table)? else {
            return Err(self.not_supported(&format!("{what} IN TABLE of a non-table")));
        };
        if !matches!(
            tt.line,
            Type::C(_) | Type::String | Type::N(_) | Type::D | Type::T
        ) {
            return Err(self.not_supported(&format!(
                "{what} IN TABLE with lines that are not character-like"
            )));
        }
        Ok(*rows)
    }

    /// Stores `COUNT`, `LINE`, `OFFSET`, `LENGTH` (an unfound match leaves the last three
    /// alone; inline ones are declared).
    fn store_table_results(
        &mut self,
        results: &[Option<Out>; 4],
        count: usize,
        last: Last,
    ) -> Exec<()> {
        let [count_out, line_out, offset_out, length_out] = results;
        if let Some(out) = count_out {
            self.store_out(out, Value::I(as_i32(count)), Type::I)?;
        }
        let values = last.map(|(row, off, len)| [row + 1, off, len]);
        for (i, out) in [line_out, offset_out, length_out].into_iter().enumerate() {
            match (out, values.and_then(|v| v.get(i).copied())) {
                (Some(out), Some(v)) => self.store_out(out, Value::I(as_i32(v)), Type::I)?,
                (Some(Out::Decl(name)), None) => self.declare_inline(name, Type::I),
                _ => {}
            }
        }
        Ok(())
    }

    pub fn find_in_table(
        &mut self,
        search: &Search,
        table: &Path,
        results: &[Option<Out>; 4],
        submatches: &[Out],
        result_tab: Option<&Out>,
    ) -> Exec<()> {
        let rows = self.searchable_rows(table, "FIND")?;
        let mut count = 0;
        let mut all_hits: Vec<(usize, Vec<Hit>)> = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let (hay, _) = self.text_of_value(row)?;
            let hits = self.locate(search, &hay, "FIND", search.all && result_tab.is_some())?;
            count += hits.len();
            if !hits.is_empty() {
                all_hits.push((i + 1, hits));
                if !search.all {
                    break;
                }
            }
        }
        if let Some(out) = result_tab {
            self.store_match_results(out, search.all, &all_hits)?;
        }
        let last = all_hits
            .last()
            .and_then(|(line, hits)| hits.last().map(|h| (line - 1, h)));
        let place = last.as_ref().map(|(i, h)| (*i, h.pos, h.len));
        self.store_table_results(results, count, place)?;
        if let Some((_, hit)) = &last {
            for (i, out) in submatches.iter().enumerate() {
                let group = hit.groups.get(i + 1).cloned().flatten().unwrap_or_default();
                self.store_out(out, Value::Str(group.into()), Type::String)?;
            }
        }
        sy_set(self, "SUBRC", if last.is_some() { 0 } else { 4 });
        Ok(())
    }

    pub fn replace_in_table(
        &mut self,
        search: &Search,
        table: &Path,
        with: &abap_syntax::ast::Expr,
        results: &[Option<Out>; 4],
        result_tab: Option<&Out>,
    ) -> Exec<()> {
        let new = self.content_of(with)?;
        let replacement: String = new.iter().collect();
        let rows = self.searchable_rows(table, "REPLACE")?;
        let (place, tt) = self.table_place_mut(table)?;
        let mut new_rows = rows.clone();
        let mut count = 0;
        let mut last: Last = None;
        let mut cut = false;
        let mut done: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            // `c` lines are searched with their trailing blanks, as `REPLACE … IN dobj` does.
            let (hay, _) = self.text_of_value(row)?;
            let hits = self.locate(search, &hay, "REPLACE", search.all && result_tab.is_some())?;
            if hits.is_empty() {
                continue;
            }
            count += hits.len();
            let mut out: Vec<char> = Vec::new();
            let mut start = 0;
            let mut row_done = Vec::with_capacity(hits.len());
            for hit in &hits {
                out.extend(hay.get(start..hit.pos).unwrap_or(&[]));
                let at = out.len();
                let text = self.replacement_for(search, &replacement, &new, hit, at)?;
                last = Some((i, at, text.len()));
                row_done.push((at, text.len()));
                out.extend(text);
                start = hit.pos + hit.len;
            }
            out.extend(hay.get(start..).unwrap_or(&[]));
            done.push((i + 1, row_done));
            if let Type::C(n) = tt.line {
                let kept = out.iter().rposition(|c| *c != ' ').map_or(0, |e| e + 1);
                cut |= kept > n as usize;
            }
            let v = Value::Str(out.into_iter().collect());
            let converted = v
                .convert(&tt.line)
                .map_err(|e| self.move_error(e, &v, &tt.line))?;
            if let Some(slot) = new_rows.get_mut(i) {
                *slot = converted;
            }
            if !search.all {
                break;
            }
        }
        if let Some(Value::Table(_, existing)) = self.st.value_at_mut(&place) {
            **existing = new_rows;
        }
        self.store_table_results(results, count, last)?;
        if let Some(out) = result_tab {
            self.store_repl_results(out, search.all, &done)?;
        }
        let rc = match (last.is_some(), cut) {
            (false, _) => 4,
            (true, true) => 2,
            (true, false) => 0,
        };
        sy_set(self, "SUBRC", rc);
        Ok(())
    }
}

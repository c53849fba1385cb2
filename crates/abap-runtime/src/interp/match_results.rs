//! `FIND … RESULTS result_tab|result_wa`: the dictionary types `MATCH_RESULT`,
//! `MATCH_RESULT_TAB`, `SUBMATCH_RESULT`, `SUBMATCH_RESULT_TAB` and the filling of them;
//! `REPLACE … RESULTS` with `REPL_RESULT`/`REPL_RESULT_TAB` (`LINE`, `OFFSET` and `LENGTH` of
//! each replacement in the changed text).
//!
//! A `MATCH_RESULT` holds `LINE` (the table row, 0 outside `IN TABLE`), `OFFSET`, `LENGTH`
//! and `SUBMATCHES` (one `OFFSET`/`LENGTH` row per group of a regular expression; a group
//! that took no part has offset -1 and length 0). `ALL OCCURRENCES` fills a table of them,
//! `FIRST OCCURRENCE` one structure; `RESULTS DATA(x)` declares the matching type.

use crate::interp::text::Hit;
use crate::interp::{Exec, Interp};
use abap_data::ddic::{ddic_type, match_result, repl_result, submatch_result, table_of};
use abap_data::value::{Type, Value};
use abap_syntax::ast::Out;

fn int(n: usize) -> Value {
    Value::I(i32::try_from(n).unwrap_or(i32::MAX))
}

/// One `MATCH_RESULT` value.
fn result_value(line: usize, hit: &Hit) -> Value {
    let sub = submatch_result();
    let subs: Vec<Value> = hit
        .spans
        .iter()
        .map(|s| {
            let (off, len) = match s {
                Some((o, l)) => (int(*o), int(*l)),
                None => (Value::I(-1), Value::I(0)),
            };
            Value::Struct(sub.clone(), vec![off, len].into())
        })
        .collect();
    let sub_tab = match table_of("SUBMATCH_RESULT_TAB", Type::Struct(sub)) {
        Type::Table(t) => Value::Table(t, subs.into()),
        other => other.initial(),
    };
    Value::Struct(
        match_result(),
        vec![int(line), int(hit.pos), int(hit.len), sub_tab].into(),
    )
}

/// `MATCH_RESULT` rows (line 0) of matches in one text.
pub fn result_rows(hits: &[Hit]) -> Vec<Value> {
    hits.iter().map(|h| result_value(0, h)).collect()
}

impl Interp<'_, '_> {
    /// Can a table of result rows have `n` rows (`Limits::table_rows`)? Asked before the
    /// rows are built.
    pub(crate) fn room_for_rows(&self, n: usize) -> Exec<()> {
        match n.checked_sub(1) {
            Some(before_last) => self.room_for(before_last),
            None => Ok(()),
        }
    }

    /// Stores the matches (`(line, hits)` per searched row) into a `RESULTS` target: a table
    /// for `ALL OCCURRENCES`, the first match for `FIRST OCCURRENCE` (left alone when there is
    /// none).
    pub fn store_match_results(
        &mut self,
        out: &Out,
        all: bool,
        hits: &[(usize, Vec<Hit>)],
    ) -> Exec<()> {
        if all {
            self.room_for_rows(hits.iter().map(|(_, hs)| hs.len()).sum())?;
        }
        let mut values = hits
            .iter()
            .flat_map(|(line, hs)| hs.iter().map(move |h| result_value(*line, h)));
        if all {
            let ty = match ddic_type("MATCH_RESULT_TAB") {
                Some(t) => t,
                None => return Err(self.not_supported("RESULTS")),
            };
            let rows: Vec<Value> = values.collect();
            let Type::Table(tt) = &ty else {
                return Err(self.not_supported("RESULTS"));
            };
            return self.store_out(out, Value::Table(tt.clone(), rows.into()), ty);
        }
        let ty = Type::Struct(match_result());
        match values.next() {
            Some(v) => self.store_out(out, v, ty),
            None => {
                if let Out::Decl(name) = out {
                    self.declare_inline(name, ty);
                }
                Ok(())
            }
        }
    }

    /// Stores the replacements (`(line, [(offset, length)])` per changed row) into a
    /// `RESULTS` target: a table for `ALL OCCURRENCES`, the replacement for `FIRST
    /// OCCURRENCE` (left alone when there is none).
    pub fn store_repl_results(
        &mut self,
        out: &Out,
        all: bool,
        done: &[(usize, Vec<(usize, usize)>)],
    ) -> Exec<()> {
        if all {
            self.room_for_rows(done.iter().map(|(_, spans)| spans.len()).sum())?;
        }
        let st = repl_result();
        let mut values = done.iter().flat_map(|(line, spans)| {
            let st = st.clone();
            spans.iter().map(move |(off, len)| {
                Value::Struct(st.clone(), vec![int(*line), int(*off), int(*len)].into())
            })
        });
        if all {
            let ty = table_of("REPL_RESULT_TAB", Type::Struct(st.clone()));
            let Type::Table(tt) = &ty else {
                return Err(self.not_supported("RESULTS"));
            };
            let rows: Vec<Value> = values.collect();
            return self.store_out(out, Value::Table(tt.clone(), rows.into()), ty.clone());
        }
        let ty = Type::Struct(st.clone());
        match values.next() {
            Some(v) => self.store_out(out, v, ty),
            None => {
                if let Out::Decl(name) = out {
                    self.declare_inline(name, ty);
                }
                Ok(())
            }
        }
    }
}

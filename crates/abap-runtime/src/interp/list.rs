//! `WRITE` to the list of a report: `WRITE [AT] [/][pos][(len)] dobj [options]`.
//!
//! ABAP's rules used here (classic lists, `WRITE`): each output takes its output length — the
//! `(len)` written, else the type's (`c`/`n` their length, `string` its characters, `i` 11,
//! `int8` 20, `p` two places per byte plus one for a decimal separator, `d` 10, `t` 8) — and is
//! formatted as `WRITE … TO` formats it. Without a position it follows the previous output of
//! the line after one blank (none after `NO-GAP`); with a position it starts in that column
//! and overwrites what is there. `/` starts a new line first. Colour and other screen options
//! (`COLOR`, `INTENSIFIED`, `INVERSE`, `HOTSPOT`, `INPUT`, `FRAMES`, `QUICKINFO`) do not change
//! the text and are accepted; `FORMAT` (only such options) changes nothing in the text either.
//! Other additions (`UNDER`, `CURRENCY`, `UNIT`, `USING EDIT MASK`, `AS CHECKBOX|ICON|…`) end
//! the run as not supported.

use crate::interp::{Exec, Flow, Interp};
use abap_data::value::Value;
use abap_syntax::ast::ListWrite;

/// The output length of `v` when `WRITE` gives none.
fn output_length(v: &Value) -> usize {
    match v {
        Value::C(s) | Value::N(s) | Value::Str(s) => s.chars().count(),
        Value::I(_) => 11,
        Value::Int8(_) => 20,
        Value::P { len, dec, .. } => 2 * *len as usize + usize::from(*dec > 0),
        Value::D(_) => 10,
        Value::T(_) => 8,
        Value::F(_) => 24,
        Value::X(b) | Value::XStr(b) => 2 * b.len(),
        Value::DecFloat(_, 16) => 24,
        Value::DecFloat(..) => 46,
        _ => 0,
    }
}

/// `text` cut or padded with blanks to `len` characters.
fn fit(text: &str, len: usize) -> String {
    let mut out: String = text.chars().take(len).collect();
    let n = out.chars().count();
    out.push_str(&" ".repeat(len - n));
    out
}

impl Interp<'_, '_> {
    /// Before the first output of the list's page: the report's `TOP-OF-PAGE` block, once
    /// (the simulator's list has one page and no standard page header).
    pub(crate) fn before_list_output(&mut self) -> Exec<()> {
        if self.st.top_of_page_done {
            return Ok(());
        }
        self.st.top_of_page_done = true;
        let Some(frame) = self.st.frames.last() else {
            return Ok(());
        };
        let classes = self.st.classes;
        let Some(prog) = classes.get(&abap_syntax::parser::program_key(&frame.class.program))
        else {
            return Ok(());
        };
        for imp in prog
            .implementations
            .iter()
            .filter(|m| m.name == "TOP-OF-PAGE")
        {
            self.invoke_impl(prog, None, imp, crate::interp::bound::Bound::default())?;
        }
        Ok(())
    }

    pub fn exec_list_write(&mut self, w: &ListWrite) -> Exec<Flow> {
        self.before_list_output()?;
        if w.newline {
            self.st.flush_line();
            self.st.list_no_gap = false;
        }
        let Some(source) = &w.source else {
            if w.newline && self.st.list_line.is_none() {
                self.st.list_line = Some(String::new());
            }
            return Ok(Flow::Normal);
        };
        let v = self.eval(source)?;
        if matches!(
            v,
            Value::Ref { .. } | Value::DataRef(_) | Value::Struct(..) | Value::Table(..)
        ) {
            return Err(self.not_supported("WRITE of a reference, structure or table"));
        }
        let len = w.len.unwrap_or_else(|| output_length(&v));
        let own_alignment = w.options.justify == abap_syntax::ast::Justify::Own;
        let text = match &v {
            // Text as it is, leading blanks too.
            Value::C(s) | Value::Str(s) if own_alignment => Some(fit(s, len)),
            _ => self.written_text(&v, len, &w.options)?,
        };
        let text = match text {
            Some(t) => t,
            None => {
                let own = abap_data::conversion::list_text(&v)
                    .ok_or_else(|| self.not_supported("WRITE of this value"))?;
                // Numbers keep their right end (sign column) when cut to a shorter length.
                let count = own.chars().count();
                if count > len && matches!(v, Value::F(_) | Value::DecFloat(..)) {
                    own.chars().skip(count - len).collect()
                } else {
                    fit(&own, len)
                }
            }
        };
        // (`NO-ZERO` of a zero gives no text: the places stay blank.)
        let text = if text.chars().count() < len {
            fit(&text, len)
        } else {
            text
        };
        let mut line: Vec<char> = self
            .st
            .list_line
            .take()
            .unwrap_or_default()
            .chars()
            .collect();
        let start = match w.pos {
            Some(p) => p.saturating_sub(1),
            None if line.is_empty() || self.st.list_no_gap => line.len(),
            None => line.len() + 1,
        };
        if line.len() < start {
            line.resize(start, ' ');
        }
        for (k, c) in text.chars().enumerate() {
            match line.get_mut(start + k) {
                Some(slot) => *slot = c,
                None => line.push(c),
            }
        }
        self.st.list_line = Some(line.into_iter().collect());
        self.st.list_no_gap = w.no_gap;
        Ok(Flow::Normal)
    }
}

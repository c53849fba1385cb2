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

use crate::ast::ListWrite;
use crate::expr::{Unsup, parse_full_expr};
use crate::interp::{Exec, Flow, Interp};
use crate::lexer::upper_word;
use crate::lexer::{Token, TokenKind};
use crate::value::Value;
use crate::write_to::parse_option;

/// The longest list line ABAP allows (`LINE-SIZE` 1023): positions and output lengths beyond
/// it are refused, so a program cannot make the simulator build huge lines.
const MAX_LINE_SIZE: usize = 1023;

/// Screen options that do not change the text, with whether they take an operand
/// (`COLOR col`, `QUICKINFO info`) or an optional `ON`/`OFF`.
const SCREEN_OPTIONS: &[(&str, bool)] = &[
    ("COLOR", true),
    ("QUICKINFO", true),
    ("INTENSIFIED", false),
    ("INVERSE", false),
    ("HOTSPOT", false),
    ("INPUT", false),
    ("FRAMES", false),
    ("RESET", false),
];

/// Skips a screen option at `toks[i]` (`COLOR COL_HEADING [ON|OFF]`, `COLOR = 3`,
/// `INTENSIFIED [ON|OFF]`); the tokens used, 0 if `toks[i]` is none.
fn screen_option(toks: &[Token], i: usize) -> usize {
    let w = upper_word(toks.get(i));
    let Some((_, operand)) = SCREEN_OPTIONS.iter().find(|(o, _)| *o == w) else {
        return 0;
    };
    let mut used = 1;
    if *operand {
        if upper_word(toks.get(i + used)) == "=" {
            used += 1;
        }
        used += 1;
    }
    if matches!(upper_word(toks.get(i + used)).as_str(), "ON" | "OFF") {
        used += 1;
    }
    used
}

/// `FORMAT` with screen options only: the statement changes nothing in the list text.
pub fn is_plain_format(rest: &[Token]) -> bool {
    let mut i = 0;
    while i < rest.len() {
        let used = screen_option(rest, i);
        if used == 0 {
            return false;
        }
        i += used;
    }
    true
}

/// A `/`, `/pos`, `pos` word: (new line, position).
fn position_word(w: &str) -> Option<(bool, Option<usize>)> {
    let (newline, digits) = match w.strip_prefix('/') {
        Some(d) => (true, d),
        None => (false, w),
    };
    if digits.is_empty() {
        return newline.then_some((true, None));
    }
    digits
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| digits.parse().ok().map(|p| (newline, Some(p))))
        .flatten()
}

/// The tokens after `WRITE`.
pub fn parse(rest: &[Token]) -> Result<ListWrite, Unsup> {
    let mut w = ListWrite::default();
    let mut i = usize::from(rest.first().is_some_and(|t| t.is_kw("AT")));
    // `[/][pos]`: a position only when an operand follows (`WRITE 20.` writes 20).
    if let Some((newline, pos)) = rest.get(i).and_then(Token::word).and_then(position_word)
        && (newline || rest.get(i + 1).is_some())
    {
        w.newline = newline;
        w.pos = pos;
        i += 1;
    }
    // `(len)` glued to the position (or to `/`).
    if i > 0
        && let [open, n, close, ..] = rest.get(i..).unwrap_or(&[])
        && open.kind == TokenKind::LParen
        && !open.space_before
        && close.kind == TokenKind::RParen
    {
        let len = upper_word(Some(n));
        w.len = Some(
            len.parse()
                .map_err(|_| Unsup(format!("WRITE with output length ({len})")))?,
        );
        i += 3;
    }
    let toks = rest.get(i..).unwrap_or(&[]);
    // The operand runs to the first option.
    let end = (0..toks.len())
        .find(|&k| {
            let t = &toks[k];
            let w = upper_word(Some(t));
            k > 0
                && t.space_before
                && (screen_option(toks, k) > 0
                    || matches!(
                        w.as_str(),
                        "NO-GAP"
                            | "LEFT-JUSTIFIED"
                            | "RIGHT-JUSTIFIED"
                            | "CENTERED"
                            | "NO-GROUPING"
                            | "NO-SIGN"
                            | "NO-ZERO"
                            | "DECIMALS"
                            | "UNDER"
                            | "CURRENCY"
                            | "UNIT"
                            | "USING"
                            | "AS"
                            | "ROUND"
                            | "EXPONENT"
                            | "TIME"
                            | "ENVIRONMENT"
                    )
                    || w.contains("DD/")
                    || w.contains("MM/")
                    || matches!(w.as_str(), "DDMMYY" | "MMDDYY" | "YYMMDD"))
        })
        .unwrap_or(toks.len());
    if end > 0 {
        w.source = Some(parse_full_expr(toks.get(..end).unwrap_or(&[]))?);
    }
    let opts = toks.get(end..).unwrap_or(&[]);
    let mut k = 0;
    while k < opts.len() {
        let skipped = screen_option(opts, k);
        if skipped > 0 {
            k += skipped;
            continue;
        }
        let name = upper_word(opts.get(k));
        k += 1;
        if name == "NO-GAP" {
            w.no_gap = true;
            continue;
        }
        let mut it = opts.get(k..).unwrap_or(&[]).iter();
        let before = it.len();
        if !parse_option(&name, &mut it, &mut w.options)? {
            return Err(Unsup(format!("WRITE with {name}")));
        }
        k += before - it.len();
    }
    if w.source.is_none() && (w.pos.is_some() || w.len.is_some()) {
        return Err(Unsup("WRITE without an operand".into()));
    }
    if w.pos.is_some_and(|p| p > MAX_LINE_SIZE) || w.len.is_some_and(|l| l > MAX_LINE_SIZE) {
        return Err(Unsup(format!(
            "WRITE beyond the line size of {MAX_LINE_SIZE}"
        )));
    }
    Ok(w)
}

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
        let Some(prog) = classes.get(&crate::parser::program_key(&frame.class.program)) else {
            return Ok(());
        };
        for imp in prog
            .implementations
            .iter()
            .filter(|m| m.name == "TOP-OF-PAGE")
        {
            self.invoke_impl(prog, None, imp, crate::interp::Bound::default())?;
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
        let own_alignment = w.options.justify == crate::ast::Justify::Own;
        let text = match &v {
            // Text as it is, leading blanks too.
            Value::C(s) | Value::Str(s) if own_alignment => Some(fit(s, len)),
            _ => self.written_text(&v, len, &w.options)?,
        };
        let text = match text {
            Some(t) => t,
            None => {
                let own = crate::conversion::list_text(&v)
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

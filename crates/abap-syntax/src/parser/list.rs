//! Parsing `WRITE` to a report's list (positions, lengths, formatting options).

use crate::ast::ListWrite;
use crate::lexer::Token;
use crate::lexer::TokenKind;
use crate::lexer::upper_word;
use crate::parser::expr::parse_full_expr;
use crate::parser::words::Unsup;
use crate::parser::write_to::parse_option;
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

/// The longest list line ABAP allows (`LINE-SIZE` 1023): positions and output lengths beyond
/// it are refused, so a program cannot make the simulator build huge lines.
const MAX_LINE_SIZE: usize = 1023;

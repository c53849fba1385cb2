//! Parsing `WRITE source TO destination` and its formatting options.

use crate::ast::Justify;
use crate::ast::WriteOptions;
use crate::ast::WriteTo;
use crate::lexer::Token;
use crate::parser::expr::parse_full_expr;
use crate::parser::words::Unsup;
use crate::parser::words::parse_path;
/// Is this `WRITE` the `TO` form (a `TO` after the source)?
pub fn is_write_to(rest: &[Token]) -> bool {
    rest.iter().skip(1).any(|t| t.is_kw("TO"))
        && !rest
            .first()
            .is_some_and(|t| t.is_kw("AT") || t.word() == Some("/"))
}

pub fn parse(rest: &[Token]) -> Result<WriteTo, Unsup> {
    let Some(to) = rest.iter().position(|t| t.is_kw("TO")).filter(|i| *i > 0) else {
        return Err(Unsup("WRITE … TO".into()));
    };
    let source = parse_full_expr(rest.get(..to).unwrap_or(&[]))?;
    let target = rest
        .get(to + 1)
        .and_then(Token::word)
        .and_then(parse_path)
        .ok_or_else(|| Unsup("WRITE … TO target".into()))?;
    let mut options = WriteOptions::default();
    let mut opts = rest.get(to + 2..).unwrap_or(&[]).iter();
    while let Some(t) = opts.next() {
        let w = t.word().map(str::to_ascii_uppercase).unwrap_or_default();
        if !parse_option(&w, &mut opts, &mut options)? {
            return Err(Unsup(format!("WRITE … TO with {w}")));
        }
    }
    Ok(WriteTo {
        source,
        target,
        options,
    })
}

/// A formatting option of `WRITE` (`w`, upper case; its operand, if any, from `rest`) into
/// `options`. False: no such option.
pub fn parse_option(
    w: &str,
    rest: &mut std::slice::Iter<'_, Token>,
    options: &mut WriteOptions,
) -> Result<bool, Unsup> {
    match w {
        "LEFT-JUSTIFIED" => options.justify = Justify::Left,
        "RIGHT-JUSTIFIED" => options.justify = Justify::Right,
        "CENTERED" => options.justify = Justify::Centered,
        "NO-GROUPING" => options.no_grouping = true,
        "NO-SIGN" => options.no_sign = true,
        "NO-ZERO" => options.no_zero = true,
        "DECIMALS" => {
            let Some(n) = rest.next() else {
                return Err(Unsup("WRITE … DECIMALS without a value".into()));
            };
            options.decimals = Some(parse_full_expr(std::slice::from_ref(n))?);
        }
        m => match DATE_MASKS.iter().find(|d| **d == m) {
            Some(d) => options.date_mask = Some(d),
            None => return Ok(false),
        },
    }
    Ok(true)
}

/// The date masks of `WRITE`.
const DATE_MASKS: &[&str] = &[
    "DD/MM/YY",
    "MM/DD/YY",
    "DD/MM/YYYY",
    "MM/DD/YYYY",
    "DDMMYY",
    "MMDDYY",
    "YYMMDD",
];

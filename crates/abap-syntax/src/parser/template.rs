//! Parsing the formatting options of an embedded expression in a string template.

use crate::ast::OptionValue;
use crate::ast::TemplateOption;
use crate::lexer::Token;
use crate::lexer::TokenKind;
use crate::parser::cursor::Cursor;
use crate::parser::words::Unsup;
use crate::parser::words::describe;
/// The options the simulator formats, each with the keywords it accepts as values; an empty
/// list means the value is an operand (`WIDTH = 10`, `PAD = '0'`, `DECIMALS = lv_dec`).
pub const OPTIONS: &[(&str, &[&str])] = &[
    ("DATE", &["RAW", "ISO", "USER", "ENVIRONMENT"]),
    ("TIME", &["RAW", "ISO", "USER", "ENVIRONMENT"]),
    ("TIMESTAMP", &["SPACE", "ISO", "USER", "ENVIRONMENT"]),
    ("STYLE", &["SIMPLE", "SCIENTIFIC", "SCALE_PRESERVING"]),
    ("WIDTH", &[]),
    ("PAD", &[]),
    ("DECIMALS", &[]),
    ("ALIGN", &["LEFT", "RIGHT", "CENTER"]),
    ("CASE", &["RAW", "UPPER", "LOWER"]),
    (
        "SIGN",
        &[
            "LEFT",
            "LEFTPLUS",
            "LEFTSPACE",
            "RIGHT",
            "RIGHTPLUS",
            "RIGHTSPACE",
        ],
    ),
    ("ALPHA", &["IN", "OUT", "RAW"]),
    ("NUMBER", &["RAW", "USER", "ENVIRONMENT"]),
    ("ZERO", &["YES", "NO"]),
    ("XSD", &["YES", "NO"]),
];

/// The options after the embedded expression: `NAME = value …`.
pub fn parse_options(toks: &[Token]) -> Result<Vec<TemplateOption>, Unsup> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(t) = toks.get(i) {
        let name = t.word().map(str::to_ascii_uppercase).unwrap_or_default();
        let Some((_, keywords)) = OPTIONS.iter().find(|(n, _)| *n == name) else {
            return Err(Unsup(format!(
                "string template format option {}",
                describe(t)
            )));
        };
        if toks.get(i + 1).and_then(Token::word) != Some("=") {
            return Err(Unsup(format!("string template format option {name}")));
        }
        let Some(v) = toks.get(i + 2) else {
            return Err(Unsup(format!(
                "string template format option {name} without value"
            )));
        };
        let word = v.word().map(str::to_ascii_uppercase);
        let (value, used) = match (&v.kind, word) {
            _ if keywords.is_empty() => {
                // An operand: a literal, a data object or an expression.
                let rest = toks.get(i + 2..).unwrap_or(&[]);
                let mut p = Cursor::new(rest);
                let e = p.expr()?;
                (OptionValue::Operand(e), p.position())
            }
            (TokenKind::Word(_), Some(w)) if keywords.contains(&w.as_str()) => {
                (OptionValue::Keyword(w), 1)
            }
            (TokenKind::LParen, _) => {
                // `( dobj )`: the value is computed at run time.
                let close = toks[i + 2..]
                    .iter()
                    .position(|t| t.kind == TokenKind::RParen)
                    .ok_or_else(|| Unsup("missing )".into()))?;
                let inner = &toks[i + 3..i + 2 + close];
                let mut p = Cursor::new(inner);
                let e = p.expr()?;
                p.expect_end()?;
                (OptionValue::Operand(e), close + 1)
            }
            _ => {
                return Err(Unsup(format!(
                    "string template format option {name} = {}",
                    describe(v)
                )));
            }
        };
        out.push(TemplateOption { name, value });
        i += 2 + used;
    }
    Ok(out)
}

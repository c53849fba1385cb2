//! Formatting options of embedded expressions in string templates (`|{ d DATE = ISO }|`):
//! parsing `NAME = value` pairs after the expression and applying them to the value's text.
//!
//! Each option is one entry of [`OPTIONS`] and one arm of [`Interp::format_embedded`]; options
//! not listed there keep the embedded expression outside the subset.

use crate::ast::Expr;
use crate::expr::{ExprParser, Unsup, describe};
use crate::float::{decfloat_text, f_to_string};
use crate::interp::{Exec, Interp};
use crate::lexer::{Token, TokenKind};
use crate::value::Value;

/// The options the simulator formats, each with the keywords it accepts as values.
const OPTIONS: &[(&str, &[&str])] = &[
    ("DATE", &["RAW", "ISO", "USER", "ENVIRONMENT"]),
    ("TIME", &["RAW", "ISO", "USER", "ENVIRONMENT"]),
    ("STYLE", &["SIMPLE", "SCIENTIFIC", "SCALE_PRESERVING"]),
];

/// The value of a formatting option: a keyword (`ISO`) or an operand (`(dobj)`, a literal).
#[derive(Debug, Clone)]
pub enum OptionValue {
    Keyword(String),
    Operand(Expr),
}

#[derive(Debug, Clone)]
pub struct TemplateOption {
    /// Upper case (`DATE`).
    pub name: String,
    pub value: OptionValue,
}

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
                let mut p = ExprParser::new(inner);
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

/// `YYYY-MM-DD` style texts of a `d`/`t` value.
fn date_text(raw: &str, style: &str) -> String {
    let part = |a: usize, b: usize| raw.get(a..b).unwrap_or("");
    match style {
        "ISO" => format!("{}-{}-{}", part(0, 4), part(4, 6), part(6, 8)),
        // The simulated user's date format is DD.MM.YYYY (as in the list output).
        "USER" | "ENVIRONMENT" => format!("{}.{}.{}", part(6, 8), part(4, 6), part(0, 4)),
        _ => raw.to_string(),
    }
}

fn time_text(raw: &str, style: &str) -> String {
    let part = |a: usize, b: usize| raw.get(a..b).unwrap_or("");
    match style {
        "ISO" | "USER" | "ENVIRONMENT" => {
            format!("{}:{}:{}", part(0, 2), part(2, 4), part(4, 6))
        }
        _ => raw.to_string(),
    }
}

impl<'r> Interp<'r, '_> {
    /// The keyword an option has at run time (`(dobj)` holds it as text).
    fn option_keyword(&mut self, opt: &TemplateOption) -> Exec<String> {
        match &opt.value {
            OptionValue::Keyword(k) => Ok(k.clone()),
            OptionValue::Operand(e) => {
                let v = self.eval(e)?;
                let text = v.to_abap_string().map_err(|e| self.conv_error(e))?;
                let k = text.trim().to_ascii_uppercase();
                let known = OPTIONS
                    .iter()
                    .find(|(n, _)| *n == opt.name)
                    .is_some_and(|(_, ks)| ks.contains(&k.as_str()));
                if known {
                    Ok(k)
                } else {
                    Err(self.dump(
                        "STRING_FORMAT_OPTION_INVALID",
                        format!("Invalid value \"{text}\" of the format option {}", opt.name),
                    ))
                }
            }
        }
    }

    /// The text of `v` embedded with `opts` (`text` is its predefined format).
    pub fn format_embedded(
        &mut self,
        v: &Value,
        text: String,
        opts: &[TemplateOption],
    ) -> Exec<String> {
        let mut out = text;
        for opt in opts {
            let k = self.option_keyword(opt)?;
            out = match (opt.name.as_str(), v) {
                ("DATE", Value::D(raw)) => date_text(raw, &k),
                ("TIME", Value::T(raw)) => time_text(raw, &k),
                ("STYLE", Value::DecFloat(d, _)) if k == "SCALE_PRESERVING" => decfloat_text(d),
                ("STYLE", Value::F(f)) if k == "SCIENTIFIC" => f_to_string(*f),
                ("STYLE", Value::F(_) | Value::DecFloat(..)) if k == "SIMPLE" => out,
                (name, _) => {
                    return Err(self.not_supported(&format!(
                        "string template format option {name} = {k} for type {}",
                        v.type_of().name()
                    )));
                }
            };
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_and_time_styles() {
        assert_eq!(date_text("20240301", "ISO"), "2024-03-01");
        assert_eq!(date_text("20240301", "USER"), "01.03.2024");
        assert_eq!(date_text("20240301", "RAW"), "20240301");
        assert_eq!(time_text("235930", "ISO"), "23:59:30");
        assert_eq!(time_text("235930", "RAW"), "235930");
    }
}

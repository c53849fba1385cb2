//! Formatting options of embedded expressions in string templates (`|{ d DATE = ISO }|`,
//! `|{ n WIDTH = 8 ALIGN = RIGHT PAD = '0' }|`): parsing `NAME = value` pairs after the
//! expression and applying them to the value's text.
//!
//! ABAP applies the options in a fixed order whatever order they are written in: first the
//! value's own text (`DATE`, `TIME`, `STYLE`, `ALPHA`, `XSD`, or for numbers `DECIMALS`, `NUMBER`,
//! `SIGN`, `ZERO`), then `CASE`, then `WIDTH` with `ALIGN` and `PAD`. Options not listed in
//! [`OPTIONS`] keep the embedded expression outside the subset, and so do the few cases whose
//! ABAP result is not pinned down here (they end the run as "not supported").

use crate::interp::{Exec, Interp};
use abap_data::float::{decfloat_text, f_to_string};
use abap_data::number::Dec;
use abap_data::value::{Type, Value};
use abap_syntax::ast::Expr;
use abap_syntax::ast::{OptionValue, TemplateOption};
use abap_syntax::parser::template::OPTIONS;

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

/// A time stamp (`p` of length 8 without decimals, `yyyymmddhhmmss`) as `TIMESTAMP = style`
/// writes it; `None` for a value that is no such number.
fn timestamp_text(v: &Value, style: &str) -> Option<String> {
    let Value::P { len: 8, dec: 0, .. } = v else {
        return None;
    };
    let digits = v.to_dec().ok()?.format(0);
    if digits.starts_with('-') || digits.len() > 14 {
        return None;
    }
    let raw = format!("{digits:0>14}");
    let (date, time) = raw.split_at(8);
    let time = time_text(time, "ISO");
    Some(match style {
        "ISO" => format!("{}T{time}", date_text(date, "ISO")),
        "USER" | "ENVIRONMENT" => format!("{} {time}", date_text(date, "USER")),
        _ => format!("{} {time}", date_text(date, "ISO")),
    })
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

/// Inserts `,` between groups of three digits of the integer part of a number's text.
///
/// `NUMBER = USER|ENVIRONMENT` follows the user's number format; the simulated user has a
/// fixed one: `,` as thousands separator and `.` as decimal point (`1,234,567.89`).
pub(crate) fn with_thousands(magnitude: &str) -> String {
    let (int, frac) = match magnitude.find('.') {
        Some(p) => magnitude.split_at(p),
        None => (magnitude, ""),
    };
    let digits: Vec<char> = int.chars().collect();
    let mut out = String::new();
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(*c);
    }
    out.push_str(frac);
    out
}

/// The sign placed as `SIGN = style` says (`negative` false for zero and positive values).
fn signed(magnitude: &str, negative: bool, style: &str) -> String {
    match (style, negative) {
        ("LEFT" | "LEFTPLUS" | "LEFTSPACE", true) => format!("-{magnitude}"),
        ("RIGHT" | "RIGHTPLUS" | "RIGHTSPACE", true) => format!("{magnitude}-"),
        ("LEFTPLUS", false) => format!("+{magnitude}"),
        ("LEFTSPACE", false) => format!(" {magnitude}"),
        ("RIGHTPLUS", false) => format!("{magnitude}+"),
        ("RIGHTSPACE", false) => format!("{magnitude} "),
        _ => magnitude.to_string(),
    }
}

/// `text` widened to `width` characters with `pad`, placed as `align` says; `None` for an
/// odd number of pad characters around a centred text (which side gets the extra one is not
/// pinned down here).
fn widened(text: &str, width: usize, align: &str, pad: char) -> Option<String> {
    let n = text.chars().count();
    if n >= width {
        return Some(text.to_string());
    }
    let fill = width - n;
    let padding = |k: usize| std::iter::repeat_n(pad, k).collect::<String>();
    Some(match align {
        "RIGHT" => format!("{}{text}", padding(fill)),
        "CENTER" if fill.is_multiple_of(2) => {
            format!("{}{text}{}", padding(fill / 2), padding(fill / 2))
        }
        "CENTER" => return None,
        _ => format!("{text}{}", padding(fill)),
    })
}

/// The options of one embedded expression, resolved at run time.
#[derive(Default)]
struct Resolved {
    keywords: Vec<(String, String)>,
    width: Option<i64>,
    decimals: Option<i64>,
    pad: Option<char>,
}

impl Resolved {
    fn keyword(&self, name: &str) -> Option<&str> {
        self.keywords
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, k)| k.as_str())
    }
}

fn is_number(v: &Value) -> bool {
    matches!(
        v,
        Value::I(_) | Value::Int8(_) | Value::P { .. } | Value::F(_) | Value::DecFloat(..)
    )
}

impl<'r> Interp<'r, '_> {
    /// A template for which [`is_sole_alpha`] holds, evaluated for a target of type `ty`.
    pub fn sole_alpha_template(&mut self, e: &Expr, ty: &Type) -> Exec<Value> {
        let field_len = match ty {
            Type::C(n) | Type::N(n) => usize::try_from(*n).ok(),
            Type::D => Some(8),
            Type::T => Some(6),
            _ => None,
        };
        let Expr::Template(items) = e else {
            return self.eval(e);
        };
        let [abap_syntax::ast::TemplateItem::Formatted(x, opts)] = items.as_slice() else {
            return self.eval(e);
        };
        let v = self.operand(x)?;
        let Ok(t) = v.template_text() else {
            return Err(self.not_supported("reference in a string template"));
        };
        Ok(Value::Str(
            self.format_embedded(&v, t, opts, field_len)?.into(),
        ))
    }

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

    fn resolve_options(&mut self, opts: &[TemplateOption]) -> Exec<Resolved> {
        let mut r = Resolved::default();
        for opt in opts {
            match (opt.name.as_str(), &opt.value) {
                ("WIDTH" | "DECIMALS", OptionValue::Operand(e)) => {
                    let v = self.eval(e)?;
                    let Value::I(n) = v.convert(&Type::I).map_err(|e| self.conv_error(e))? else {
                        return Err(self.not_supported(&format!("format option {}", opt.name)));
                    };
                    if opt.name == "WIDTH" {
                        r.width = Some(i64::from(n));
                    } else {
                        r.decimals = Some(i64::from(n));
                    }
                }
                ("PAD", OptionValue::Operand(e)) => {
                    let v = self.eval(e)?;
                    let text = v.to_abap_string().map_err(|e| self.conv_error(e))?;
                    // `PAD = ' '` (no character left of a blank `c`) pads with blanks.
                    r.pad = Some(text.chars().next().unwrap_or(' '));
                }
                _ => {
                    let k = self.option_keyword(opt)?;
                    r.keywords.push((opt.name.clone(), k));
                }
            }
        }
        Ok(r)
    }

    /// The text of `v` embedded with `opts` (`text` is its predefined format). `alpha_len`:
    /// the length `ALPHA` gives its result without `WIDTH` when the embedded expression is the
    /// whole template assigned to a `c`/`n`/`d`/`t` field (`None`: the argument's length).
    pub fn format_embedded(
        &mut self,
        v: &Value,
        text: String,
        opts: &[TemplateOption],
        alpha_len: Option<usize>,
    ) -> Exec<String> {
        let r = self.resolve_options(opts)?;
        let unsupported = |this: &Self, what: String| {
            this.not_supported(&format!(
                "string template format option {what} for type {}",
                v.type_of().name()
            ))
        };
        let mut out = text;
        // The value's own text.
        for (name, k) in &r.keywords {
            out = match (name.as_str(), k.as_str(), v) {
                ("DATE", k, Value::D(raw)) => date_text(raw, k),
                ("TIME", k, Value::T(raw)) => time_text(raw, k),
                ("TIMESTAMP", k, v) => match timestamp_text(v, k) {
                    Some(t) => t,
                    None => return Err(unsupported(self, format!("TIMESTAMP = {k}"))),
                },
                ("STYLE", "SCALE_PRESERVING", Value::DecFloat(d, _)) => decfloat_text(d),
                ("STYLE", "SCIENTIFIC", Value::F(f)) => f_to_string(*f),
                ("STYLE", "SIMPLE", Value::F(_) | Value::DecFloat(..)) => out,
                ("ALPHA", k, Value::C(_) | Value::Str(_) | Value::N(_)) => {
                    let width = r.width.and_then(|w| usize::try_from(w).ok());
                    if width.is_some_and(|w| w > self.limits.string_length) {
                        return Err(unsupported(self, "ALPHA with this WIDTH".into()));
                    }
                    match alpha(v, k, width, alpha_len) {
                        Some(t) => t,
                        None => return Err(unsupported(self, format!("ALPHA = {k}"))),
                    }
                }
                ("SIGN" | "NUMBER" | "ZERO", _, v) if is_number(v) => out,
                ("CASE" | "ALIGN", _, _) | ("XSD", "NO", _) => out,
                ("XSD", "YES", v) => match xsd_text(v) {
                    Some(t) => t,
                    None => return Err(unsupported(self, "XSD = YES".into())),
                },
                (name, k, _) => return Err(unsupported(self, format!("{name} = {k}"))),
            };
        }
        if r.decimals.is_some()
            || r.keywords
                .iter()
                .any(|(n, _)| n == "SIGN" || n == "NUMBER" || n == "ZERO")
        {
            out = self.number_text(v, out, &r)?;
        }
        out = match r.keyword("CASE") {
            Some("UPPER") => abap_data::char_case::upper_str(&out),
            Some("LOWER") => abap_data::char_case::lower_str(&out),
            _ => out,
        };
        if let Some(width) = r.width.and_then(|w| usize::try_from(w).ok()) {
            if width > self.limits.string_length {
                return Err(self.dump(
                    "STRING_SIZE_TOO_LARGE",
                    format!("WIDTH = {width} in a string template is too large"),
                ));
            }
            let align = r.keyword("ALIGN").unwrap_or("LEFT");
            out = match widened(&out, width, align, r.pad.unwrap_or(' ')) {
                Some(t) => t,
                None => {
                    return Err(unsupported(
                        self,
                        "ALIGN = CENTER with an odd number of pad characters".into(),
                    ));
                }
            };
        }
        Ok(out)
    }

    /// A number's text under `DECIMALS`, `NUMBER`, `SIGN` and `ZERO`.
    fn number_text(&self, v: &Value, text: String, r: &Resolved) -> Exec<String> {
        let unsupported = |what: &str| {
            self.not_supported(&format!(
                "string template format option {what} for type {}",
                v.type_of().name()
            ))
        };
        let dec = match v {
            Value::I(i) => Some(Dec::int(i128::from(*i))),
            Value::Int8(i) => Some(Dec::int(i128::from(*i))),
            Value::P { m, dec, .. } => Some(Dec {
                m: m.get(),
                scale: *dec,
            }),
            Value::DecFloat(d, _) => Some(**d),
            // With DECIMALS an `f` is written in mathematical notation, rounded from its
            // decimal value to 17 significant digits.
            Value::F(f) if r.decimals.is_some() => Some(
                abap_data::float::f_to_dec(*f)
                    .map_err(|_| unsupported("DECIMALS on this value"))?,
            ),
            Value::F(f) => {
                if *f == 0.0 && r.keyword("ZERO") == Some("NO") {
                    return Ok(String::new());
                }
                None
            }
            _ => return Err(unsupported("DECIMALS")),
        };
        if dec.is_some_and(|d| d.is_zero()) && r.keyword("ZERO") == Some("NO") {
            return Ok(String::new());
        }
        let mut text = text;
        if let (Some(d), Some(places)) = (dec, r.decimals) {
            let places = u32::try_from(places)
                .ok()
                .filter(|p| *p <= 30)
                .ok_or_else(|| unsupported(&format!("DECIMALS = {places}")))?;
            text = d.format(places);
        }
        let (negative, magnitude) = match text.strip_prefix('-') {
            Some(m) => (true, m.to_string()),
            None => (false, text),
        };
        let magnitude = match r.keyword("NUMBER") {
            Some("USER" | "ENVIRONMENT") if magnitude.contains(['E', 'e']) => {
                return Err(unsupported("NUMBER = USER in scientific notation"));
            }
            Some("USER" | "ENVIRONMENT") => with_thousands(&magnitude),
            _ => magnitude,
        };
        let style = r.keyword("SIGN").unwrap_or("LEFT");
        if negative && style == "RIGHTSPACE" {
            // The documentation's table puts the minus sign of RIGHTSPACE on the left; which
            // side a real system uses is not pinned down here.
            return Err(unsupported("SIGN = RIGHTSPACE on a negative number"));
        }
        let zero = dec.map_or(matches!(v, Value::F(f) if *f == 0.0), |d| d.is_zero());
        if zero && matches!(style, "LEFTPLUS" | "RIGHTPLUS") {
            // Whether zero gets a plus sign is not pinned down here.
            return Err(unsupported(&format!("SIGN = {style} on zero")));
        }
        Ok(signed(&magnitude, negative, style))
    }
}

/// `XSD = YES`: the value in the XML schema format of its type, for the types where that
/// is plain (integers and text as they are, dates `2024-03-01`, times `23:59:30`); `None` for
/// the others.
fn xsd_text(v: &Value) -> Option<String> {
    let valid_digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    match v {
        Value::I(i) => Some(i.to_string()),
        Value::Int8(i) => Some(i.to_string()),
        Value::C(_) | Value::Str(_) => v.to_abap_string().ok(),
        Value::D(raw) if valid_digits(raw) && raw.len() == 8 && raw != "00000000" => {
            Some(date_text(raw, "ISO"))
        }
        Value::T(raw) if valid_digits(raw) && raw.len() == 6 => Some(time_text(raw, "ISO")),
        _ => None,
    }
}

/// `ALPHA = IN|OUT|RAW` on character-like text (the conversion exit ALPHA). The result has
/// the field's length (`c`, `n` with their blanks or digits, a `string` its own), or with
/// `WIDTH` the larger of the width and the significant part. `IN` puts a number right-aligned
/// behind zeros, `OUT` drops its leading zeros and pads with blanks; other text stays
/// left-aligned. `None` where the result is not pinned down here (leading blanks before
/// text, an all-zero number to `OUT`).
fn alpha(v: &Value, k: &str, width: Option<usize>, field_len: Option<usize>) -> Option<String> {
    let raw = match v {
        Value::C(s) | Value::Str(s) | Value::N(s) => s.as_str(),
        _ => return None,
    };
    if k == "RAW" {
        return v.template_text().ok();
    }
    let content = raw.trim_matches(' ');
    let digits = !content.is_empty() && content.chars().all(|c| c.is_ascii_digit());
    let significant = if digits {
        content.trim_start_matches('0')
    } else {
        raw.trim_end_matches(' ')
    };
    let n = significant.chars().count();
    let len = match (width, field_len) {
        (Some(w), _) => w.max(n),
        (None, Some(f)) => f,
        (None, None) => raw.chars().count(),
    };
    let text = match k {
        "IN" if digits => format!("{significant:0>len$}"),
        "OUT" if digits && !significant.is_empty() => format!("{significant:<len$}"),
        "IN" | "OUT" if !digits && !raw.starts_with(' ') => format!("{significant:<len$}"),
        _ => return None,
    };
    // Too long for the length: cut off on the right.
    Some(text.chars().take(len).collect())
}

/// A template that is one embedded expression formatted with `ALPHA` and no `WIDTH`: assigned
/// to a `c`/`n`/`d`/`t` field, that field's length is the result's length.
pub fn is_sole_alpha(e: &Expr) -> bool {
    let Expr::Template(items) = e else {
        return false;
    };
    let [abap_syntax::ast::TemplateItem::Formatted(_, opts)] = items.as_slice() else {
        return false;
    };
    opts.iter().any(|o| o.name == "ALPHA") && !opts.iter().any(|o| o.name == "WIDTH")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_signs_and_separators() {
        assert_eq!(widened("ab", 5, "LEFT", ' '), Some("ab   ".into()));
        assert_eq!(widened("ab", 5, "RIGHT", '0'), Some("000ab".into()));
        assert_eq!(widened("ab", 6, "CENTER", '*'), Some("**ab**".into()));
        assert_eq!(widened("ab", 5, "CENTER", '*'), None);
        assert_eq!(widened("abcdef", 3, "RIGHT", ' '), Some("abcdef".into()));
        assert_eq!(with_thousands("1234567.89"), "1,234,567.89");
        assert_eq!(with_thousands("123"), "123");
        assert_eq!(with_thousands("1000"), "1,000");
        assert_eq!(signed("5", true, "RIGHT"), "5-");
        assert_eq!(signed("5", false, "LEFTPLUS"), "+5");
        assert_eq!(signed("5", false, "RIGHTSPACE"), "5 ");
        assert_eq!(
            alpha(&Value::C("4711      ".into()), "IN", None, None),
            Some("0000004711".into())
        );
        assert_eq!(
            alpha(&Value::C("0000004711".into()), "OUT", None, None),
            Some("4711      ".into())
        );
        assert_eq!(
            alpha(&Value::Str("815".into()), "IN", Some(6), None),
            Some("000815".into())
        );
        assert_eq!(
            alpha(&Value::Str("00815".into()), "OUT", Some(2), None),
            Some("815".into())
        );
        assert_eq!(
            alpha(&Value::C("AB12  ".into()), "IN", None, None),
            Some("AB12  ".into())
        );
    }

    #[test]
    fn date_and_time_styles() {
        assert_eq!(date_text("20240301", "ISO"), "2024-03-01");
        assert_eq!(date_text("20240301", "USER"), "01.03.2024");
        assert_eq!(date_text("20240301", "RAW"), "20240301");
        assert_eq!(time_text("235930", "ISO"), "23:59:30");
        assert_eq!(time_text("235930", "RAW"), "235930");
    }
}

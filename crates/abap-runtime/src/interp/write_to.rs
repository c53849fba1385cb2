//! `WRITE source TO destination [options]`: the content of `source` formatted as for list
//! output, with the length of the `c` field `destination` as output length.
//!
//! ABAP rules used here (predefined formats and cutoff behavior of `WRITE`):
//! - Numbers (`i`, `int8`, `p`) are right-aligned with a sign column on the right (`-` or a
//!   blank) and the user's thousands separators when they fit (the simulated user writes
//!   `1,234,567.89`, as `NUMBER = USER` in string templates). Too long: the separators go from
//!   left to right, then the blank sign column, then the number is cut on the left with `*` in
//!   the first place.
//! - Character-like sources are left-aligned and cut on the right; dates are `DD.MM.YYYY`,
//!   times `HH:MM:SS` (the user's formats, as in list output).
//! - `LEFT-JUSTIFIED`, `RIGHT-JUSTIFIED`, `CENTERED`, `NO-GROUPING`, `NO-SIGN`, `NO-ZERO`,
//!   `DECIMALS n` (packed numbers, rounded half away from zero) and the date masks
//!   (`DD/MM/YYYY`, …, where `/` stands for the user's separator `.`) are supported; other
//!   options, other source types, a destination that is no `c` field and dates or times that do
//!   not fit end the run as not supported.

use crate::interp::{Exec, Interp};
use abap_data::number::Dec;
use abap_data::value::{Type, Value};
use abap_syntax::ast::{Justify, WriteOptions, WriteTo};

/// `yyyymmdd` in a date mask; `/` is the user's separator `.`.
fn masked_date(raw: &str, mask: &str) -> String {
    let part = |a: usize, b: usize| raw.get(a..b).unwrap_or("");
    match mask {
        "DD/MM/YY" => format!("{}.{}.{}", part(6, 8), part(4, 6), part(2, 4)),
        "MM/DD/YY" => format!("{}.{}.{}", part(4, 6), part(6, 8), part(2, 4)),
        "DD/MM/YYYY" => format!("{}.{}.{}", part(6, 8), part(4, 6), part(0, 4)),
        "MM/DD/YYYY" => format!("{}.{}.{}", part(4, 6), part(6, 8), part(0, 4)),
        "DDMMYY" => format!("{}{}{}", part(6, 8), part(4, 6), part(2, 4)),
        "MMDDYY" => format!("{}{}{}", part(4, 6), part(6, 8), part(2, 4)),
        _ => format!("{}{}{}", part(2, 4), part(4, 6), part(6, 8)),
    }
}

/// The digits of `|d|` with `decimals` places, grouped by thousands when `group`.
fn number_body(d: &Dec, decimals: u32, group: bool) -> String {
    let text = d.format(decimals);
    let magnitude = text.strip_prefix('-').unwrap_or(&text);
    if group {
        crate::interp::template::with_thousands(magnitude)
    } else {
        magnitude.to_string()
    }
}

/// A number in `len` places, by the cutoff rules.
fn fit_number(body: &str, sign: char, len: usize) -> String {
    let mut body: Vec<char> = body.chars().collect();
    // Thousands separators go from left to right.
    while body.len() + 1 > len {
        match body.iter().position(|c| *c == ',') {
            Some(i) => {
                body.remove(i);
            }
            None => break,
        }
    }
    let mut text: Vec<char> = body;
    if text.len() < len || sign != ' ' {
        text.push(sign);
    }
    if text.len() > len {
        // Cut on the left, `*` in the first place.
        let keep = len.saturating_sub(1);
        let tail: Vec<char> = text.get(text.len() - keep..).unwrap_or(&[]).to_vec();
        text = std::iter::once('*').chain(tail).collect();
        text.truncate(len);
    }
    text.into_iter().collect()
}

/// Places `text` in `len` characters as `justify` says (`numeric` types align right).
fn place(text: &str, len: usize, justify: Justify, numeric: bool) -> String {
    let justify = match justify {
        Justify::Own if numeric => Justify::Right,
        Justify::Own => Justify::Left,
        j => j,
    };
    let content: Vec<char> = if justify == Justify::Left {
        text.trim_start_matches(' ').chars().collect()
    } else {
        text.trim_matches(' ').chars().collect()
    };
    let content: Vec<char> = content.into_iter().take(len).collect();
    let free = len - content.len();
    let left = match justify {
        Justify::Right => free,
        Justify::Centered => free / 2,
        _ => 0,
    };
    let mut out = " ".repeat(left);
    out.extend(content.iter());
    out.push_str(&" ".repeat(free - left));
    out
}

impl Interp<'_, '_> {
    pub fn exec_write_to(&mut self, w: &WriteTo) -> Exec<()> {
        let ty = self.target_type_of(&w.target)?;
        let Type::C(len) = ty else {
            return Err(self.not_supported("WRITE … TO a destination that is no c field"));
        };
        let len = len as usize;
        let v = self.eval(&w.source)?;
        match self.written_text(&v, len, &w.options)? {
            Some(text) => self.assign_value(&w.target, Value::C(text.into())),
            None => Err(self.not_supported(&format!(
                "WRITE … TO of type {} into c length {len}",
                v.type_of().name()
            ))),
        }
    }

    /// `v` formatted by `WRITE` in `len` places with options `o` (`None`: a type whose
    /// formatting the simulator leaves to the caller).
    pub(crate) fn written_text(
        &mut self,
        v: &Value,
        len: usize,
        o: &WriteOptions,
    ) -> Exec<Option<String>> {
        let decimals = match &o.decimals {
            None => None,
            Some(e) => match self.eval(e)?.convert(&Type::I) {
                Ok(Value::I(n)) => u32::try_from(n).ok(),
                _ => None,
            },
        };
        let numeric_decimals = match (v, decimals, &o.decimals) {
            (Value::P { dec, .. }, None, None) => Some(*dec),
            (Value::P { .. }, Some(n), _) if n <= 14 => Some(n),
            (Value::I(_) | Value::Int8(_), None, None)
            | (Value::I(_) | Value::Int8(_), Some(0), _) => Some(0),
            (Value::I(_) | Value::Int8(_) | Value::P { .. }, _, _) => {
                return Err(self.not_supported("WRITE … DECIMALS with this value"));
            }
            _ if o.decimals.is_some() => {
                return Err(self.not_supported("WRITE … DECIMALS of a non-number"));
            }
            _ => None,
        };
        if o.date_mask.is_some() && !matches!(v, Value::D(_)) {
            return Err(self.not_supported("WRITE … with a date mask for a non-date"));
        }
        let text = match v {
            Value::I(_) | Value::Int8(_) | Value::P { .. } => {
                let d = v.to_dec().map_err(|e| self.conv_error(e))?;
                let decimals = numeric_decimals.unwrap_or(0);
                // `DECIMALS` rounds half away from zero.
                let d = Dec {
                    m: d.rescale(decimals)
                        .map_err(|_| self.not_supported("WRITE … DECIMALS beyond the precision"))?,
                    scale: decimals,
                };
                if o.no_zero && d.is_zero() {
                    String::new()
                } else {
                    let sign = if d.m < 0 && !o.no_sign { '-' } else { ' ' };
                    let body = number_body(&d, decimals, !o.no_grouping);
                    let fitted = fit_number(&body, sign, len);
                    match o.justify {
                        // Right-aligned with the sign column as the last place.
                        Justify::Own | Justify::Right => format!("{fitted:>len$}"),
                        j => place(&fitted, len, j, true),
                    }
                }
            }
            Value::C(s) | Value::N(s) | Value::Str(s) => {
                if o.no_zero && matches!(v, Value::N(_)) && s.chars().all(|c| c == '0') {
                    String::new()
                } else {
                    place(s, len, o.justify, false)
                }
            }
            Value::D(s) if o.date_mask.is_some() => {
                let t = masked_date(s, o.date_mask.unwrap_or("DD/MM/YYYY"));
                if t.chars().count() > len {
                    return Err(self.not_supported("WRITE … of a date in fewer places"));
                }
                place(&t, len, o.justify, false)
            }
            Value::D(s) if len >= 10 => place(&masked_date(s, "DD/MM/YYYY"), len, o.justify, false),
            Value::T(s) if len >= 8 => {
                let part = |a: usize, b: usize| s.get(a..b).unwrap_or("");
                let t = format!("{}:{}:{}", part(0, 2), part(2, 4), part(4, 6));
                place(&t, len, o.justify, false)
            }
            _ => return Ok(None),
        };
        Ok(Some(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str, dec: u32, len: usize) -> String {
        let d = Dec::parse(s).unwrap();
        let sign = if d.m < 0 { '-' } else { ' ' };
        format!(
            "{:>len$}",
            fit_number(&number_body(&d, dec, true), sign, len)
        )
    }

    #[test]
    fn numbers_fit_by_the_cutoff_rules() {
        assert_eq!(num("-1234", 0, 40).trim_start(), "1,234-");
        assert_eq!(num("-1234", 0, 40).len(), 40);
        assert_eq!(num("1234567", 0, 11), " 1,234,567 ");
        assert_eq!(num("1234567", 0, 9), "1234,567 ");
        assert_eq!(num("1234567", 0, 8), "1234567 ");
        assert_eq!(num("1234567", 0, 7), "1234567");
        assert_eq!(num("1234567", 0, 5), "*4567");
        assert_eq!(num("-1234567", 0, 7), "*34567-");
        assert_eq!(num("1234.5", 2, 10), " 1,234.50 ");
        assert_eq!(num("0", 0, 3), " 0 ");
    }

    #[test]
    fn date_masks_use_the_users_separator() {
        assert_eq!(masked_date("20240315", "DD/MM/YYYY"), "15.03.2024");
        assert_eq!(masked_date("20240315", "MM/DD/YY"), "03.15.24");
        assert_eq!(masked_date("20240315", "YYMMDD"), "240315");
        assert_eq!(masked_date("20240315", "DDMMYY"), "150324");
    }

    #[test]
    fn text_is_placed_by_justification() {
        assert_eq!(place("ab", 6, Justify::Own, false), "ab    ");
        assert_eq!(place("ab", 6, Justify::Right, false), "    ab");
        assert_eq!(place("ab", 6, Justify::Centered, false), "  ab  ");
        assert_eq!(place("abcdefgh", 3, Justify::Own, false), "abc");
    }
}

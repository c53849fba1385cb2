//! Binary floating point (`f`) and decimal floating point (`decfloat16`/`decfloat34`) text
//! forms and their exact decimal views.

use crate::number::{Dec, NotANumber, Overflow, pow10};

/// Significant digits ABAP shows for `f` (enough to identify every double).
const F_DIGITS: usize = 17;

/// Mantissa digits and decimal exponent of `x` rounded to `digits` significant digits:
/// `x ≈ 0.d1d2…dn × 10^(exp+1)`, i.e. `d1.d2… × 10^exp`.
fn sci_parts(x: f64, digits: usize) -> (bool, String, i32) {
    let text = format!("{:.*e}", digits.saturating_sub(1), x.abs());
    let (mant, exp) = text.split_once('e').unwrap_or((&text, "0"));
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    (
        x.is_sign_negative() && x != 0.0,
        digits,
        exp.parse().unwrap_or(0),
    )
}

/// Conversion of `f` to `string`: scientific notation with 17 significant digits,
/// `1.2500000000000000E+01`, `-5.0000000000000000E-01`, `0.0000000000000000E+00`.
pub fn f_to_string(x: f64) -> String {
    f_scientific(x, F_DIGITS)
}

/// Scientific notation with `digits` significant digits (at least one).
pub fn f_scientific(x: f64, digits: usize) -> String {
    let (neg, ds, exp) = sci_parts(x, digits.max(1));
    let (first, rest) = ds.split_at(1.min(ds.len()));
    let sign = if neg { "-" } else { "" };
    let esign = if exp < 0 { '-' } else { '+' };
    let dot = if rest.is_empty() { "" } else { "." };
    format!("{sign}{first}{dot}{rest}E{esign}{:02}", exp.unsigned_abs())
}

/// Conversion of `f` into a `c` field of `len` characters: scientific notation with as many
/// digits as fit, right-aligned; `*` when not even one digit fits.
pub fn f_to_c(x: f64, len: usize) -> String {
    for digits in (1..=F_DIGITS).rev() {
        let t = f_scientific(x, digits);
        let n = t.chars().count();
        if n <= len {
            return format!("{}{t}", " ".repeat(len - n));
        }
    }
    "*".repeat(len)
}

/// `f` embedded in a string template: mathematical notation with up to 17 significant digits
/// and no trailing zeros (`1.5`, `-0.25`, `8`); scientific for very large or small values.
pub fn f_template(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let (neg, ds, exp) = sci_parts(x, F_DIGITS);
    let ds = ds.trim_end_matches('0');
    let ds = if ds.is_empty() { "0" } else { ds };
    let sign = if neg { "-" } else { "" };
    if !(-5..F_DIGITS as i32).contains(&exp) {
        let (first, rest) = ds.split_at(1.min(ds.len()));
        let dot = if rest.is_empty() { "" } else { "." };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{dot}{rest}E{esign}{}", exp.unsigned_abs());
    }
    let body = if exp < 0 {
        format!("0.{}{ds}", "0".repeat((-exp - 1) as usize))
    } else {
        let int_len = exp as usize + 1;
        if ds.len() <= int_len {
            format!("{ds}{}", "0".repeat(int_len - ds.len()))
        } else {
            let (i, f) = ds.split_at(int_len);
            format!("{i}.{f}")
        }
    };
    format!("{sign}{body}")
}

/// The exact decimal value of `x` rounded to 17 significant digits.
pub fn f_to_dec(x: f64) -> Result<Dec, Overflow> {
    if !x.is_finite() {
        return Err(Overflow);
    }
    if x == 0.0 {
        return Ok(Dec::int(0));
    }
    let (neg, ds, exp) = sci_parts(x, F_DIGITS);
    let mut m: i128 = ds.parse().map_err(|_| Overflow)?;
    if neg {
        m = -m;
    }
    // value = m × 10^(exp − 16)
    let shift = exp - (F_DIGITS as i32 - 1);
    if shift >= 0 {
        let f = pow10(shift.unsigned_abs()).ok_or(Overflow)?;
        Ok(Dec::int(m.checked_mul(f).ok_or(Overflow)?))
    } else {
        Ok(Dec {
            m,
            scale: shift.unsigned_abs(),
        }
        .normalize())
    }
}

/// A decimal as `f` (correctly rounded).
pub fn dec_to_f(d: &Dec) -> f64 {
    if d.scale == 0 {
        return d.m as f64;
    }
    format!("{}e-{}", d.m, d.scale).parse().unwrap_or(0.0)
}

/// Number text for `f`/`decfloat` targets: like [`Dec::parse`] plus scientific notation
/// (`1.5E3`, `-2e-2`).
pub fn parse_f(text: &str) -> Result<f64, NotANumber> {
    let t = text.trim_matches(|c: char| c == ' ' || c == '\t');
    if t.is_empty() {
        return Ok(0.0);
    }
    if let Ok(d) = Dec::parse(t) {
        return Ok(dec_to_f(&d));
    }
    let (neg, body) = match t.strip_suffix('-') {
        Some(b) => (true, b.trim_end()),
        None => (false, t),
    };
    let ok = body
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'));
    if !ok || !body.contains(['e', 'E']) {
        return Err(NotANumber);
    }
    let v: f64 = body.parse().map_err(|_| NotANumber)?;
    if !v.is_finite() {
        return Err(NotANumber);
    }
    Ok(if neg { -v } else { v })
}

/// Decimal number text with optional scientific exponent, exactly, keeping the decimals
/// written (`1.50` has scale 2, as a `decfloat` keeps it).
pub fn parse_decimal(text: &str) -> Result<Dec, NotANumber> {
    if let Ok(d) = Dec::parse(text) {
        let written = text.split_once('.').map_or(0, |(_, f)| {
            f.chars().take_while(char::is_ascii_digit).count()
        });
        let written = u32::try_from(written).unwrap_or(0);
        if written > d.scale
            && let Ok(m) = d.rescale(written)
        {
            return Ok(Dec { m, scale: written });
        }
        return Ok(d);
    }
    let t = text.trim_matches(|c: char| c == ' ' || c == '\t');
    let Some(pos) = t.find(['e', 'E']) else {
        return Err(NotANumber);
    };
    let (mant, exp) = (&t[..pos], &t[pos + 1..]);
    let d = Dec::parse(mant)?;
    if mant.trim().is_empty() {
        return Err(NotANumber);
    }
    let e: i32 = exp.trim().parse().map_err(|_| NotANumber)?;
    let scale = i64::from(d.scale) - i64::from(e);
    if scale >= 0 {
        Ok(Dec {
            m: d.m,
            scale: u32::try_from(scale).map_err(|_| NotANumber)?,
        }
        .normalize())
    } else {
        let f = pow10(u32::try_from(-scale).map_err(|_| NotANumber)?).ok_or(NotANumber)?;
        Ok(Dec::int(d.m.checked_mul(f).ok_or(NotANumber)?))
    }
}

/// Number of significant digits of a mantissa.
fn digit_count(m: i128) -> u32 {
    digits_u128(m.unsigned_abs())
}

fn digits_u128(mut v: u128) -> u32 {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

/// `d` rounded (half away from zero) to `digits` significant digits: the value a
/// `decfloat16`/`decfloat34` holds. Decimal floating point numbers keep their scale
/// (`1.50` stays `1.50`), so only digits beyond the precision are dropped.
pub fn round_significant(d: Dec, digits: u32) -> Result<Dec, Overflow> {
    let n = digit_count(d.m);
    if n <= digits {
        return Ok(d);
    }
    let drop = n - digits;
    if drop <= d.scale {
        let m = d.rescale(d.scale - drop)?;
        return Ok(Dec {
            m,
            scale: d.scale - drop,
        });
    }
    // Integer digits beyond the precision become zeros.
    let kept = Dec {
        m: d.m,
        scale: drop,
    }
    .rescale(0)?;
    let f = pow10(drop - d.scale).ok_or(Overflow)?;
    Ok(Dec::int(kept.checked_mul(f).ok_or(Overflow)?))
}

/// `a / b` with `digits` significant digits (long division, so `1/3` in `decfloat34` has 34
/// threes); an exact quotient keeps at least the scale `scale(a) − scale(b)` (IEEE 754's
/// ideal exponent: `1.00 / 2` is `0.50`). `None` for division by zero.
pub fn div_significant(a: Dec, b: Dec, digits: u32) -> Result<Option<Dec>, Overflow> {
    if b.m == 0 {
        return Ok(None);
    }
    let neg = (a.m < 0) != (b.m < 0);
    let (ua, ub) = (a.m.unsigned_abs(), b.m.unsigned_abs());
    let mut q = ua / ub;
    let mut rem = ua % ub;
    let mut scale: i64 = 0;
    // One guard digit beyond the precision decides the rounding.
    while rem != 0 && (q == 0 || digits_u128(q) <= digits) && scale < 60 {
        let Some(r10) = rem.checked_mul(10) else {
            break;
        };
        let Some(next) = q.checked_mul(10).and_then(|q| q.checked_add(r10 / ub)) else {
            break;
        };
        q = next;
        rem = r10 % ub;
        scale += 1;
    }
    let m = i128::try_from(q).map_err(|_| Overflow)?;
    let m = if neg { -m } else { m };
    // a/b = (ma/mb) × 10^(sb − sa)
    let total = scale + i64::from(a.scale) - i64::from(b.scale);
    let d = if total >= 0 {
        Dec {
            m,
            scale: u32::try_from(total).map_err(|_| Overflow)?,
        }
    } else {
        let f = pow10(u32::try_from(-total).map_err(|_| Overflow)?).ok_or(Overflow)?;
        Dec::int(m.checked_mul(f).ok_or(Overflow)?)
    };
    let d = round_significant(d, digits)?;
    let ideal = a.scale.saturating_sub(b.scale);
    if rem == 0 && d.scale < ideal && digit_count(d.m) + (ideal - d.scale) <= digits {
        return Ok(Some(Dec {
            m: d.rescale(ideal)?,
            scale: ideal,
        }));
    }
    Ok(Some(d))
}

/// `decfloat` converted to `string`: mathematical notation, minus sign in front, the value's
/// own scale (`1.50`).
pub fn decfloat_text(d: &Dec) -> String {
    d.format(d.scale)
}

/// `decfloat` in a string template: as [`decfloat_text`] without trailing zero decimals.
pub fn decfloat_template(d: &Dec) -> String {
    let d = strip_zeros(*d);
    d.format(d.scale)
}

/// `d` without trailing zero decimals (no cap on the scale, unlike `Dec::normalize`).
pub fn strip_zeros(mut d: Dec) -> Dec {
    if d.m == 0 {
        return Dec::int(0);
    }
    while d.scale > 0 && d.m % 10 == 0 {
        d.m /= 10;
        d.scale -= 1;
    }
    d
}

fn aligned(a: Dec, b: Dec) -> Result<(i128, i128, u32), Overflow> {
    let s = a.scale.max(b.scale);
    Ok((a.rescale(s)?, b.rescale(s)?, s))
}

/// `a + b` rounded to `digits` significant digits.
pub fn add_significant(a: Dec, b: Dec, digits: u32) -> Result<Dec, Overflow> {
    let (x, y, s) = aligned(a, b)?;
    round_significant(
        Dec {
            m: x.checked_add(y).ok_or(Overflow)?,
            scale: s,
        },
        digits,
    )
}

/// `a × b` rounded to `digits` significant digits.
pub fn mul_significant(a: Dec, b: Dec, digits: u32) -> Result<Dec, Overflow> {
    round_significant(
        Dec {
            m: a.m.checked_mul(b.m).ok_or(Overflow)?,
            scale: a.scale + b.scale,
        },
        digits,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f_texts() {
        assert_eq!(f_to_string(12.5), "1.2500000000000000E+01");
        assert_eq!(f_to_string(-0.5), "-5.0000000000000000E-01");
        assert_eq!(f_to_string(0.0), "0.0000000000000000E+00");
        assert_eq!(f_to_string(1e100), "1.0000000000000000E+100");
        assert_eq!(f_template(1.5), "1.5");
        assert_eq!(f_template(8.0), "8");
        assert_eq!(f_template(-0.25), "-0.25");
        assert_eq!(f_template(0.1), "0.10000000000000001");
        assert_eq!(f_template(1e20), "1E+20");
        assert_eq!(f_to_c(12.5, 10), "1.2500E+01");
        assert_eq!(f_to_c(12.5, 3), "***");
    }

    #[test]
    fn f_decimal_views() {
        assert_eq!(f_to_dec(2.5).unwrap().rescale(0), Ok(3));
        assert_eq!(f_to_dec(0.1).unwrap().rescale(2), Ok(10));
        assert_eq!(
            f_to_dec(1e20).unwrap().rescale(0),
            Ok(100_000_000_000_000_000_000)
        );
        assert_eq!(parse_f("1.5E3"), Ok(1500.0));
        assert_eq!(parse_f(" 2- "), Ok(-2.0));
        assert!(parse_f("abc").is_err());
        assert_eq!(parse_decimal("1.5E3").unwrap().rescale(0), Ok(1500));
        assert_eq!(parse_decimal("25E-2").unwrap().rescale(2), Ok(25));
    }

    #[test]
    fn decfloat_precision() {
        let third = div_significant(Dec::int(1), Dec::int(3), 34)
            .unwrap()
            .unwrap();
        assert_eq!(decfloat_text(&third), format!("0.{}", "3".repeat(34)));
        let two_thirds = div_significant(Dec::int(2), Dec::int(3), 16)
            .unwrap()
            .unwrap();
        assert_eq!(decfloat_text(&two_thirds), format!("0.{}7", "6".repeat(15)));
        assert_eq!(
            decfloat_text(
                &div_significant(Dec::int(10), Dec::int(4), 34)
                    .unwrap()
                    .unwrap()
            ),
            "2.5"
        );
        let big = round_significant(Dec::int(12_345_678_901_234_567), 16).unwrap();
        assert_eq!(decfloat_text(&big), "12345678901234570");
    }
}

//! Exact decimal numbers as scaled integers: the text forms packed numbers arrive in and the
//! rescaling (ABAP rounds half away from zero) between columns of different decimals.

/// `10^n`, `None` past `i128`.
pub(crate) fn pow10(n: u32) -> Option<i128> {
    10i128.checked_pow(n)
}

/// `text` (`-12.345`, `12.345-`, `+7`, `.5`, blanks around) as mantissa and number of
/// decimals written.
pub(crate) fn parse(text: &str) -> Option<(i128, u32)> {
    let t = text.trim();
    let (neg, body) = if let Some(r) = t.strip_prefix('-') {
        (true, r)
    } else if let Some(r) = t.strip_suffix('-') {
        (true, r.trim_end())
    } else if let Some(r) = t.strip_prefix('+') {
        (false, r)
    } else {
        (false, t)
    };
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, f),
        None => (body, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut m: i128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        m = m.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
    }
    let scale = u32::try_from(frac.len()).ok()?;
    Some((if neg { -m } else { m }, scale))
}

/// `m·10^-from` expressed with `to` decimals, rounded half away from zero.
pub(crate) fn rescale(m: i128, from: u32, to: u32) -> Option<i128> {
    if to >= from {
        m.checked_mul(pow10(to - from)?)
    } else {
        let d = pow10(from - to)?;
        let q = m / d;
        let r = m % d;
        // |r| ≥ d/2, written without doubling (that could overflow).
        let rest = r.unsigned_abs();
        Some(if rest >= d.unsigned_abs() - rest {
            q + m.signum()
        } else {
            q
        })
    }
}

/// Number of digits of `m` (0 has none).
pub(crate) fn digits(m: i128) -> u32 {
    let mut n = 0;
    let mut v = m.unsigned_abs();
    while v > 0 {
        v /= 10;
        n += 1;
    }
    n
}

/// `m·10^-dec` as text: `-12.50`.
pub(crate) fn format(m: i128, dec: u32) -> String {
    let digits = m.unsigned_abs().to_string();
    let sign = if m < 0 { "-" } else { "" };
    if dec == 0 {
        return format!("{sign}{digits}");
    }
    let dec = dec as usize;
    let padded = format!("{digits:0>width$}", width = dec + 1);
    let (i, f) = padded.split_at(padded.len() - dec);
    format!("{sign}{i}.{f}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_format() {
        assert_eq!(parse("12.345"), Some((12345, 3)));
        assert_eq!(parse(" 7- "), Some((-7, 0)));
        assert_eq!(parse(".5"), Some((5, 1)));
        assert_eq!(parse("1e3"), None);
        assert_eq!(parse("-"), None);
        assert_eq!(format(-1250, 2), "-12.50");
        assert_eq!(format(5, 3), "0.005");
        assert_eq!(rescale(12345, 3, 2), Some(1235));
        assert_eq!(rescale(-12345, 3, 2), Some(-1235));
        assert_eq!(rescale(12344, 3, 2), Some(1234));
        assert_eq!(digits(100), 3);
        assert_eq!(rescale(5, 1, 0), Some(1));
        assert_eq!(rescale(-15, 1, 0), Some(-2));
        assert_eq!(rescale(14, 1, 0), Some(1));
        // No overflow when the divisor is near the top of i128.
        assert_eq!(rescale(i128::MAX, 38, 0), Some(2));
    }
}
